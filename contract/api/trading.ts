/** Trading and account values (upstream/API.md "Trading"): every call needs the session token. */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import {
  ORDER_MODE,
  ORDER_TAB,
  ORDER_TABS,
  ORDER_TYPE,
  type CloseReason,
  type PendingType,
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
export interface Order {
  Id: number;
  ForexTradeLists: { ShowCode: string; Code: string; Id: number };
  /** ORDER_TYPE: 1 buy, otherwise sell. */
  OrderType: number;
  /** ORDER_STATUS: 0 pending, 1 holding, 3 closed, 4 cancelled. */
  Status: number;
  /** Lots. */
  Quantity: number;
  /** The quote at submit (market order) or the target price (pending order). */
  OriginPrice: number;
  /** Fill (open) price; 0 while pending. */
  Price: number;
  /** Current price while pending or open; the close price once closed. */
  UpdatePrice: number;
  /** Floating profit while open; realised profit once closed. */
  FactProfits: number;
  /** Stop-loss; 0 = not set. */
  TargetLossPrice: number;
  /** Take-profit; 0 = not set. */
  TargetProfitPrice: number;
  /** Margin held, USD. */
  CautionMoney: number;
  TradeFee: number;
  /** Leverage. */
  Multiple: number;
  /** "YYYY-MM-DD HH:mm:ss" UTC. */
  CreateTimeHandler: string;
  PendingType: PendingType | null;
  CloseReason: CloseReason | null;
  /** "YYYY-MM-DD HH:mm:ss" UTC, or null while not closed. */
  ClosedAt: string | null;
}

export interface OrderPage {
  data: Order[];
  /** Orders in the tab. */
  total: number;
  /** Floating profit of open positions (tab 1), realised profit of the history (tab 3), 0 for pending. */
  all_fact_profits: number;
  /** Cash balance. */
  balance: number;
}

/** Account values: balance, equity, used and free margin, margin level. */
export interface ForexDetail {
  balance: number;
  /** Money held by withdrawals under review. */
  lock_balance: number;
  /** Equity: balance + floating profit. */
  total: number;
  /** Used margin. */
  all_caution_money: number;
  /** Free margin: total - all_caution_money. */
  can_use: number;
  /** Margin level in percent (2 decimals), null while no position is open. */
  HazardRate: number | null;
}

/** An order's id. */
const id = wholeField(ID_DIGITS);
const orderId = z.object({ id });
/** Take-profit and stop-loss: absent, empty or 0 is "not set". */
const stops = {
  target_profit_price: optionalDecimalField(PRICE_RULE),
  stop_loss_price: optionalDecimalField(PRICE_RULE),
};

export const submit = endpoint<Order>()({
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

export const myDeal = endpoint<OrderPage>()({
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

export const close = endpoint<Order>()({
  method: "POST",
  path: "/v1/api/forex/close",
  auth: true,
  tag: "trading",
  summary: "Close an open position at the current price",
  idempotent: true,
  body: orderId,
});

export const cancelTrade = endpoint<Order>()({
  method: "POST",
  path: "/v1/api/forex/cancel_trade",
  auth: true,
  tag: "trading",
  summary: "Cancel a pending order",
  idempotent: true,
  body: orderId,
});

export const setStopPrice = endpoint<Order>()({
  method: "POST",
  path: "/v1/api/forex/set_stop_price",
  auth: true,
  tag: "trading",
  summary: "Set take-profit and stop-loss of a position or pending order (0 clears)",
  idempotent: true,
  body: z.object({ id, ...stops }),
});

export const forexDetail = endpoint<ForexDetail>()({
  method: "GET",
  path: "/v1/api/main/account/forexDetail",
  readsEngine: true,
  auth: true,
  tag: "trading",
  summary: "Account values",
  query: z.object({ ...cacheBuster }),
});

export const resetForexDemoAccount = endpoint<ForexDetail>()({
  method: "POST",
  path: "/v1/api/main/user/resetForexDemoAccount",
  auth: true,
  tag: "trading",
  summary: "Reset a demo account to its initial balance",
  idempotent: true,
  body: z.object({}),
});
