/**
 * The websocket at /v1/ws (upstream/API.md "Websocket"): JSON text frames. Topic names and liveness
 * constants are in constants.ts.
 */
import type { Period } from "./constants";
import type { Candle } from "./api/market";

export const WS_PATH = "/v1/ws";

/** Client to server. */
export type ClientMessage =
  | { op: "ping" }
  | { op: "login"; token: string }
  | { op: "logout" }
  | { op: "subscribe"; topics: string[] }
  | { op: "unsubscribe"; topics: string[] };

/** Server to client. */
export type ServerMessage =
  | { op: "pong"; ts: number }
  | {
      op: "login" | "logout" | "subscribe" | "unsubscribe";
      code: number;
      msg: string;
      data?: unknown;
      topics?: string[];
    }
  | { op: "error"; code: number; msg: string }
  /** The connection's login ended (its token was revoked); private topics are dropped. */
  | { op: "revoked"; code: number; msg: string }
  | { op: "push"; topic: string; data: unknown };

/** A DAY_MARKET item: an instrument's quote fields after a tick (`Close` is the last price). */
export interface DayMarketItem {
  Id: number;
  Code: string;
  Close: number;
  Open: number;
  High: number;
  Low: number;
  Volume: number;
  Change: number;
  Time: number;
  MarketStatus: number;
}

/** A KLINE.{code} item: the forming candle of one period. */
export interface KlineItem extends Candle {
  period: Period;
}

/** A FOREX_TRADE push: the account's values and every open position's price and profit. */
export interface ForexTradePush {
  ProfitsTotal: number;
  HazardRate: number | null;
  CautionMoneyAll: number;
  Balance: number;
  Total: number;
  CanUse: number;
  MarginCall: boolean;
  TransOrder: { Id: number; UpdatePrice: number; FactProfits: number }[];
}

/** A FOREX_CLOSED push: ids of positions that closed. */
export interface ForexClosedPush {
  ids: number[];
}
