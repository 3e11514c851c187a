/**
 * The net of a withdrawal as both programs show and book it: `withdrawNet` (contract/formulas.ts)
 * over exact decimals (decimal.js, 40 significant digits, half-even), cut down to WITHDRAW_NET_DP
 * places, never rounded up. The upstream books it (money/withdrawals.ts), the web's server renders
 * the expected arrival with it and the browser recomputes it live as the amount changes, so the
 * three can never disagree.
 */
import { WITHDRAW_NET_DP } from "./constants";
import { Dec, exact, plain } from "./exact";
import { withdrawNet } from "./formulas";

/**
 * The net a withdrawal of `amount` USD pays in the currency's units, as text with WITHDRAW_NET_DP
 * decimals ("98.99000000"); "0.00000000" for an amount that is not positive or a fee that takes it
 * all; null when an input is not a plain decimal.
 */
export function withdrawNetText(
  amount: string | number,
  feeType: number,
  drawRate: string | number,
  usdPrice: string | number,
): string | null {
  const a = plain(amount);
  const rate = plain(drawRate);
  const price = plain(usdPrice);
  if (a === null || rate === null || price === null) return null;
  return withdrawNet(exact, a, feeType, rate, price)
    .toDecimalPlaces(WITHDRAW_NET_DP, Dec.ROUND_DOWN)
    .toFixed(WITHDRAW_NET_DP);
}
