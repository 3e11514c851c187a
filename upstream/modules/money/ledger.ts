/**
 * The ledger: every balance change is one append-only row, and users.balance_micro always equals
 * the sum of that user's rows. Its kinds, a user's history page and what a statement reads of it
 * (a balance at an instant, a range's sums by kind and its rows). Its SQL is in ledger-store.ts;
 * only the money service (service.ts) writes rows.
 */
import type { DB } from "../../platform/db.js";
import {
  ledgerCountOfUser,
  ledgerRowsBetween,
  ledgerRowsOfUser,
  ledgerStatementSums,
} from "./ledger-store.js";

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

const entryOf = (r: {
  id: number;
  amount_micro: number;
  balance_after_micro: number;
  kind: string;
  created_at: number;
}): LedgerEntry => ({
  id: Number(r.id),
  amountMicro: Number(r.amount_micro),
  balanceAfterMicro: Number(r.balance_after_micro),
  kind: r.kind as LedgerKind,
  createdAt: Number(r.created_at),
});

/** Per kind: Σ of the rows booked before `fromMs`, Σ and count of those in [fromMs, toMs). */
export interface KindSums {
  kind: LedgerKind;
  beforeMicro: number;
  insideMicro: number;
  inside: number;
}

/**
 * What a statement of [fromMs, toMs) reads of a user's ledger, in one consistent reading: per kind
 * the sum of the rows before it (their total is the balance at `fromMs`: a balance is the sum of
 * its rows) and the sum and count of the rows inside it.
 */
export function statementSums(db: DB, userId: number, fromMs: number, toMs: number): KindSums[] {
  return ledgerStatementSums(db, { userId, fromMs, toMs }).map((r) => ({
    kind: r.kind as LedgerKind,
    beforeMicro: r.before,
    insideMicro: r.inside,
    inside: r.n,
  }));
}

/** A page of the rows booked in [fromMs, toMs), in booking order (oldest first). */
export function ledgerBetween(
  db: DB,
  userId: number,
  range: { fromMs: number; toMs: number },
  page: { limit: number; offset: number },
): LedgerEntry[] {
  return ledgerRowsBetween(db, { userId, ...range, ...page }).map(entryOf);
}
