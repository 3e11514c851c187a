/**
 * The trading calls' validated fields (their contract schemas, contract/api/trading.ts, have already
 * read and bounded every one) as the engine's inputs: lots as an exact decimal, prices as numbers,
 * a take-profit or stop-loss of 0 as "not set". Nothing here parses text: a value that reaches it
 * is a plain decimal within its field's rule.
 */
import type { z } from "zod";
import type * as api from "@contract/api/trading";
import { dec } from "../money/decimal.js";
import type { OrderRequest } from "./model.js";

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
  };
}
