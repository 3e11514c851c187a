/**
 * The ledger's SQL: every balance change is one append-only row, and users.balance_micro always
 * equals the sum of that user's rows. The one file holding the SQL that writes ledger rows and
 * moves balances; only the money service (service.ts, and ledger.ts for the reads) imports it
 * (tests/unit/upstream-boundaries.test.ts).
 */
import {
  chunked,
  prepareOnce,
  tuples,
  type DB,
  type RunResult,
  type Statement,
} from "../../platform/db.js";
import { expectChanges } from "../../platform/store/expect-changes.js";

/** A user's balance and locked balance as stored (micro-USD). */
export interface BalanceRow {
  balance_micro: number;
  lock_balance_micro: number;
}

/** One ledger row to append. */
export interface LedgerInsert {
  userId: number;
  /** Signed integer micro-USD. */
  amountMicro: number;
  balanceAfterMicro: number;
  /** One of ledger.ts's LEDGER_KINDS. */
  kind: string;
  memo: string | null;
  ref: string | null;
  createdAt: number;
}

/** A user and an amount (micro-USD) a balance statement moves. */
export interface BalanceMove {
  userId: number;
  amountMicro: number;
}

/** The ledger's statements on one store, prepared once (the engine books on its hot path). */
export interface LedgerStore {
  /** Moves a balance by a signed amount; the balance after, or undefined for no such user. */
  moveBalance(m: BalanceMove): number | undefined;
  /**
   * Moves a balance known to be `beforeMicro` (no answer needed: the write may wait); the result's
   * `changes` is 1 only when the stored balance was `beforeMicro`.
   */
  moveKnownBalance(m: BalanceMove & { beforeMicro: number }): RunResult;
  /**
   * Moves the balances of distinct users by signed amounts, ROWS_PER_STATEMENT users a statement;
   * each moved user's balance after (a user not stored is absent).
   */
  moveBalances(moves: readonly BalanceMove[]): Map<number, number>;
  /**
   * Moves the balances of distinct users known to be `beforeMicro` (no answer needed), as
   * moveKnownBalance does for one, one statement per ROWS_PER_STATEMENT users; each statement
   * must move every one of its users (expectChanges: otherwise it fails with `message`).
   */
  moveKnownBalances(
    moves: readonly (BalanceMove & { beforeMicro: number })[],
    message: string,
  ): void;
  /** Appends one ledger row. */
  insertRow(row: LedgerInsert): void;
  /** Appends ledger rows in order, ROWS_PER_STATEMENT rows a statement. */
  insertRows(rows: readonly LedgerInsert[]): void;
  /** Moves an amount between balance and lock_balance (positive: into the lock); both after. */
  shiftToLock(m: BalanceMove): BalanceRow;
  /** Takes an amount out of lock_balance (paid out); both after. */
  releaseLock(m: BalanceMove): BalanceRow;
  balances(userId: number): BalanceRow | undefined;
  /** Sum of a user's ledger rows. */
  sum(userId: number): number;
}

/** One ledger row's parameters (ledgerValues). */
const LEDGER_TUPLE = "(?, ?, ?, ?, ?, ?, ?)";

export function ledgerStore(db: DB): LedgerStore {
  const st = {
    // Positional parameters on the two statements every market order's fee runs: they bind faster
    // than by name (see trading/store.ts insertOrder).
    move: db.prepare(
      "UPDATE users SET balance_micro = balance_micro + ? WHERE id = ? RETURNING balance_micro",
    ),
    moveKnown: db.prepare(
      "UPDATE users SET balance_micro = balance_micro + @amountMicro WHERE id = @userId AND balance_micro = @beforeMicro",
    ),
    insert: db.prepare(
      `INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, memo, ref, created_at)
       VALUES ${LEDGER_TUPLE}`,
    ),
    hold: db.prepare(
      `UPDATE users SET balance_micro = balance_micro - @amountMicro,
         lock_balance_micro = lock_balance_micro + @amountMicro
       WHERE id = @userId RETURNING balance_micro, lock_balance_micro`,
    ),
    release: db.prepare(
      "UPDATE users SET lock_balance_micro = lock_balance_micro - @amountMicro WHERE id = @userId RETURNING balance_micro, lock_balance_micro",
    ),
    balances: db.prepare("SELECT balance_micro, lock_balance_micro FROM users WHERE id = @userId"),
    sum: db.prepare(
      "SELECT COALESCE(SUM(amount_micro), 0) AS s FROM ledger WHERE user_id = @userId",
    ),
  } satisfies Record<string, Statement>;
  return {
    moveBalance: (m) =>
      (st.move.get(m.amountMicro, m.userId) as { balance_micro: number } | undefined)
        ?.balance_micro,
    moveKnownBalance: (m) => st.moveKnown.run(m),
    moveBalances: (moves) => {
      // SQLite walks the whole users table for every UPDATE … FROM (VALUES …): one prepared
      // single-row statement per move instead (trading/store.ts closeOrders says the same).
      if (db.dialect !== "sqlite") return moveBalances(db, moves);
      const after = new Map<number, number>();
      for (const m of moves) {
        const r = st.move.get(m.amountMicro, m.userId) as { balance_micro: number } | undefined;
        if (r) after.set(m.userId, r.balance_micro);
      }
      return after;
    },
    moveKnownBalances: (moves, message) => {
      for (const part of chunked(moves))
        expectChanges(moveKnownBalances(db, part), part.length, message);
    },
    insertRow: (row) => void st.insert.run(ledgerValues(row)),
    insertRows: (rows) => {
      for (const part of chunked(rows)) insertRows(db, part);
    },
    shiftToLock: (m) => st.hold.get(m) as BalanceRow,
    releaseLock: (m) => st.release.get(m) as BalanceRow,
    balances: (userId) => st.balances.get({ userId }) as BalanceRow | undefined,
    sum: (userId) => (st.sum.get({ userId }) as { s: number }).s,
  };
}

/**
 * One UPDATE … FROM (VALUES …) per slice (PostgreSQL: one round trip, a hash join). The values are
 * cast to BIGINT: PostgreSQL types a parameter in a VALUES list as text otherwise.
 */
function moveBalances(db: DB, moves: readonly BalanceMove[]): Map<number, number> {
  const after = new Map<number, number>();
  for (const part of chunked(moves)) {
    const rows = prepareOnce(
      db,
      `UPDATE users SET balance_micro = users.balance_micro + v.column2
         FROM (VALUES ${tuples(part.length, "(CAST(? AS BIGINT), CAST(? AS BIGINT))")}) AS v
         WHERE users.id = v.column1 RETURNING id, balance_micro`,
    ).all(part.flatMap((m) => [m.userId, m.amountMicro])) as {
      id: number;
      balance_micro: number;
    }[];
    for (const r of rows) after.set(Number(r.id), r.balance_micro);
  }
  return after;
}

/** One guarded UPDATE … FROM (VALUES …) for one slice (see LedgerStore.moveKnownBalances). */
function moveKnownBalances(
  db: DB,
  part: readonly (BalanceMove & { beforeMicro: number })[],
): RunResult {
  return prepareOnce(
    db,
    `UPDATE users SET balance_micro = users.balance_micro + v.column2
       FROM (VALUES ${tuples(part.length, "(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))")}) AS v
       WHERE users.id = v.column1 AND users.balance_micro = v.column3`,
  ).run(part.flatMap((m) => [m.userId, m.amountMicro, m.beforeMicro]));
}

function insertRows(db: DB, rows: readonly LedgerInsert[]): void {
  prepareOnce(
    db,
    `INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, memo, ref, created_at)
     VALUES ${tuples(rows.length, LEDGER_TUPLE)}`,
  ).run(rows.flatMap(ledgerValues));
}

/** A ledger row's values in the order of the ledger INSERTs' columns. */
function ledgerValues(r: LedgerInsert): unknown[] {
  return [r.userId, r.amountMicro, r.balanceAfterMicro, r.kind, r.memo, r.ref, r.createdAt];
}

/** A ledger row as a user's statement shows it. */
export interface LedgerPageRow {
  id: number;
  amount_micro: number;
  balance_after_micro: number;
  kind: string;
  created_at: number;
}

/** One page of a user's ledger rows, newest first. */
export function ledgerRowsOfUser(
  db: DB,
  p: { userId: number; limit: number; offset: number },
): LedgerPageRow[] {
  return db
    .prepare(
      `SELECT id, amount_micro, balance_after_micro, kind, created_at FROM ledger
       WHERE user_id = @userId ORDER BY id DESC LIMIT @limit OFFSET @offset`,
    )
    .all(p) as LedgerPageRow[];
}

/** How many ledger rows a user has. */
export function ledgerCountOfUser(db: DB, p: { userId: number }): number {
  return (
    db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = @userId").get(p) as { n: number }
  ).n;
}

/** A ledger row as a statement lists it. */
export type LedgerRangeRow = LedgerPageRow;

/**
 * Per kind, Σ amount of a user's rows booked before `fromMs` and of those booked in
 * [fromMs, toMs), and how many of the latter: one statement, so one consistent reading of the
 * ledger (a row committed meanwhile is in all three sums or in none).
 */
export function ledgerStatementSums(
  db: DB,
  p: { userId: number; fromMs: number; toMs: number },
): { kind: string; before: number; inside: number; n: number }[] {
  return (
    db
      .prepare(
        `SELECT kind,
           COALESCE(SUM(CASE WHEN created_at < @fromMs THEN amount_micro ELSE 0 END), 0) AS before_sum,
           COALESCE(SUM(CASE WHEN created_at >= @fromMs THEN amount_micro ELSE 0 END), 0) AS inside_sum,
           COALESCE(SUM(CASE WHEN created_at >= @fromMs THEN 1 ELSE 0 END), 0) AS n
         FROM ledger WHERE user_id = @userId AND created_at < @toMs GROUP BY kind`,
      )
      .all(p) as { kind: string; before_sum: number; inside_sum: number; n: number }[]
  ).map((r) => ({
    kind: r.kind,
    before: Number(r.before_sum),
    inside: Number(r.inside_sum),
    n: Number(r.n),
  }));
}

/** A page of a user's rows booked in [fromMs, toMs), in booking order (oldest first). */
export function ledgerRowsBetween(
  db: DB,
  p: { userId: number; fromMs: number; toMs: number; limit: number; offset: number },
): LedgerRangeRow[] {
  return db
    .prepare(
      `SELECT id, amount_micro, balance_after_micro, kind, created_at FROM ledger
       WHERE user_id = @userId AND created_at >= @fromMs AND created_at < @toMs
       ORDER BY id LIMIT @limit OFFSET @offset`,
    )
    .all(p) as LedgerRangeRow[];
}
