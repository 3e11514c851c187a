/**
 * Deposit figures shared by the server and the browser: the entered amount (USD, at most
 * PRECISION.balance decimals, a decimal comma accepted) and the coin count it makes at a channel's
 * usd_price, cut to COIN_DP places (contract/deposit-coins.ts).
 */
import { depositCoinsText } from "@contract/deposit-coins";
import { AMOUNT_RULE, isPlainDecimal } from "@contract/fields";

/**
 * The amount as a plain decimal text ("12.5"; a decimal comma read as a point) under the
 * contract's AMOUNT_RULE, as the upstream reads it; or null when it is not one.
 */
export function parseAmount(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const v = raw.trim().replace(/^(\d*),(\d+)$/, "$1.$2");
  return isPlainDecimal(v, AMOUNT_RULE) ? v : null;
}

/** Coins to send for `amount` USD at `usdPrice` USD per coin; null without a positive amount. */
export function coinCount(amount: unknown, usdPrice: number): string | null {
  const a = parseAmount(amount);
  return a === null ? null : depositCoinsText(a, usdPrice);
}
