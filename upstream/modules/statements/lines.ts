/**
 * A statement's figures from the ledger (upstream/API.md "Statements"): every ledger kind belongs
 * to exactly one line of the statement (contract STATEMENT_LINES), so that the opening balance plus
 * the lines is the closing balance, to the micro-dollar. Pure.
 *
 * - deposits: `deposit` (a deposit an operator credited);
 * - withdrawals: `withdrawal_request` (the amount leaving the balance when asked for) and
 *   `withdrawal_returned` (given back when refused or cancelled): the net money that left;
 * - realised_profit: `realised_profit` (a closed position's profit or loss);
 * - fees: `fee` (charged when a position opens);
 * - adjustments: `adjustment` (an operator's), `protection` (negative balance protection) and a
 *   demo account's `demo_initial` and `demo_reset`;
 * - copy_moves: `copy_in` and `copy_out` (money moved into a copy and back).
 */
import type { StatementLine } from "@contract/api/statements";
import { STATEMENT_LINES } from "@contract/api/statements";
import type { KindSums, LedgerKind } from "../money/ledger.js";

export const LINE_OF_KIND: Readonly<Record<LedgerKind, StatementLine>> = {
  deposit: "deposits",
  withdrawal_request: "withdrawals",
  withdrawal_returned: "withdrawals",
  realised_profit: "realised_profit",
  fee: "fees",
  adjustment: "adjustments",
  protection: "adjustments",
  demo_initial: "adjustments",
  demo_reset: "adjustments",
  copy_in: "copy_moves",
  copy_out: "copy_moves",
};

/** The line of a ledger kind (a kind this build does not know is an adjustment). */
export function lineOf(kind: string): StatementLine {
  return LINE_OF_KIND[kind as LedgerKind] ?? "adjustments";
}

export interface StatementFigures {
  openingMicro: number;
  lines: Record<StatementLine, number>;
  closingMicro: number;
  /** Ledger rows inside the range. */
  rows: number;
}

/**
 * The figures of a statement from one reading of the ledger (ledger.ts statementSums): the
 * opening balance (every row before the range), each line's sum of the rows inside it, the
 * closing balance (the opening plus every row inside: the balance at the range's end).
 */
export function statementFigures(sums: readonly KindSums[]): StatementFigures {
  const lines = Object.fromEntries(STATEMENT_LINES.map((l) => [l, 0])) as Record<
    StatementLine,
    number
  >;
  let openingMicro = 0;
  let insideMicro = 0;
  let rows = 0;
  for (const s of sums) {
    openingMicro += s.beforeMicro;
    insideMicro += s.insideMicro;
    lines[lineOf(s.kind)] += s.insideMicro;
    rows += s.inside;
  }
  return { openingMicro, lines, closingMicro: openingMicro + insideMicro, rows };
}
