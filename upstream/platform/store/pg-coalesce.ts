/**
 * The rows a handed-off batch appends to its append-only tables, written as one multi-row INSERT
 * per statement text at the end of the batch instead of one INSERT per row where each was made
 * (store/pg.ts commitLater, decision 0024). PostgreSQL's cost per statement (parse, plan, executor
 * start, one row-count check) was most of a batch's time at the server: a batch of six market
 * orders took 4.1-4.4 ms as 24 single-row statements and 1.9-2.6 ms with one statement per table
 * (same server, nothing else running).
 *
 * Why moving these rows to the end is safe:
 * - only the tables in APPEND_ONLY are moved: a batch inserts into them and never reads, updates
 *   or references their rows (the ledger; the idempotency keys, whose sweep deletes only keys a day
 *   old, which no command of the batch inserts);
 * - a row moves later, never earlier, so whatever it references (a user, an order) was written
 *   before it as it was before;
 * - the rows of one statement text keep their order (ledger ids stay in booking order);
 * - a handed-off batch answered nothing while it was decided, so no one read a result (an id,
 *   a row count) of a write that moves, and any failure fails the whole batch anyway.
 * A merged write's expected row count is the sum of its rows' (each row's own, or none at all).
 */
/**
 * A statement that waits to be sent (store/pg.ts): its text, its values (null: none), its prepared
 * name (WRITTEN_ONCE: none, and the worker prepares none), and the number of rows it must change
 * with the failure's message when it does not (expectChanges).
 */
export type PreStatement = [
  sql: string,
  values: unknown[] | null,
  name: string | null,
  expect: [rows: number, message: string] | null,
];

/** The name of a statement the worker writes as it is and never prepares (a merged write). */
export const WRITTEN_ONCE = "";

/** Tables a batch only appends to (see the module's comment). */
export const APPEND_ONLY: ReadonlySet<string> = new Set(["ledger", "idempotency"]);

/**
 * `INSERT INTO table (columns) VALUES ($1, …, $n)` then an optional tail (ON CONFLICT …, RETURNING
 * …) whose parameters, if any, come after the row's.
 */
const SINGLE_ROW_INSERT = /^\s*INSERT INTO (\w+)\s*\(([^)]*)\)\s*VALUES\s*\(([^)]*)\)([\s\S]*)$/i;

interface Shape {
  table: string;
  head: string;
  /** The row's parameters ($1 … $rowArity, in order). */
  rowArity: number;
  tail: string;
}

const shapes = new Map<string, Shape | null>();

/**
 * The shape of a single-row insert (its row's parameters in order, a tail of nothing but ON
 * CONFLICT … and RETURNING id), or null for any other statement; read once per statement text.
 */
function insertShapeOf(sql: string): Shape | null {
  let s = shapes.get(sql);
  if (s !== undefined) return s;
  s = null;
  const m = SINGLE_ROW_INSERT.exec(sql);
  if (m) {
    const params = m[3].split(",").map((p) => p.trim());
    const inOrder = params.every((p, i) => p === `$${i + 1}`);
    const tailParams = [...m[4].matchAll(/\$(\d+)/g)].map((t) => Number(t[1]));
    // The tail is nothing but ON CONFLICT … and RETURNING id (not a second row, nor another result).
    const tailIs = /^\s*(ON CONFLICT\b(?:(?!RETURNING)[\s\S])*)?(RETURNING\s+id)?\s*$/i.test(m[4]);
    if (inOrder && tailIs && tailParams.every((n) => n > params.length))
      s = {
        table: m[1],
        head: `INSERT INTO ${m[1]} (${m[2]}) VALUES `,
        rowArity: params.length,
        tail: m[4].replace(/\s*RETURNING\s+id\s*$/i, "").trimEnd(),
      };
  }
  shapes.set(sql, s);
  return s;
}

/** The shape of a single-row insert into an append-only table, or null for any other statement. */
function shapeOf(sql: string): Shape | null {
  const s = insertShapeOf(sql);
  return s && APPEND_ONLY.has(s.table.toLowerCase()) ? s : null;
}

/**
 * `pre` (a handed-off batch's statements, in order) with its appends moved to the end and merged:
 * one statement per statement text, its rows in their order. A text whose rows differ in their
 * tail's values or in having an expected row count stays where its rows are, as they are.
 */
export function coalesceAppends(pre: readonly PreStatement[]): PreStatement[] {
  const groups = new Map<string, { shape: Shape; rows: PreStatement[]; mixed: boolean }>();
  for (const st of pre) {
    const [sql, values, , expect] = st;
    const shape = values && values.length > 0 ? shapeOf(sql) : null;
    if (!shape) continue;
    const g = groups.get(sql);
    if (!g) {
      groups.set(sql, { shape, rows: [st], mixed: false });
      continue;
    }
    const first = g.rows[0];
    g.mixed ||=
      (first[3] === null) !== (expect === null) ||
      JSON.stringify(first[1]!.slice(shape.rowArity)) !==
        JSON.stringify(values!.slice(shape.rowArity));
    g.rows.push(st);
  }
  const moved = (st: PreStatement) => {
    const g = groups.get(st[0]);
    return g !== undefined && !g.mixed && g.rows.length > 1;
  };
  const out = pre.filter((st) => !moved(st));
  for (const g of groups.values())
    if (!g.mixed && g.rows.length > 1) out.push(merged(g.shape, g.rows));
  return out;
}

/** One INSERT of all `rows` (each a single-row insert of `shape`), parameters renumbered. */
function merged(shape: Shape, rows: PreStatement[]): PreStatement {
  const n = shape.rowArity;
  const values: unknown[] = [];
  const tuples: string[] = [];
  for (const [, v] of rows) {
    const at = values.length;
    tuples.push(`(${Array.from({ length: n }, (_, i) => `$${at + i + 1}`).join(", ")})`);
    values.push(...v!.slice(0, n));
  }
  // The tail's parameters (equal in every row) follow all the rows'.
  const tailValues = rows[0][1]!.slice(n);
  const base = values.length;
  const tail = shape.tail.replace(/\$(\d+)/g, (_, d: string) => `$${base + Number(d) - n}`);
  values.push(...tailValues);
  const expected = rows[0][3]
    ? ([
        rows.reduce((sum, r) => sum + r[3]![0], 0),
        `${rows.length} writes into ${shape.table}, one of which failed its check: ${rows[0][3][1]}`,
      ] as [number, string])
    : null;
  return [`${shape.head}${tuples.join(", ")}${tail}`, values, WRITTEN_ONCE, expected];
}

/**
 * A kind of write whose rows merge where they follow one another in a batch, across statements that
 * cannot see the difference (those not matching `blockedBy`): a row then moves later, to the
 * position of its run's last row, past statements that neither touch its row nor depend on it.
 */
interface RunKind {
  name: string;
  /** This statement is a row of the kind. */
  matches(st: PreStatement): boolean;
  /** A statement that ends a run (it may read or reference what the kind writes). */
  blockedBy: RegExp;
  /** One statement for the run's rows, or null to leave them as they are. */
  merge(rows: PreStatement[]): PreStatement | null;
}

/** A new order with its id taken ahead (trading/store.ts insertOrderWithId). */
const ORDER_INSERT: RunKind = {
  name: "orders",
  matches: ([sql, values]) => {
    if (!values || values.length === 0) return false;
    const shape = insertShapeOf(sql);
    return shape !== null && shape.table.toLowerCase() === "orders" && shape.tail === "";
  },
  // Anything naming an order (the orders table, an order_id) may see the row or reference it.
  blockedBy: /order/i,
  merge: (rows) => merged(insertShapeOf(rows[0][0])!, rows),
};

/**
 * A booking on a balance the money service holds, guarded by the balance it expects
 * (money/ledger-store.ts moveKnown, with its expected row count).
 */
const GUARDED_BALANCE =
  /^\s*UPDATE users SET balance_micro = balance_micro \+ \$1 WHERE id = \$2 AND balance_micro = \$3\s*$/i;

const BALANCE_UPDATE: RunKind = {
  name: "balances",
  matches: ([sql, values, , expect]) =>
    values !== null && values.length === 3 && expect !== null && GUARDED_BALANCE.test(sql),
  // Anything naming the users table may read or change a balance.
  blockedBy: /\busers\b/i,
  merge(rows) {
    // One row per user: the first expected balance and the sum of the amounts, when each booking
    // expected the balance the one before it left (as the service books them).
    const byUser = new Map<number, { before: number; amount: number; after: number }>();
    for (const [, v] of rows) {
      const [amount, userId, before] = v as [number, number, number];
      if (![amount, userId, before].every(Number.isSafeInteger)) return null;
      const u = byUser.get(userId);
      if (!u) byUser.set(userId, { before, amount, after: before + amount });
      else if (u.after !== before) return null;
      else {
        u.amount += amount;
        u.after += amount;
      }
    }
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const [userId, u] of byUser) {
      const at = values.length;
      tuples.push(`($${at + 1}::bigint, $${at + 2}::bigint, $${at + 3}::bigint)`);
      values.push(userId, u.amount, u.before);
    }
    const users = [...byUser.keys()].join(", ");
    return [
      `UPDATE users SET balance_micro = users.balance_micro + v.amount FROM (VALUES ${tuples.join(", ")}) AS v(id, amount, before) WHERE users.id = v.id AND users.balance_micro = v.before`,
      values,
      WRITTEN_ONCE,
      [byUser.size, `the balances in memory of users ${users} are not all the stored ones`],
    ];
  },
};

const RUN_KINDS: readonly RunKind[] = [ORDER_INSERT, BALANCE_UPDATE];

/**
 * `pre` with each run of new orders, and each run of guarded bookings, written as one statement at
 * the position of the run's last row. A run ends at a statement that may see what it writes
 * (`blockedBy`), or at a row whose expected row count differs in kind from the run's.
 */
export function coalesceRuns(pre: readonly PreStatement[]): PreStatement[] {
  const out: (PreStatement | null)[] = [...pre];
  const open = new Map<RunKind, number[]>();
  const close = (k: RunKind) => {
    const at = open.get(k);
    open.delete(k);
    if (!at || at.length < 2) return;
    const m = k.merge(at.map((i) => pre[i]));
    if (!m) return;
    for (const i of at) out[i] = null;
    out[at[at.length - 1]] = m;
  };
  pre.forEach((st, i) => {
    const kind = RUN_KINDS.find((k) => k.matches(st));
    for (const k of RUN_KINDS) if (k !== kind && open.has(k) && k.blockedBy.test(st[0])) close(k);
    if (!kind) return;
    const at = open.get(kind);
    if (at && (pre[at[0]][3] === null) === (st[3] === null)) at.push(i);
    else {
      close(kind);
      open.set(kind, [i]);
    }
  });
  for (const k of RUN_KINDS) close(k);
  return out.filter((st): st is PreStatement => st !== null);
}
