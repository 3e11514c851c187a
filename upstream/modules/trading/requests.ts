/**
 * The trading calls' validated fields (their contract schemas, contract/api/trading.ts, have already
 * read and bounded every one) as the engine's inputs: lots as an exact decimal, prices as numbers,
 * a take-profit or stop-loss of 0 as "not set". Nothing here parses text: a value that reaches it
 * is a plain decimal within its field's rule.
 */
import type { z } from "zod";
import type * as api from "@contract/api/trading";
import { dec } from "../money/decimal.js";
import { DomainError } from "../../platform/errors.js";
import { EXPIRY_MAX_DAYS } from "@contract/api/trading-rules";
import type { ExpiryRequest, OrderRequest, Trail } from "./model.js";

export type SubmitFields = z.output<typeof api.submit.body>;

/** A price field: its number, or null when absent or 0 (a pending order then lacks its price). */
export function priceOrNull(text: string | undefined): number | null {
  if (text === undefined) return null;
  const v = Number(text);
  return v > 0 ? v : null;
}

/** A take-profit or stop-loss field: absent, empty or 0 is not set (null). */
export const stopOf = priceOrNull;

/** submit's fields as the engine's order request. */
export function orderRequestOf(f: SubmitFields): OrderRequest {
  return {
    side: f.type,
    status: f.status,
    instrumentId: f.forex_id,
    lots: dec(f.cont),
    leverage: f.multiple,
    targetPrice: priceOrNull(f.target_price),
    takeProfit: stopOf(f.target_profit_price),
    stopLoss: stopOf(f.stop_loss_price),
    takeProfitPips: f.target_profit_pips ?? null,
    stopLossPips: f.stop_loss_pips ?? null,
    trail: trailOf(f),
    expiry: expiryOf(f.expiry, f.expires_at),
  };
}

/** A distance field (trailing stop, activation, break-even): absent, empty or 0 is 0 (not set). */
const distanceOf = (text: string | undefined): number => (text === undefined ? 0 : Number(text));

/** The trailing stop and break-even fields of submit and set_trailing. */
export function trailOf(f: {
  trailing_distance?: string;
  trailing_activation?: string;
  break_even?: string;
}): Trail {
  return {
    distance: distanceOf(f.trailing_distance),
    activation: distanceOf(f.trailing_activation),
    breakEven: distanceOf(f.break_even),
  };
}

/**
 * submit's expiry: gtc (default), day, or date with `expires_at` ("YYYY-MM-DD HH:mm", UTC; the
 * schema checked its shape). A date without a valid time is refused as expiry_invalid.
 */
function expiryOf(kind: SubmitFields["expiry"], at: string | undefined): ExpiryRequest {
  if (kind !== "date") return { kind };
  const ms = at === undefined ? NaN : Date.parse(`${at.replace(" ", "T").slice(0, 16)}:00Z`);
  if (!Number.isFinite(ms)) throw new DomainError("expiry_invalid", 0, { days: EXPIRY_MAX_DAYS });
  return { kind: "date", at: ms };
}
