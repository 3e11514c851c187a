/**
 * Statements and own statistics (upstream/API.md "Statements", "Statistics"): what the routes and
 * the monthly e-mail read. A statement is read from the ledger (money/ledger.ts) and the closed
 * positions (store.ts); own statistics from the same sums of closed positions as the ranking and
 * a provider's page (follow/stats.ts, follow/store.ts), so a figure means one thing everywhere.
 */
import {
  microText,
  monthBefore,
  monthOf,
  monthsBetween,
  STATEMENT_MAX_DAYS,
  STATS_MONTHS,
  statementRange,
  type OwnStats,
  type Statement,
  type StatementPosition,
  type StatementRow,
} from "@contract/api/statements";
import { CLOSE_REASONS, type CloseReason } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { DomainError, CODE_FAIL } from "../../platform/errors.js";
import { translate, type Lang } from "../../platform/i18n.js";
import { wireTime } from "../../platform/wire.js";
import { ledgerBetween, statementSums } from "../money/ledger.js";
import {
  addTally,
  closedCurve,
  NO_TALLY,
  percent,
  tradeFigures,
  type ClosedTally,
} from "../follow/stats.js";
import { closedGroups, closedNets, showCodes } from "../follow/store.js";
import { lineOf, statementFigures } from "./lines.js";
import { closedPositionCount, closedPositionsBetween, type StatementPositionRow } from "./store.js";

/** A statement's range as instants: [fromMs, toMs). */
export interface Range {
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
}

/** The days `from` to `to` as a statement's range; a refusal (HTTP 400, translated) otherwise. */
export function rangeOf(from: string, to: string): Range {
  const r = statementRange(from, to);
  if (!r.ok)
    throw new DomainError(`statements.${r.problem}`, CODE_FAIL, { max: STATEMENT_MAX_DAYS }, 400);
  return { from, to, fromMs: r.fromMs, toMs: r.toMs };
}

/** The statement's balances and lines, from one reading of the ledger. */
export function statementOf(db: DB, userId: number, r: Range): Statement {
  const f = statementFigures(statementSums(db, userId, r.fromMs, r.toMs));
  return {
    from: r.from,
    to: r.to,
    opening: microText(f.openingMicro),
    lines: Object.fromEntries(
      Object.entries(f.lines).map(([line, micro]) => [line, microText(micro)]),
    ) as Statement["lines"],
    closing: microText(f.closingMicro),
    positions: closedPositionCount(db, { userId, fromMs: r.fromMs, toMs: r.toMs }),
    ledger_rows: f.rows,
  };
}

/** A page of the statement's ledger rows (oldest first), each with its line; how many in all. */
export function statementRows(
  db: DB,
  lang: Lang,
  userId: number,
  r: Range,
  page: { page: number; size: number },
): { data: StatementRow[]; total: number } {
  const total = statementFigures(statementSums(db, userId, r.fromMs, r.toMs)).rows;
  const rows = ledgerBetween(db, userId, r, {
    limit: page.size,
    offset: (page.page - 1) * page.size,
  });
  const data = rows.map((e) => ({
    id: e.id,
    at: wireTime(e.createdAt),
    kind: e.kind,
    line: lineOf(e.kind),
    memo: translate(lang, `ledger_kind_${e.kind}`),
    amount: microText(e.amountMicro),
    balance: microText(e.balanceAfterMicro),
  }));
  return { data, total };
}

const reasonOf = (r: string | null): CloseReason | null =>
  (CLOSE_REASONS as readonly string[]).includes(r ?? "") ? (r as CloseReason) : null;

function positionView(p: StatementPositionRow): StatementPosition {
  const fee = Number(p.fee_micro);
  const profit = Number(p.profit_micro ?? 0);
  return {
    id: Number(p.id),
    code: p.show_code,
    side: Number(p.order_type),
    lots: p.lots,
    leverage: Number(p.leverage),
    open_price: Number(p.open_price ?? 0),
    close_price: Number(p.close_price ?? 0),
    precision: Number(p.price_precision),
    opened_at: wireTime(p.opened_at === null ? null : Number(p.opened_at)),
    closed_at: wireTime(Number(p.closed_at)),
    fee: microText(fee),
    profit: microText(profit),
    net: microText(profit - fee),
    reason: reasonOf(p.close_reason),
  };
}

/** A page of the positions closed in the statement's range (in the order they closed). */
export function statementPositions(
  db: DB,
  userId: number,
  r: Range,
  page: { page: number; size: number },
): { data: StatementPosition[]; total: number } {
  const at = { userId, fromMs: r.fromMs, toMs: r.toMs };
  const rows = closedPositionsBetween(db, {
    ...at,
    limit: page.size,
    offset: (page.page - 1) * page.size,
  });
  return { data: rows.map(positionView), total: closedPositionCount(db, at) };
}

/** The closes own statistics read for the drawdown (the latest ones: a bounded read). */
export const OWN_CURVE_WINDOW = 100_000;

const sumOf = (tallies: Iterable<ClosedTally>) => [...tallies].reduce(addTally, NO_TALLY);

/**
 * The account's own statistics at `nowMs`: every position it closed (tradeFigures), the largest
 * fall of its running result (closedCurve from 0 over its latest OWN_CURVE_WINDOW closes), the
 * net and count of each of the last STATS_MONTHS months (UTC), and its trades by instrument.
 */
export function ownStatsOf(db: DB, u: { id: number; is_demo: number }, nowMs: number): OwnStats {
  const groups = closedGroups(db, u.id, 0, Number.MAX_SAFE_INTEGER);
  const byInstrument = new Map<number, ClosedTally>();
  for (const g of groups)
    byInstrument.set(
      g.instrumentId,
      addTally(byInstrument.get(g.instrumentId) ?? NO_TALLY, g.tally),
    );
  const codes = showCodes(db);
  const last = monthOf(nowMs);
  let first = last;
  for (let i = 1; i < STATS_MONTHS; i++) first = monthBefore(first);
  const months = monthsBetween(first, last).map((m) => {
    const t = sumOf(closedGroups(db, u.id, m.startMs - 1, m.endMs - 1).map((g) => g.tally));
    return { month: m.month, net: microText(t.netMicro), trades: t.count };
  });
  return {
    account: u.is_demo ? "demo" : "real",
    figures: tradeFigures(sumOf(groups.map((g) => g.tally))),
    max_drawdown: microText(
      closedCurve(0, closedNets(db, u.id, OWN_CURVE_WINDOW)).maxDrawdownMicro,
    ),
    months,
    instruments: [...byInstrument]
      .map(([id, t]) => ({
        code: codes.get(id) ?? String(id),
        trades: t.count,
        wins: t.wins,
        win_rate: percent(t.wins, t.count),
        net: microText(t.netMicro),
      }))
      .sort((a, b) => b.trades - a.trades || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)),
  };
}
