/**
 * The formulas of product-spec.md section 9 and trading-rules.md, written once for both programs.
 *
 * Each formula is generic over an arithmetic (`Arith<N>`): the web computes display estimates with
 * `floatArith` (plain numbers), and the upstream books exact amounts with a decimal arithmetic of
 * its own (decimal.js), so that what the order form estimates and what the ledger books come from
 * the same definition. A value of `N` is a price, a quantity or a USD amount; floats are for display.
 */
import { FEE_TYPE, MARGIN_MODE, ORDER_TYPE, DRAW_FEE_TYPE } from "./enums";

/** The operations the formulas need. `of` reads a number or decimal text. */
export interface Arith<N> {
  of(x: number | string): N;
  add(a: N, b: N): N;
  sub(a: N, b: N): N;
  mul(a: N, b: N): N;
  div(a: N, b: N): N;
  /** -1, 0 or 1. */
  cmp(a: N, b: N): number;
}

/** Plain floating-point arithmetic: display values only. */
export const floatArith: Arith<number> = {
  of: (x) => Number(x),
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
};

export const QUOTE_USD = "USD";

/**
 * USD per unit of a quote currency: 1 for USD; the price of the instrument `{CCY}USD` when there is
 * one, otherwise 1 / the price of `USD{CCY}`; null when neither has a positive price (an amount in
 * that currency cannot be valued, and an order in it is refused).
 */
export function usdRate<N>(
  A: Arith<N>,
  quoteCurrency: string,
  priceOf: (code: string) => N | null | undefined,
): N | null {
  const ccy = quoteCurrency.toUpperCase();
  if (ccy === QUOTE_USD) return A.of(1);
  const zero = A.of(0);
  const direct = priceOf(`${ccy}${QUOTE_USD}`);
  if (direct != null && A.cmp(direct, zero) > 0) return direct;
  const inverse = priceOf(`${QUOTE_USD}${ccy}`);
  if (inverse != null && A.cmp(inverse, zero) > 0) return A.div(A.of(1), inverse);
  return null;
}

/** Units of a position: lots x units per lot (ForexContNum). */
export function units<N>(A: Arith<N>, lots: N, contNum: N): N {
  return A.mul(lots, contNum);
}

/** The instrument fields the margin and fee formulas read. */
export interface MarginTerms<N> {
  /** ForexContNum: units per lot. */
  contNum: N;
  /** MarginMode: 1 fixed, otherwise leverage based. */
  marginMode: number;
}

/**
 * Margin in USD. Fixed mode (MarginMode 1): lots x units per lot. Otherwise
 * lots x units per lot x price / leverage, converted to USD with `usdRate` (USD per unit of the
 * instrument's quote currency). Leverage must be positive in leverage mode.
 */
export function marginUsd<N>(
  A: Arith<N>,
  lots: N,
  inst: MarginTerms<N>,
  price: N,
  leverage: number,
  usdRateOfQuote: N,
): N {
  const u = units(A, lots, inst.contNum);
  if (inst.marginMode === MARGIN_MODE.FIXED) return u;
  if (!(leverage > 0)) throw new RangeError("leverage must be positive");
  return A.mul(A.div(A.mul(u, price), A.of(leverage)), usdRateOfQuote);
}

/** Fee in USD: fee type 1 is lots x ForexFeeRate; otherwise margin x ForexFeeRate. */
export function feeUsd<N>(A: Arith<N>, feeType: number, lots: N, feeRate: N, margin: N): N {
  return feeType === FEE_TYPE.PER_LOT ? A.mul(lots, feeRate) : A.mul(margin, feeRate);
}

/** Margin and fee of opening a position: what the order form estimates and the engine books. */
export function openCost<N>(
  A: Arith<N>,
  p: {
    lots: N;
    inst: MarginTerms<N> & { feeRate: N };
    price: N;
    leverage: number;
    feeType: number;
    usdRate: N;
  },
): { margin: N; fee: N } {
  const margin = marginUsd(A, p.lots, p.inst, p.price, p.leverage, p.usdRate);
  return { margin, fee: feeUsd(A, p.feeType, p.lots, p.inst.feeRate, margin) };
}

/** Profit in USD: buy (price - open) x units, sell (open - price) x units, times the USD rate. */
export function profitUsd<N>(
  A: Arith<N>,
  orderType: number,
  openPrice: N,
  price: N,
  unitsHeld: N,
  usdRateOfQuote: N,
): N {
  const diff = orderType === ORDER_TYPE.BUY ? A.sub(price, openPrice) : A.sub(openPrice, price);
  return A.mul(A.mul(diff, unitsHeld), usdRateOfQuote);
}

/**
 * What one pip is worth in USD for a position of `lots`: pip size (contract/api/trading-rules.ts
 * pipSize) x lots x units per lot x the USD rate of the quote currency.
 */
export function pipValueUsd<N>(A: Arith<N>, pip: N, lots: N, contNum: N, usdRateOfQuote: N): N {
  return A.mul(A.mul(pip, units(A, lots, contNum)), usdRateOfQuote);
}

/** Equity (`total`): balance + floating profit. */
export function equity<N>(A: Arith<N>, balance: N, floatingProfit: N): N {
  return A.add(balance, floatingProfit);
}

/** Free margin (`can_use`): equity - used margin. */
export function freeMargin<N>(A: Arith<N>, equityUsd: N, usedMargin: N): N {
  return A.sub(equityUsd, usedMargin);
}

/** Margin level in percent (`HazardRate`): equity / used margin x 100; null while no margin is used. */
export function marginLevelPct(equityUsd: number, usedMargin: number): number | null {
  return usedMargin > 0 ? levelPct(equityUsd, usedMargin) : null;
}

/**
 * True when margin is used and the margin level (marginLevelPct) is at or below `limitPct`. The
 * tick's stop-out look asks this of every account it touched: a plain boolean, where a level that
 * may be null would be a boxed number per account and per tick (garbage the tick would collect).
 */
export function marginLevelAtOrBelow(
  equityUsd: number,
  usedMargin: number,
  limitPct: number,
): boolean {
  return usedMargin > 0 && levelPct(equityUsd, usedMargin) <= limitPct;
}

function levelPct(equityUsd: number, usedMargin: number): number {
  return (equityUsd / usedMargin) * 100;
}

/** Withdrawal fee: fee type 1 is the fixed `draw_rate`; otherwise `draw_rate` x amount. */
export function withdrawFee<N>(A: Arith<N>, amount: N, feeType: number, drawRate: N): N {
  return feeType === DRAW_FEE_TYPE.FIXED ? drawRate : A.mul(drawRate, amount);
}

/** Withdrawal net: (amount - fee) x usd price, never below 0; 0 for an amount that is not positive. */
export function withdrawNet<N>(
  A: Arith<N>,
  amount: N,
  feeType: number,
  drawRate: N,
  usdPrice: N,
): N {
  const zero = A.of(0);
  if (!(A.cmp(amount, zero) > 0)) return zero;
  const net = A.mul(A.sub(amount, withdrawFee(A, amount, feeType, drawRate)), usdPrice);
  return A.cmp(net, zero) > 0 ? net : zero;
}

/** Coins a deposit of `amountUsd` needs at `usdPrice` USD per coin (before the cut to COIN_DP). */
export function depositCoins<N>(A: Arith<N>, amountUsd: N, usdPrice: N): N {
  return A.div(amountUsd, usdPrice);
}
