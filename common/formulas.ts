/**
 * The formulas of product-spec.md section 9 and trading-rules.md, pure and dependency-free, shared
 * by the web (estimates on the order form) and the upstream (which books exact amounts with its own
 * decimal arithmetic on top of these definitions). Plain numbers here are display values.
 */

/** Margin in USD: MarginMode 1 is lots x units per lot; otherwise lots x units x price / leverage. */
export function margin(lots: number, contNum: number, price: number, leverage: number, marginMode: number): number {
  if (marginMode === 1) return lots * contNum;
  if (!(leverage > 0)) return NaN;
  return (lots * contNum * price) / leverage;
}

/** Fee in USD: trade_fee_type 1 is lots x rate; otherwise margin x rate. */
export function fee(feeType: number, lots: number, rate: number, marginUsd: number): number {
  return feeType === 1 ? lots * rate : marginUsd * rate;
}

/** Profit in USD of a position: buy (price - open) x units, sell (open - price) x units. */
export function profit(orderType: number, openPrice: number, price: number, units: number): number {
  return orderType === 1 ? (price - openPrice) * units : (openPrice - price) * units;
}

/** Withdrawal net: (amount - fee) x usd price, minimum 0; fee type 1 fixed, otherwise rate x amount. */
export function withdrawNet(amount: number, feeType: number, drawRate: number, usdPrice: number): number {
  if (!(amount > 0)) return 0;
  const f = feeType === 1 ? drawRate : drawRate * amount;
  return Math.max(0, (amount - f) * usdPrice);
}

/** Margin level in percent, or null while no margin is used. */
export function marginLevel(equity: number, usedMargin: number): number | null {
  return usedMargin > 0 ? (equity / usedMargin) * 100 : null;
}
