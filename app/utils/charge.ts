/**
 * Deposit figures shared by the server and the browser: the entered amount (USD, at most
 * PRECISION.balance decimals, a decimal comma accepted) and the coin count it makes at a channel's
 * usd_price, cut to COIN_DP places (contract/deposit-coins.ts).
 */
import { PRECISION } from "@contract/constants";
import { depositCoinsText } from "@contract/deposit-coins";

const AMOUNT_RE = new RegExp(`^\\d{1,12}(?:[.,]\\d{1,${PRECISION.balance}})?$`);

/** The amount as a plain decimal text ("12.5"), or null when it is not one. */
export function parseAmount(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const v = raw.trim();
  if (!AMOUNT_RE.test(v)) return null;
  return v.replace(",", ".");
}

/** Coins to send for `amount` USD at `usdPrice` USD per coin; null without a positive amount. */
export function coinCount(amount: unknown, usdPrice: number): string | null {
  const a = parseAmount(amount);
  return a === null ? null : depositCoinsText(a, usdPrice);
}
