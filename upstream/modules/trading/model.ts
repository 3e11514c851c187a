/**
 * The order engine's typed inputs and outputs: already-parsed requests in, domain values out (exact
 * amounts in integer micro-USD, times in epoch milliseconds). views.ts maps them to the API's wire
 * shapes; routes.ts parses raw request fields into them.
 */
import type { Dec } from "../money/decimal.js";
import type { CloseReason, ExpiryRequest, PendingKind, Trail } from "./orders.js";

export { NO_TRAIL, type ExpiryRequest, type Trail } from "./orders.js";

/** A new order. `null` marks a value that is missing or malformed: the engine refuses it by its rule. */
export interface OrderRequest {
  /** 1 buy, 2 sell. */
  side: 1 | 2;
  /** 1 market order, 0 pending order at targetPrice. */
  status: 0 | 1;
  instrumentId: number | null;
  lots: Dec | null;
  leverage: number | null;
  targetPrice: number | null;
  /** null: not set. */
  takeProfit: number | null;
  stopLoss: number | null;
  /**
   * Take-profit and stop-loss as distances in pips from the fill (market) or target (pending)
   * price, exact decimal text (contract pipsToPrice); null: not given. Given with a price: refused.
   */
  takeProfitPips?: string | null;
  stopLossPips?: string | null;
  /** A trailing stop and break-even (absent: none). */
  trail?: Trail;
  /** A pending order's expiry (absent: good until cancelled). */
  expiry?: ExpiryRequest;
}

/** An order as the engine reports it. */
export interface OrderState {
  id: number;
  instrument: { id: number; code: string; showCode: string };
  side: number;
  /** Lots as an exact decimal string. */
  lots: string;
  originPrice: number;
  /** Fill price; 0 while pending (or never filled). */
  openPrice: number;
  /** Current price (the close price once closed). */
  currentPrice: number;
  /** Floating (open) or realised (closed) profit, micro-USD. */
  profitMicro: number;
  takeProfit: number;
  stopLoss: number;
  marginMicro: number;
  feeMicro: number;
  createdAt: number;
  status: number;
  leverage: number;
  pendingKind: PendingKind | null;
  closeReason: CloseReason | null;
  closedAt: number | null;
  trail: Trail;
  /** A pending order's expiry (epoch ms); null: until cancelled. */
  expiresAt: number | null;
  /** A part closed from an open position: that position's id. */
  parentId: number | null;
}

/** An account's figures (trading-rules.md "Account values"), micro-USD. */
export interface AccountFigures {
  balanceMicro: number;
  lockMicro: number;
  /** Equity: balance + floating profit. */
  equityMicro: number;
  floatingMicro: number;
  usedMarginMicro: number;
  freeMarginMicro: number;
  /** Margin level in percent; null while no position is open. */
  marginLevelPct: number | null;
  marginCall: boolean;
}

/** One page of a user's orders. */
export interface OrderPage {
  orders: OrderState[];
  total: number;
  /** History: realised profit of all of them; holding: floating profit of the open positions. */
  profitMicro: number;
  balanceMicro: number;
}

/** The live figures of an account with each open position at the current price. */
export interface AccountSnapshot {
  figures: AccountFigures;
  positions: { id: number; price: number; profitMicro: number; stopLoss: number }[];
}
