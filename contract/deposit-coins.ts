/**
 * The coins a deposit asks the person to send, as both programs show and record it:
 * `depositCoins` (contract/formulas.ts) over exact decimals, cut down to COIN_DP places, never
 * rounded up. The upstream records it with the declared deposit (money/deposits.ts); the web's
 * server and the browser show it as the amount is typed, so they can never disagree.
 */
import { COIN_DP } from "./constants";
import { Dec, exact, plain } from "./exact";
import { depositCoins } from "./formulas";

/**
 * Coins to send for `amountUsd` USD at `usdPrice` USD per coin, as text with COIN_DP decimals;
 * null when either is not a positive plain decimal.
 */
export function depositCoinsText(
  amountUsd: string | number,
  usdPrice: string | number,
): string | null {
  const amount = plain(amountUsd);
  const price = plain(usdPrice);
  if (amount === null || price === null || amount.lte(0) || price.lte(0)) return null;
  return depositCoins(exact, amount, price)
    .toDecimalPlaces(COIN_DP, Dec.ROUND_DOWN)
    .toFixed(COIN_DP);
}
