/**
 * The ledger's SQL: every balance change is one append-only row, and users.balance_micro always
 * equals the sum of that user's rows. Only the money service (service.ts) writes here.
 */
import type { Statement } from "better-sqlite3";
import type { DB } from "../../platform/db.js";

export type LedgerKind =
  | "deposit"
  | "withdrawal_request"
  | "withdrawal_returned"
  | "fee"
  | "realised_profit"
  | "demo_reset"
  | "protection"
  | "adjustment"
  | "demo_initial";

export const LEDGER_KINDS: readonly LedgerKind[] = [
  "deposit",
  "withdrawal_request",
  "withdrawal_returned",
  "fee",
  "realised_profit",
  "demo_reset",
  "protection",
  "adjustment",
  "demo_initial",
];

export const MICRO = 1_000_000;

export interface LedgerStatements {
  /** Moves a balance by a signed amount; returns the balance after (undefined: no such user). */
  move: Statement<unknown[]>;
  insert: Statement<unknown[]>;
  balances: Statement<unknown[]>;
  sum: Statement<unknown[]>;
  /** Moves an amount between balance and lock_balance (positive: into the lock); both after. */
  hold: Statement<unknown[]>;
  /** Takes an amount out of lock_balance (paid out); both after. */
  release: Statement<unknown[]>;
}

export function ledgerStatements(db: DB): LedgerStatements {
  return {
    move: db.prepare(
      "UPDATE users SET balance_micro = balance_micro + ? WHERE id = ? RETURNING balance_micro",
    ),
    insert: db.prepare(
      "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, memo, ref, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    balances: db.prepare("SELECT balance_micro, lock_balance_micro FROM users WHERE id = ?"),
    sum: db.prepare("SELECT COALESCE(SUM(amount_micro), 0) AS s FROM ledger WHERE user_id = ?"),
    hold: db.prepare(
      "UPDATE users SET balance_micro = balance_micro - @amount, lock_balance_micro = lock_balance_micro + @amount WHERE id = @user RETURNING balance_micro, lock_balance_micro",
    ),
    release: db.prepare(
      "UPDATE users SET lock_balance_micro = lock_balance_micro - ? WHERE id = ? RETURNING balance_micro, lock_balance_micro",
    ),
  };
}

export interface LedgerEntry {
  id: number;
  amountMicro: number;
  balanceAfterMicro: number;
  kind: LedgerKind;
  createdAt: number;
}

/** One page of a user's ledger, newest first, with the number of rows in all. */
export function ledgerPage(
  db: DB,
  userId: number,
  page: number,
  pageSize: number,
): { items: LedgerEntry[]; total: number } {
  const rows = db
    .prepare(
      "SELECT id, amount_micro, balance_after_micro, kind, created_at FROM ledger WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
    )
    .all(userId, pageSize, (Math.max(1, page) - 1) * pageSize) as {
    id: number;
    amount_micro: number;
    balance_after_micro: number;
    kind: LedgerKind;
    created_at: number;
  }[];
  const total = (
    db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ?").get(userId) as { n: number }
  ).n;
  return {
    items: rows.map((r) => ({
      id: r.id,
      amountMicro: r.amount_micro,
      balanceAfterMicro: r.balance_after_micro,
      kind: r.kind,
      createdAt: r.created_at,
    })),
    total,
  };
}
