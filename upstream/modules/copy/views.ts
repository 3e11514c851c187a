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
import { closedCurve, percent, traderStats, usd2 } from "../follow/stats.js";
import { closedNets, closedUpTo, totalsOf } from "../follow/store.js";
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

/** The latest closes a provider's page reads for its curve and drawdown (the rest as totals). */
export const PROVIDER_CURVE_WINDOW = 5_000;

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
  // Every close, read once for the totals and the instruments (a bounded read: follow/store.ts).
  const closed = closedUpTo(db, p.user_id);
  const totals = closedTotals(db, p.user_id, closed);
  // The curve over the latest closes, from the equity before them (the start capital plus every
  // earlier close's net), and its largest fall from a peak within that window.
  const nets = closedNets(db, p.user_id, window);
  const windowNet = nets.reduce((a, n) => a + n.net, 0);
  const { points, maxDrawdownPct } = closedCurve(
    p.start_capital_micro + totals.net - windowNet,
    nets,
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
  };
}
