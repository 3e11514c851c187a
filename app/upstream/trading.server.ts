/**
 * Trading calls of the upstream (product-spec.md section 7 "Trading" and upstream/API.md): one typed
 * function per call, over the shared client core. State-changing calls are POST and carry the form's
 * idempotency key as the Idempotency-Key header.
 */
import * as tradingApi from "@contract/api/trading";
import type { ForexDetail, Order, OrderPage } from "@contract/api/trading";
import { ORDER_MODE, type OrderMode, type OrderTab, type OrderType } from "@contract/enums";
import type { Expiry } from "@contract/api/trading-rules";
import { type Caller, type UpstreamResult, send } from "./client.server";

type OrderStatusTab = OrderTab;

interface SubmitParams {
  forex_id: number;
  /** ORDER_TYPE: 1 buy, 2 sell. */
  type: OrderType;
  /** ORDER_MODE: 1 market, 0 pending. */
  status: OrderMode;
  cont: number;
  multiple: number;
  target_price?: number;
  target_profit_price?: number;
  stop_loss_price?: number;
  /** Take-profit and stop-loss as distances in pips instead of prices (decimal text). */
  target_profit_pips?: string;
  stop_loss_pips?: string;
  /** Trailing stop, its activation and break-even as price distances (decimal text). */
  trailing_distance?: string;
  trailing_activation?: string;
  break_even?: string;
  expiry?: Expiry;
  /** "YYYY-MM-DD HH:mm" UTC, with expiry "date". */
  expires_at?: string;
}

/** Places an order (POST /v1/api/forex/submit). */
export function submitOrder(
  c: Caller,
  p: SubmitParams,
  idempotencyKey?: string,
): Promise<UpstreamResult<Order | Record<string, unknown> | null>> {
  return send(
    c,
    tradingApi.submit,
    {
      forex_id: p.forex_id,
      type: p.type,
      status: p.status,
      cont: p.cont,
      multiple: p.multiple,
      target_price: p.status === ORDER_MODE.PENDING ? p.target_price : undefined,
      target_profit_price: p.target_profit_pips ? undefined : (p.target_profit_price ?? 0),
      stop_loss_price: p.stop_loss_pips ? undefined : (p.stop_loss_price ?? 0),
      target_profit_pips: p.target_profit_pips,
      stop_loss_pips: p.stop_loss_pips,
      trailing_distance: p.trailing_distance,
      trailing_activation: p.trailing_activation,
      break_even: p.break_even,
      ...(p.status === ORDER_MODE.PENDING && p.expiry
        ? { expiry: p.expiry, expires_at: p.expiry === "date" ? p.expires_at : undefined }
        : {}),
    },
    { idempotencyKey },
  );
}

/** The account's orders of one tab (GET /v1/api/forex/my_deal {status, page}). */
export async function myDeal(
  c: Caller,
  p: { status: OrderStatusTab; page?: number; forex_id?: number },
): Promise<UpstreamResult<OrderPage>> {
  const r = await send<OrderPage | Order[]>(c, tradingApi.myDeal, {
    status: p.status,
    page: p.page ?? 1,
    forex_id: p.forex_id,
  });
  if (!r.ok) return r;
  return { ...r, data: normalisePage(r.data) };
}

/** Accepts the documented page object, or a bare array from a simpler back end. */
function normalisePage(d: unknown): OrderPage {
  if (Array.isArray(d))
    return { data: d as Order[], total: d.length, all_fact_profits: 0, balance: 0 };
  const o = (d && typeof d === "object" ? d : {}) as Partial<OrderPage>;
  const list = Array.isArray(o.data) ? o.data : [];
  return {
    ...o,
    data: list,
    total: typeof o.total === "number" ? o.total : list.length,
    all_fact_profits: Number(o.all_fact_profits ?? 0),
    balance: Number(o.balance ?? 0),
  };
}

/** Closes a holding position (POST /v1/api/forex/close {id}). */
export function closeOrder(
  c: Caller,
  id: number,
  idempotencyKey?: string,
  /** Lots to close (decimal text): a partial close; absent: all of it. */
  lots?: string,
): Promise<UpstreamResult<unknown>> {
  return send(c, tradingApi.close, { id, lots }, { idempotencyKey });
}

/**
 * Sets the trailing stop and break-even of a position or pending order (POST
 * /v1/api/forex/set_trailing), price distances as decimal text; 0 or absent = not set.
 */
export function setTrailing(
  c: Caller,
  p: { id: number; trailing_distance?: string; trailing_activation?: string; break_even?: string },
  idempotencyKey?: string,
): Promise<UpstreamResult<unknown>> {
  return send(
    c,
    tradingApi.setTrailing,
    {
      id: p.id,
      trailing_distance: p.trailing_distance ?? "0",
      trailing_activation: p.trailing_activation ?? "0",
      break_even: p.break_even ?? "0",
    },
    { idempotencyKey },
  );
}

/** Cancels a pending order (POST /v1/api/forex/cancel_trade {id}). */
export function cancelTrade(
  c: Caller,
  id: number,
  idempotencyKey?: string,
): Promise<UpstreamResult<unknown>> {
  return send(c, tradingApi.cancelTrade, { id }, { idempotencyKey });
}

/** Sets take-profit and stop-loss of a position (POST /v1/api/forex/set_stop_price); 0 = not set. */
export function setStopPrice(
  c: Caller,
  p: { id: number; target_profit_price?: number; stop_loss_price?: number },
  idempotencyKey?: string,
): Promise<UpstreamResult<unknown>> {
  return send(
    c,
    tradingApi.setStopPrice,
    {
      id: p.id,
      target_profit_price: p.target_profit_price ?? 0,
      stop_loss_price: p.stop_loss_price ?? 0,
    },
    { idempotencyKey },
  );
}

/** Account values: balance, equity (total), used and free margin, margin level. */
export function forexDetail(c: Caller): Promise<UpstreamResult<ForexDetail>> {
  return send<ForexDetail>(c, tradingApi.forexDetail);
}

/** Resets a demo account (POST here: it changes state; the spec lists it as GET). */
export function resetForexDemoAccount(
  c: Caller,
  idempotencyKey?: string,
): Promise<UpstreamResult<unknown>> {
  return send(c, tradingApi.resetForexDemoAccount, {}, { idempotencyKey });
}
