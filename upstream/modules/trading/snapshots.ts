/** Orders as the engine reports them (OrderState), from an order in memory or a stored row. */
import { ST_CLOSED, ST_OPEN, type CloseReason } from "./orders.js";
import { stopLossOf, type Pos } from "./book.js";
import type { Pricing } from "./pricing.js";
import type { ListedOrderRow } from "./store.js";
import type { OrderState } from "./model.js";

/** An order in memory (open or pending) at the current price. */
export function stateOfPos(p: Pos, createdAt: number, pricing: Pricing): OrderState {
  const cur = pricing.price(p.inst);
  const open = p.status === ST_OPEN;
  return {
    id: p.id,
    instrument: { id: p.inst.id, code: p.inst.code, showCode: p.inst.showCode },
    side: p.orderType,
    lots: p.lots.toString(),
    originPrice: p.originPrice,
    openPrice: open ? p.openPrice : 0,
    currentPrice: cur ?? (open ? p.openPrice : p.originPrice),
    profitMicro: open && cur !== null && cur !== p.openPrice ? pricing.floatingMicroOf(p) : 0,
    takeProfit: p.tp,
    stopLoss: stopLossOf(p),
    marginMicro: p.marginMicro,
    feeMicro: p.feeMicro,
    createdAt,
    status: p.status,
    leverage: p.leverage,
    pendingKind: p.pendingKind,
    closeReason: null,
    closedAt: null,
    trail: { distance: p.trail, activation: p.trailAct, breakEven: p.breakEven },
    expiresAt: p.expiresAt,
    parentId: null,
  };
}

/** A position just closed at `price` with realised profit `profitMicro`. */
export function stateClosed(
  p: Pos,
  createdAt: number,
  pricing: Pricing,
  price: number,
  profitMicro: number,
  reason: CloseReason,
  at: number,
): OrderState {
  return {
    ...stateOfPos(p, createdAt, pricing),
    status: ST_CLOSED,
    currentPrice: price,
    profitMicro,
    closeReason: reason,
    closedAt: at,
  };
}

/** A stored order (closed, cancelled, or live but not held in memory). */
export function stateOfRow(r: ListedOrderRow): OrderState {
  return {
    id: r.id,
    instrument: { id: r.instrument_id, code: r.code, showCode: r.show_code },
    side: r.order_type,
    lots: r.lots,
    originPrice: r.origin_price,
    openPrice: r.open_price ?? 0,
    currentPrice: r.close_price ?? r.open_price ?? r.origin_price,
    profitMicro: r.profit_micro ?? 0,
    takeProfit: r.take_profit ?? 0,
    stopLoss: r.stop_loss ?? 0,
    marginMicro: r.margin_micro,
    feeMicro: r.fee_micro,
    createdAt: r.created_at,
    status: r.status,
    leverage: r.leverage,
    pendingKind: r.pending_kind,
    closeReason: r.close_reason,
    closedAt: r.closed_at,
    trail: {
      distance: r.trail_distance ?? 0,
      activation: r.trail_activation ?? 0,
      breakEven: r.break_even ?? 0,
    },
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
  };
}
