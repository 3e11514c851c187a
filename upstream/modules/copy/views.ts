/**
 * The copy API's wire shapes (@contract/api/copy), from the store's rows and the engine's figures.
 * Money is USD text with 2 decimals, cut from exact micro-USD.
 */
import {
  COPY_SKIPPED_ROWS,
  EQUITY_POINTS,
  copyFloorMicro,
  type Copy,
  type CopyDetail,
  type Provider,
} from "@contract/api/copy";
import { ORDER_STATUS, ORDER_TAB } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { translate, type Lang } from "../../platform/i18n.js";
import { wireTime } from "../../platform/wire.js";
import type { Engine } from "../trading/engine.js";
import { orderView } from "../trading/views.js";
import {
  addTally,
  monthlyReturns,
  NO_TALLY,
  percent,
  tradeFigures,
  traderStats,
  usd2,
} from "../follow/stats.js";
import { closedGroups, totalsOf } from "../follow/store.js";
import { PROVIDER_CURVE_WINDOW, providerCurve } from "../follow/risk.js";
import { closedNetsByDay, latestDailyOf } from "../follow/risk-store.js";
import { riskCopyMax } from "./risk-limit.js";
import {
  closedTotals,
  copiedOrders,
  copyingOf,
  instrumentsTraded,
  lastTrade,
  providerById,
  skippedTrades,
  type CopyRow,
  type ProviderRow,
} from "./store.js";

/** A copy's wire shape; `providerName` when the caller holds it (else read from the store). */
export function copyView(db: DB, engine: Engine, c: CopyRow, providerName?: string): Copy {
  const v = engine.accountValues(c.account_id);
  return {
    id: c.id,
    provider_id: c.provider_id,
    provider_name: providerName ?? providerById(db, c.provider_id)?.name ?? "",
    status: c.status,
    mode: c.mode,
    multiple: c.multiple,
    stop_loss_pct: c.stop_loss_pct,
    copy_open: c.copy_open === 1,
    invested: usd2(c.invested_micro),
    balance: usd2(v.balanceMicro),
    equity: usd2(v.equityMicro),
    profit: usd2(v.equityMicro - c.invested_micro),
    stop_loss_level: usd2(copyFloorMicro(c.invested_micro, c.stop_loss_pct)),
    free_margin: usd2(Math.max(0, v.freeMarginMicro)),
    open_positions: engine.openPositionIds(c.account_id).length,
    created_at: wireTime(c.created_at),
    stopped_at: c.stopped_at === null ? null : wireTime(c.stopped_at),
    stop_reason: c.stop_reason,
  };
}

export function copyDetailView(db: DB, engine: Engine, c: CopyRow, lang: Lang): CopyDetail {
  const followed = new Map<number, number>();
  for (const st of [ORDER_STATUS.OPEN, ORDER_STATUS.CLOSED])
    for (const r of copiedOrders(db, c.id, st, 1_000_000))
      followed.set(r.order_id, r.provider_order_id);
  const positions = engine
    .openPositionIds(c.account_id)
    .map((id) => engine.liveOrder(id))
    .filter((o) => o !== null)
    .map((o) => ({ ...orderView(o, lang), provider_order_id: followed.get(o.id) ?? 0 }));
  const closed = engine
    .listOrders(c.account_id, ORDER_TAB.HISTORY, 1)
    .orders.map((o) => ({ ...orderView(o, lang), provider_order_id: followed.get(o.id) ?? 0 }));
  const skipped = skippedTrades(db, c.id, COPY_SKIPPED_ROWS).map((s) => ({
    provider_order_id: s.provider_order_id,
    code: s.show_code,
    side: s.order_type,
    lots: s.lots,
    reason: translate(lang, s.skip_reason),
    created_at: wireTime(s.created_at),
  }));
  return { ...copyView(db, engine, c), positions, closed, skipped };
}

/** At most EQUITY_POINTS of a curve's points, evenly taken, the last one always kept. */
function thinned(points: [number, number][]): [number, number][] {
  const every = Math.max(1, Math.ceil(points.length / EQUITY_POINTS));
  return points.filter((_, i) => i % every === 0 || i === points.length - 1);
}

/** What a provider's page says of its risk: the latest daily score and what it came from. */
function riskOf(db: DB, providerId: number) {
  const daily = latestDailyOf(db, providerId);
  const max = riskCopyMax(db);
  return {
    risk_score: daily?.risk_score ?? null,
    risk: daily
      ? {
          volatility: daily.volatility,
          leverage: daily.leverage,
          concentration: Math.round(daily.concentration * 100),
        }
      : null,
    copy_refused: daily !== undefined && daily.risk_score > max,
    risk_copy_max: max,
  };
}

export function providerView(
  db: DB,
  engine: Engine,
  p: ProviderRow,
  window = PROVIDER_CURVE_WINDOW,
): Provider {
  const stats = traderStats(
    p.user_id,
    p.name,
    p.start_capital_micro,
    totalsOf(db, p.user_id, Date.now()),
  );
  // The curve over the latest closes, from the equity before them (the start capital plus every
  // earlier close's net), and its largest fall from a peak within that window; every close read
  // once for the totals and the instruments (a bounded read: follow/store.ts).
  const { closed, points, maxDrawdownPct } = providerCurve(db, p, window);
  const totals = closedTotals(db, p.user_id, closed);
  const held = closedGroups(db, p.user_id, 0, Number.MAX_SAFE_INTEGER).reduce(
    (a, g) => addTally(a, g.tally),
    NO_TALLY,
  );
  const curve = thinned(points).map(([t, e]) => [t, Number(usd2(e))] as [number, number]);
  const copying = copyingOf(db, p.user_id);
  const last = lastTrade(db, p.user_id);
  const lastInst = last ? engine.instrument(last.instrument_id) : null;
  return {
    id: p.user_id,
    name: p.name,
    description: p.description,
    min_investment: usd2(p.min_investment_micro),
    three_week_rate: stats.three_week_rate,
    three_week_win: stats.three_week_win,
    three_week_profit: stats.three_week_profit,
    total_rate: stats.total_rate,
    total_trade_num: stats.total_trade_num,
    win_rate: percent(totals.wins, totals.n),
    profit: usd2(totals.net),
    max_drawdown: maxDrawdownPct,
    copiers: copying.copiers,
    copying: usd2(copying.invested),
    instruments: instrumentsTraded(db, p.user_id, closed),
    equity_curve: curve,
    open_positions: engine
      .openPositionIds(p.user_id)
      .map((id) => engine.liveOrder(id))
      .filter((o) => o !== null)
      .map((o) => ({ code: o.instrument.showCode, side: o.side })),
    last_trade:
      last && lastInst
        ? { code: last.show_code, side: last.order_type, lots: last.lots, lot_step: lastInst.pip }
        : null,
    equity: usd2(engine.accountValues(p.user_id).equityMicro),
    ...riskOf(db, p.user_id),
    monthly_returns: monthlyReturns(
      p.start_capital_micro,
      closedNetsByDay(db, p.user_id, 0, Number.MAX_SAFE_INTEGER),
    ),
    average_holding_s: tradeFigures(held).average_holding_s,
  };
}
