/**
 * The ledger check's reads (check.ts): every user, ledger row, order, withdrawal and deposit, in
 * the order the checks walk them. Read-only.
 */
import type { DB } from "../../platform/db.js";

export interface CheckUserRow {
  id: number;
  balance_micro: number;
  lock_balance_micro: number;
}

export interface CheckLedgerRow {
  id: number;
  user_id: number;
  amount_micro: number;
  balance_after_micro: number;
  kind: string;
  ref: string | null;
}

export interface CheckOrderRow {
  id: number;
  user_id: number;
  status: number;
  open_price: number | null;
  close_price: number | null;
  margin_micro: number;
  fee_micro: number;
  profit_micro: number | null;
  opened_at: number | null;
  closed_at: number | null;
  /** A part closed from an open position: that position's id. */
  parent_id: number | null;
}

export interface CheckDrawRow {
  id: number;
  user_id: number;
  amount_micro: number;
  status: number;
}

export interface CheckChargeRow {
  id: number;
  user_id: number;
  status: number;
  credited_micro: number | null;
}

/** Everything the checks read, in one go (call it inside one read transaction). */
export interface CheckSnapshot {
  users: CheckUserRow[];
  /** By user, then by id: each user's rows in booking order. */
  ledger: CheckLedgerRow[];
  orders: CheckOrderRow[];
  draws: CheckDrawRow[];
  charges: CheckChargeRow[];
}

export function readCheckSnapshot(db: DB): CheckSnapshot {
  return {
    users: db
      .prepare("SELECT id, balance_micro, lock_balance_micro FROM users ORDER BY id")
      .all() as CheckUserRow[],
    ledger: db
      .prepare(
        "SELECT id, user_id, amount_micro, balance_after_micro, kind, ref FROM ledger ORDER BY user_id, id",
      )
      .all() as CheckLedgerRow[],
    orders: db
      .prepare(
        `SELECT id, user_id, status, open_price, close_price, margin_micro, fee_micro, profit_micro,
           opened_at, closed_at, parent_id FROM orders ORDER BY id`,
      )
      .all() as CheckOrderRow[],
    draws: db
      .prepare("SELECT id, user_id, amount_micro, status FROM draws ORDER BY id")
      .all() as CheckDrawRow[],
    charges: db
      .prepare("SELECT id, user_id, status, credited_micro FROM charges ORDER BY id")
      .all() as CheckChargeRow[],
  };
}
