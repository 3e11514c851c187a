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
  summary: "Close an open position at the current price",
  idempotent: true,
  body: orderId,
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
