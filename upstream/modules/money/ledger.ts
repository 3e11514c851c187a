/**
 * The ledger: every balance change is one append-only row, and users.balance_micro always equals
 * the sum of that user's rows. Callers run postLedger inside their own db.transaction so that the
 * change and the business record it belongs to commit together.
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

export interface LedgerEntry {
  userId: number;
  /** Signed integer micro-USD. */
  amountMicro: number;
  kind: LedgerKind;
  ref?: string | null;
  at?: number;
}

export const MICRO = 1_000_000;

export function assertMicro(n: number): void {
  if (!Number.isSafeInteger(n)) throw new Error(`amount is not an integer micro-USD value: ${n}`);
}

/** Prepared once per store (the order engine books on its hot path; preparing per call cost more than the write). */
const prepared = new WeakMap<DB, { move: Statement<unknown[]>; insert: Statement<unknown[]> }>();
function statements(db: DB) {
  let st = prepared.get(db);
  if (!st) {
    st = {
      move: db.prepare("UPDATE users SET balance_micro = balance_micro + ? WHERE id = ? RETURNING balance_micro"),
      insert: db.prepare("INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, ref, created_at) VALUES (?, ?, ?, ?, ?, ?)"),
    };
    prepared.set(db, st);
  }
  return st;
}

/** Books one row and moves the balance; returns the balance after, in micro-USD. */
export function postLedger(db: DB, e: LedgerEntry): number {
  assertMicro(e.amountMicro);
  const st = statements(db);
  const row = st.move.get(e.amountMicro, e.userId) as { balance_micro: number } | undefined;
  if (!row) throw new Error(`no such user ${e.userId}`);
  st.insert.run(
    e.userId,
    e.amountMicro,
    row.balance_micro,
    e.kind,
    e.ref ?? null,
    e.at ?? Date.now(),
  );
  return row.balance_micro;
}

export function ledgerSum(db: DB, userId: number): number {
  const r = db.prepare("SELECT COALESCE(SUM(amount_micro), 0) AS s FROM ledger WHERE user_id = ?").get(userId) as { s: number };
  return r.s;
}
