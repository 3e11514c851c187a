/**
 * Parsing of the trading API's raw request fields (form fields arrive as strings, JSON as numbers)
 * into the engine's typed inputs, with the refusals the API has always given for malformed values.
 */
import { ORDER_MODE, ORDER_TAB, ORDER_TABS, ORDER_TYPE, type OrderTab } from "@contract/enums";
import { DomainError } from "../../platform/errors.js";
import { parseDecimal } from "../money/decimal.js";
import { intParam } from "../../platform/params.js";
import type { OrderRequest } from "./model.js";

export { intParam };

/** A positive plain decimal price (no sign, no exponent), or null. */
export function priceParam(raw: unknown): number | null {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{0,15}(\.\d{1,12})?$/.test(s) || s === "" || s === ".") return null;
  const v = Number(s);
  return Number.isFinite(v) && v > 0 ? v : null;
}

/** Parses an optional TP/SL price: empty, missing or 0 -> null (not set); negative or garbage -> refusal. */
export function parseStop(raw: unknown, field: string): number | null {
  if (raw === undefined || raw === null) return null;
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "x";
  if (s === "") return null;
  if (!/^\d{0,15}(\.\d{1,12})?$/.test(s) || s === ".")
    throw new DomainError("trade_invalid_field", 0, { field });
  const v = Number(s);
  if (!Number.isFinite(v) || v < 0) throw new DomainError("trade_invalid_field", 0, { field });
  return v === 0 ? null : v;
}

/** A leverage of at most 6 digits, or null when malformed (the engine refuses it with the instrument's options). */
export function leverageParam(raw: unknown): number | null {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  return /^\d{1,6}$/.test(s) ? Number(s) : null;
}

/** The raw fields of submit. */
export interface SubmitFields {
  type?: unknown;
  cont?: unknown;
  forex_id?: unknown;
  status?: unknown;
  target_price?: unknown;
  stop_loss_price?: unknown;
  target_profit_price?: unknown;
  multiple?: unknown;
}

/** submit's fields as an OrderRequest; type and status are refused here, the rest by the engine's rules. */
export function parseOrderRequest(f: SubmitFields): OrderRequest {
  const side = intParam(f.type);
  if (side !== ORDER_TYPE.BUY && side !== ORDER_TYPE.SELL)
    throw new DomainError("trade_invalid_field", 0, { field: "type" });
  const status = f.status === undefined || f.status === "" ? ORDER_MODE.MARKET : intParam(f.status);
  if (status !== ORDER_MODE.MARKET && status !== ORDER_MODE.PENDING)
    throw new DomainError("trade_invalid_field", 0, { field: "status" });
  return {
    side,
    status,
    instrumentId: intParam(f.forex_id),
    lots: parseDecimal(f.cont),
    leverage: leverageParam(f.multiple),
    targetPrice: priceParam(f.target_price),
    takeProfit: parseStop(f.target_profit_price, "target_profit_price"),
    stopLoss: parseStop(f.stop_loss_price, "stop_loss_price"),
  };
}

/** my_deal's status (default 1) and page (default 1): refused with trade_invalid_field when malformed. */
export function parseDealQuery(
  statusRaw: unknown,
  pageRaw: unknown,
): { status: OrderTab; page: number } {
  const status =
    statusRaw === undefined || statusRaw === "" ? ORDER_TAB.HOLDING : intParam(statusRaw);
  if (status === null || !(ORDER_TABS as readonly number[]).includes(status))
    throw new DomainError("trade_invalid_field", 0, { field: "status" });
  const page = pageRaw === undefined || pageRaw === "" ? 1 : intParam(pageRaw);
  if (page === null || page < 1 || page > 1_000_000)
    throw new DomainError("trade_invalid_field", 0, { field: "page" });
  return { status: status as OrderTab, page };
}
