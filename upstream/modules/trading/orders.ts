/**
 * Order rules of trading-rules.md ("Orders and positions"), as pure functions over decimals:
 * lot validation, leverage, margin, fee, profit, pending-order type inference, take-profit and
 * stop-loss validation and triggers. The engine (engine.ts) books what these return.
 */
import { DomainError } from "../../platform/errors.js";
import * as F from "@contract/formulas";
import {
  ORDER_STATUS,
  ORDER_TYPE,
  type CloseReason as ContractCloseReason,
  type PendingType,
} from "@contract/enums";
import { Dec, dec, decConst, decimalArith, toMicro } from "../money/decimal.js";
import { EXPIRY_MAX_DAYS, pipsToPrice, pointsPerPip } from "@contract/api/trading-rules";
import { tradingDayEnd } from "../market/hours.js";

/** An instrument as the engine needs it (decimal fields kept as text, exact). */
export interface InstrumentSpec {
  id: number;
  code: string;
  showCode: string;
  quoteCurrency: string;
  /** PricePrecision: decimals of the instrument's prices (messages show prices with it). */
  precision: number;
  pip: string;
  minLots: string;
  contNum: string;
  marginMode: number;
  multiples: number[];
  feeRate: string;
  enabled: boolean;
  /** Its market's hours (market/hours.ts Session): where its trading day ends. */
  session: string;
}

/** A trailing stop and break-even as price distances; 0 is "not set" (trading-rules.md). */
export interface Trail {
  distance: number;
  /** Profit distance before the stop starts to trail; 0: at once. */
  activation: number;
  /** Profit distance at which the stop moves to the entry price; 0: not set. */
  breakEven: number;
}

export const NO_TRAIL: Trail = Object.freeze({ distance: 0, activation: 0, breakEven: 0 });

/** When a pending order expires: until cancelled, the end of its trading day, or a time (epoch ms). */
export type ExpiryRequest = { kind: "gtc" } | { kind: "day" } | { kind: "date"; at: number };

export const BUY = ORDER_TYPE.BUY;
export const SELL = ORDER_TYPE.SELL;

export type PendingKind = PendingType;

/** Order status as stored and shown: 0 pending, 1 holding, 3 closed, 4 cancelled (pending never filled). */
export const ST_PENDING = ORDER_STATUS.PENDING;
export const ST_OPEN = ORDER_STATUS.OPEN;
export const ST_CLOSED = ORDER_STATUS.CLOSED;
export const ST_CANCELLED = ORDER_STATUS.CANCELLED;

export type CloseReason = ContractCloseReason;

/** Validates lots: a multiple of Pip, at least ForexMinCont, at most trade.max_lots. Returns the normalised lots. */
export function validateLots(
  lots: Dec | null,
  inst: Pick<InstrumentSpec, "pip" | "minLots">,
  maxLots: string,
): Dec {
  if (lots === null || !lots.isFinite() || lots.lte(0))
    throw new DomainError("trade_invalid_field", 0, { field: "cont" });
  const pip = decConst(inst.pip);
  if (pip.gt(0) && !lots.mod(pip).isZero())
    throw new DomainError("lots_step", 0, { pip: pip.toString() });
  if (lots.lt(decConst(inst.minLots)))
    throw new DomainError("lots_min", 0, { count: decConst(inst.minLots).toString() });
  if (lots.gt(decConst(maxLots)))
    throw new DomainError("lots_max", 0, { count: decConst(maxLots).toString() });
  return lots;
}

/** Leverage must be one of the instrument's HasForexMultiple values (null: malformed); none configured -> no_mult_config. */
export function validateLeverage(
  leverage: number | null,
  inst: Pick<InstrumentSpec, "multiples">,
): number {
  if (inst.multiples.length === 0) throw new DomainError("no_mult_config");
  if (leverage === null || !inst.multiples.includes(leverage))
    throw new DomainError("invalid_leverage", 0, { options: inst.multiples.join(", ") });
  return leverage;
}

/** Units = lots x ForexContNum. */
export function unitsOf(lots: Dec, contNum: string): Dec {
  return F.units(decimalArith, lots, decConst(contNum));
}

/**
 * Margin in USD (@contract/formulas marginUsd over decimals). MarginMode 1: lots x ForexContNum.
 * Otherwise lots x ForexContNum x price / leverage, converted to USD with `usdRate` (USD per unit of
 * the quote currency; 1 for USD-quoted instruments).
 */
export function marginUsd(
  lots: Dec,
  inst: Pick<InstrumentSpec, "contNum" | "marginMode">,
  price: Dec | number,
  leverage: number,
  usdRate: Dec | number = 1,
): Dec {
  return F.marginUsd(
    decimalArith,
    lots,
    { contNum: decConst(inst.contNum), marginMode: inst.marginMode },
    dec(price),
    leverage,
    dec(usdRate),
  );
}

/** Fee in USD (@contract/formulas feeUsd): trade_fee_type 1 is lots x ForexFeeRate; otherwise margin x ForexFeeRate. */
export function feeUsd(feeType: number, lots: Dec, feeRate: string, margin: Dec): Dec {
  return F.feeUsd(decimalArith, feeType, lots, decConst(feeRate), margin);
}

/** Profit in USD (@contract/formulas profitUsd): buy (price - open) x units, sell (open - price) x units, times the USD rate. */
export function profitUsd(
  orderType: number,
  openPrice: Dec | number,
  price: Dec | number,
  units: Dec,
  usdRate: Dec | number = 1,
): Dec {
  return F.profitUsd(decimalArith, orderType, dec(openPrice), dec(price), units, dec(usdRate));
}

/** The booked amounts of opening a position, in micro-USD. */
export function openAmounts(
  lots: Dec,
  inst: Pick<InstrumentSpec, "contNum" | "marginMode" | "feeRate">,
  price: number,
  leverage: number,
  feeType: number,
  usdRate: Dec | number = 1,
): { marginMicro: number; feeMicro: number } {
  const m = marginUsd(lots, inst, price, leverage, usdRate);
  const f = feeUsd(feeType, lots, inst.feeRate, m);
  return { marginMicro: toMicro(m), feeMicro: toMicro(f) };
}

/**
 * Pending order type: a buy below the market is a buy limit, above it a buy stop; a sell above the
 * market is a sell limit, below it a sell stop. A target equal to the market counts as a limit.
 */
export function pendingKind(orderType: number, target: number, market: number): PendingKind {
  if (orderType === BUY) return target <= market ? "buy_limit" : "buy_stop";
  return target >= market ? "sell_limit" : "sell_stop";
}

/** True when a pending order of this kind is reached by `price`. */
export function pendingReached(kind: PendingKind, target: number, price: number): boolean {
  switch (kind) {
    case "buy_limit":
    case "sell_stop":
      return price <= target;
    case "buy_stop":
    case "sell_limit":
      return price >= target;
  }
}

/**
 * Take-profit and stop-loss against a reference price (the current price; for a pending order its
 * target price). 0 or null means not set. For a buy TP must be above and SL below the reference;
 * for a sell the reverse. Throws a translated refusal otherwise.
 */
export function validateStops(
  orderType: number,
  ref: number,
  tp: number | null,
  sl: number | null,
  precision = 8,
): void {
  const p = ref.toFixed(Math.min(Math.max(precision, 0), 12));
  if (orderType === BUY) {
    if (tp && !(tp > ref)) throw new DomainError("tp_buy", 0, { price: p });
    if (sl && !(sl < ref)) throw new DomainError("sl_buy", 0, { price: p });
  } else {
    if (tp && !(tp < ref)) throw new DomainError("tp_sell", 0, { price: p });
    if (sl && !(sl > ref)) throw new DomainError("sl_sell", 0, { price: p });
  }
}

/** Which stop, if any, `price` triggers: a buy closes at price >= TP or <= SL, a sell at price <= TP or >= SL. */
export function stopHit(
  orderType: number,
  tp: number,
  sl: number,
  price: number,
): "take_profit" | "stop_loss" | null {
  if (orderType === BUY) {
    if (tp > 0 && price >= tp) return "take_profit";
    if (sl > 0 && price <= sl) return "stop_loss";
  } else {
    if (tp > 0 && price <= tp) return "take_profit";
    if (sl > 0 && price >= sl) return "stop_loss";
  }
  return null;
}

/** True when `distance` is a whole number of points of a price with `precision` decimals. */
function wholePoints(distance: number, precision: number): boolean {
  const points = distance * 10 ** precision;
  return Math.abs(points - Math.round(points)) < 1e-6;
}

/**
 * A trailing stop and break-even against the reference price (the current price; for a pending
 * order its target): each distance 0 (not set) or a positive whole number of the instrument's
 * points below the reference price; an activation only with a trailing distance.
 */
export function validateTrail(t: Trail, precision: number, ref: number): Trail {
  const fields = [
    ["trailing_distance", t.distance],
    ["trailing_activation", t.activation],
    ["break_even", t.breakEven],
  ] as const;
  for (const [field, v] of fields) {
    if (!Number.isFinite(v) || v < 0) throw new DomainError("trade_invalid_field", 0, { field });
    if (v > 0 && !wholePoints(v, precision))
      throw new DomainError("distance_points", 0, { field, decimals: precision });
    if (v >= ref) throw new DomainError("distance_too_far", 0, { field });
  }
  if (t.activation > 0 && t.distance === 0) throw new DomainError("trail_activation_alone");
  return t;
}

/**
 * Take-profit and stop-loss of an order from prices or from distances in pips off `ref` (the fill
 * or target price), converted exactly (contract pipsToPrice) and rounded to the instrument's
 * decimals: a buy's take-profit above, stop-loss below; a sell's the reverse. A price and a
 * distance for the same stop are refused.
 */
export function stopsFromRequest(
  side: number,
  ref: number,
  precision: number,
  r: {
    takeProfit: number | null;
    stopLoss: number | null;
    takeProfitPips?: string | null;
    stopLossPips?: string | null;
  },
): { tp: number | null; sl: number | null } {
  const one = (
    price: number | null,
    pips: string | null | undefined,
    up: boolean,
    field: string,
  ): number | null => {
    if (pips === null || pips === undefined) return price;
    if (price !== null) throw new DomainError("stop_price_and_pips", 0, { field });
    const d = pipsToPrice(pips, precision);
    if (d === null)
      throw new DomainError("pips_invalid", 0, {
        field,
        step: pointsPerPip(precision) === 10 ? "0.1" : "1",
      });
    if (dec(d).isZero()) return null;
    const v = (up ? dec(ref).plus(d) : dec(ref).minus(d)).toDecimalPlaces(precision).toNumber();
    if (!(v > 0)) throw new DomainError("trade_invalid_field", 0, { field });
    return v;
  };
  const buy = side === BUY;
  return {
    tp: one(r.takeProfit, r.takeProfitPips, buy, "target_profit_pips"),
    sl: one(r.stopLoss, r.stopLossPips, !buy, "stop_loss_pips"),
  };
}

/**
 * When a pending order expires (epoch ms), or null for good until cancelled: `day` is the end of
 * its instrument's trading day (market/hours.ts tradingDayEnd); `date` must be after `now` and
 * within EXPIRY_MAX_DAYS.
 */
export function expiryAt(
  e: ExpiryRequest | undefined,
  session: string,
  now: number,
): number | null {
  if (!e || e.kind === "gtc") return null;
  if (e.kind === "day") return tradingDayEnd(session, now);
  if (!(e.at > now) || e.at > now + EXPIRY_MAX_DAYS * 86_400_000)
    throw new DomainError("expiry_invalid", 0, { days: EXPIRY_MAX_DAYS });
  return e.at;
}

/**
 * The lots of a partial close of a position holding `held` lots: positive, on the instrument's lot
 * step, less than held, and leaving at least the minimum lots open. (All of it is a full close.)
 */
export function validatePartLots(
  part: Dec,
  held: Dec,
  inst: Pick<InstrumentSpec, "pip" | "minLots">,
): Dec {
  if (!part.isFinite() || part.lte(0))
    throw new DomainError("trade_invalid_field", 0, { field: "lots" });
  const step = decConst(inst.pip);
  if (step.gt(0) && !part.mod(step).isZero())
    throw new DomainError("lots_step", 0, { pip: step.toString() });
  if (part.gt(held)) throw new DomainError("partial_more_than_held", 0, { lots: held.toString() });
  const min = decConst(inst.minLots);
  if (held.minus(part).lt(min))
    throw new DomainError("partial_rest_min", 0, { lots: min.toString() });
  return part;
}
