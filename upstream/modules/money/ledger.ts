/**
 * The ledger: every balance change is one append-only row, and users.balance_micro always equals
 * the sum of that user's rows. Its kinds, and a user's statement page. Its SQL is in
 * ledger-store.ts; only the money service (service.ts) writes rows.
 */
import type { DB } from "../../platform/db.js";
import { ledgerCountOfUser, ledgerRowsOfUser } from "./ledger-store.js";

export type LedgerKind =
  | "deposit"
  | "withdrawal_request"
  | "withdrawal_returned"
  | "fee"
  | "realised_profit"
  | "demo_reset"
  | "protection"
  | "adjustment"
  | "demo_initial"
  /** Money moved between a follower's balance and a copy's account (both rows, opposite signs). */
  | "copy_in"
  | "copy_out";

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
  "copy_in",
  "copy_out",
];

export const MICRO = 1_000_000;

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
  const offset = (Math.max(1, page) - 1) * pageSize;
  const rows = ledgerRowsOfUser(db, { userId, limit: pageSize, offset });
  return {
    items: rows.map((r) => ({
      id: r.id,
      amountMicro: r.amount_micro,
      balanceAfterMicro: r.balance_after_micro,
      kind: r.kind as LedgerKind,
      createdAt: r.created_at,
    })),
    total: ledgerCountOfUser(db, { userId }),
  };
}
