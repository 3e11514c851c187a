/** Trading and account values (upstream/API.md "Trading"): every call needs the session token. */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import {
  ORDER_MODE,
  ORDER_TAB,
  ORDER_TABS,
  ORDER_TYPE,
  CLOSE_REASONS,
  PENDING_TYPES,
} from "../enums";
import { EXPIRES_AT_PATTERN, EXPIRIES } from "./trading-rules";
import {
  choiceField,
  decimalField,
  ID_DIGITS,
  LEVERAGE_DIGITS,
  LOTS_RULE,
  optionalChoiceField,
  optionalDecimalField,
  optionalWholeField,
  pageField,
  PRICE_RULE,
  wholeField,
} from "../fields";

export {
  EXPIRES_AT_PATTERN,
  EXPIRIES,
  EXPIRY_MAX_DAYS,
  pipSize,
  pipsToPrice,
  priceToPips,
  pointsPerPip,
  type Expiry,
} from "./trading-rules";

/** A distance in pips: up to 9 whole digits and one decimal (trading-rules.ts). */
const PIPS_RULE = { intDigits: 9, places: 1 } as const;

/** An order or position (my_deal item, and the answer of submit, close, cancel_trade, set_stop_price). */
export const OrderSchema = z.object({
  Id: z.number().int(),
  ForexTradeLists: z.object({ ShowCode: z.string(), Code: z.string(), Id: z.number().int() }),
  OrderType: z.number().int().describe("ORDER_TYPE: 1 buy, otherwise sell"),
  Status: z.number().int().describe("ORDER_STATUS: 0 pending, 1 holding, 3 closed, 4 cancelled"),
  Quantity: z.number().describe("lots"),
  OriginPrice: z
    .number()
    .describe("the quote at submit (market order) or the target price (pending order)"),
  Price: z.number().describe("fill (open) price; 0 while pending"),
  UpdatePrice: z
    .number()
    .describe("current price while pending or open; the close price once closed"),
  FactProfits: z.number().describe("floating profit while open; realised profit once closed"),
  TargetLossPrice: z.number().describe("stop loss; 0 = not set"),
  TargetProfitPrice: z.number().describe("take profit; 0 = not set"),
  CautionMoney: z.number().describe("margin held, USD"),
  TradeFee: z.number(),
  Multiple: z.number().int().describe("leverage"),
  CreateTimeHandler: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  PendingType: z.enum(PENDING_TYPES).nullable(),
  CloseReason: z.enum(CLOSE_REASONS).nullable(),
  ClosedAt: z.string().nullable().describe('"YYYY-MM-DD HH:mm:ss" UTC, or null while not closed'),
  // The trader's tools (optional: a back end without them stays conformant).
  TrailingDistance: z
    .number()
    .optional()
    .describe("trailing stop's distance in price; 0 = no trailing stop"),
  TrailingActivation: z
    .number()
    .optional()
    .describe("profit distance in price before the stop trails; 0 = at once"),
  BreakEven: z
    .number()
    .optional()
    .describe("profit distance in price at which the stop moves to the entry; 0 = not set"),
  ExpiresAt: z
    .string()
    .nullable()
    .optional()
    .describe('pending order: "YYYY-MM-DD HH:mm:ss" UTC when it expires; null = until cancelled'),
  ParentId: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe("a part closed from an open position: that position's id; null otherwise"),
});
export type Order = z.infer<typeof OrderSchema>;

export const OrderPageSchema = z.object({
  data: z.array(OrderSchema),
  total: z.number().int().describe("orders in the tab"),
  all_fact_profits: z
    .number()
    .describe(
      "floating profit of open positions (tab 1), realised profit of the history (tab 3), 0 for pending",
    ),
  balance: z.number().describe("cash balance"),
});
export type OrderPage = z.infer<typeof OrderPageSchema>;

/** Account values: balance, equity, used and free margin, margin level. */
export const ForexDetailSchema = z.object({
  balance: z.number(),
  lock_balance: z.number().describe("money held by withdrawals under review"),
  total: z.number().describe("equity: balance + floating profit"),
  all_caution_money: z.number().describe("used margin"),
  can_use: z.number().describe("free margin: total - all_caution_money"),
  HazardRate: z
    .number()
    .nullable()
    .describe("margin level in percent (2 decimals), null while no position is open"),
});
export type ForexDetail = z.infer<typeof ForexDetailSchema>;

/** An order's id. */
const id = wholeField(ID_DIGITS);
const orderId = z.object({ id });
/** Take-profit and stop-loss: absent, empty or 0 is "not set". */
const stops = {
  target_profit_price: optionalDecimalField(PRICE_RULE),
  stop_loss_price: optionalDecimalField(PRICE_RULE),
};

/**
 * A trailing stop and break-even, as price distances (trading-rules.ts): absent, empty or 0
 * is "not set".
 */
const trailing = {
  trailing_distance: optionalDecimalField(PRICE_RULE),
  trailing_activation: optionalDecimalField(PRICE_RULE),
  break_even: optionalDecimalField(PRICE_RULE),
};

export const submit = endpoint({
  data: OrderSchema,
  method: "POST",
  path: "/v1/api/forex/submit",
  auth: true,
  tag: "trading",
  summary: "Place a market or pending order",
  idempotent: true,
  body: z.object({
    /** ORDER_TYPE: 1 buy, 2 sell. */
    type: choiceField([ORDER_TYPE.BUY, ORDER_TYPE.SELL]),
    /** Lots: on the instrument's step, from its minimum to the max-lots setting (engine rules). */
    cont: decimalField(LOTS_RULE),
    forex_id: wholeField(ID_DIGITS),
    /** ORDER_MODE: 1 market (default), 0 pending. */
    status: optionalChoiceField([ORDER_MODE.MARKET, ORDER_MODE.PENDING], ORDER_MODE.MARKET),
    /** Pending orders: the price to fill at. */
    target_price: optionalDecimalField(PRICE_RULE),
    /** Leverage: one of the instrument's HasForexMultiple values (engine rule). */
    multiple: wholeField(LEVERAGE_DIGITS),
    ...stops,
    /** Take-profit and stop-loss as distances in pips from the fill (market) or target (pending) price, instead of prices. */
    target_profit_pips: optionalDecimalField(PIPS_RULE),
    stop_loss_pips: optionalDecimalField(PIPS_RULE),
    ...trailing,
    /** Pending orders: gtc (default), day, or date with expires_at. */
    expiry: z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.enum(EXPIRIES).default("gtc"),
    ),
    expires_at: z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.string().regex(EXPIRES_AT_PATTERN).optional(),
    ),
  }),
});

export const myDeal = endpoint({
  data: OrderPageSchema,
  method: "GET",
  path: "/v1/api/forex/my_deal",
  readsEngine: true,
  auth: true,
  tag: "trading",
  summary: "Orders of one tab (ORDER_TAB), PAGE_SIZE a page, newest first",
  query: z.object({
    /** ORDER_TAB: 1 open positions (default), 0 pending, 3 history. */
    status: optionalChoiceField(ORDER_TABS, ORDER_TAB.HOLDING),
    page: pageField(),
    /** Optional instrument filter; an upstream may ignore it, so clients filter the rows too. */
    forex_id: optionalWholeField(ID_DIGITS),
    ...cacheBuster,
  }),
});

export const close = endpoint({
  data: OrderSchema,
  method: "POST",
  path: "/v1/api/forex/close",
  auth: true,
  tag: "trading",
  summary: "Close an open position, or a part of it (lots), at the current price",
  idempotent: true,
  body: z.object({
    id,
    /** Lots to close, on the lot step, leaving at least the minimum lots; absent: all of it. */
    lots: optionalDecimalField(LOTS_RULE),
  }),
});

export const cancelTrade = endpoint({
  data: OrderSchema,
  method: "POST",
  path: "/v1/api/forex/cancel_trade",
  auth: true,
  tag: "trading",
  summary: "Cancel a pending order",
  idempotent: true,
  body: orderId,
});

export const setStopPrice = endpoint({
  data: OrderSchema,
  method: "POST",
  path: "/v1/api/forex/set_stop_price",
  auth: true,
  tag: "trading",
  summary: "Set take-profit and stop-loss of a position or pending order (0 clears)",
  idempotent: true,
  body: z.object({ id, ...stops }),
});

export const setTrailing = endpoint({
  data: OrderSchema,
  method: "POST",
  path: "/v1/api/forex/set_trailing",
  auth: true,
  tag: "trading",
  summary: "Set a trailing stop and break-even of a position or pending order (0 clears)",
  idempotent: true,
  body: z.object({ id, ...trailing }),
});

export const forexDetail = endpoint({
  data: ForexDetailSchema,
  method: "GET",
  path: "/v1/api/main/account/forexDetail",
  readsEngine: true,
  auth: true,
  tag: "trading",
  summary: "Account values",
  query: z.object({ ...cacheBuster }),
});

export const resetForexDemoAccount = endpoint({
  data: ForexDetailSchema,
  method: "POST",
  path: "/v1/api/main/user/resetForexDemoAccount",
  auth: true,
  tag: "trading",
  summary: "Reset a demo account to its initial balance",
  idempotent: true,
  body: z.object({}),
});
