/**
 * Distances typed in pips as the price distances the upstream takes, converted exactly with the
 * contract's pipsToPrice at the instrument's decimals.
 */
import { pipsToPrice } from "@contract/api/trading-rules";

/**
 * Each typed distance as price text (undefined where empty or 0), or the first field whose pips
 * are finer than the instrument's price can show (a tenth of a pip where a pip is one point).
 */
export function pipsDistances<K extends string>(
  typed: Record<K, number | undefined>,
  precision: number,
): Record<K, string | undefined> | { refused: K } {
  const out = {} as Record<K, string | undefined>;
  for (const k of Object.keys(typed) as K[]) {
    const pips = typed[k];
    if (!pips) {
      out[k] = undefined;
      continue;
    }
    const d = pipsToPrice(String(pips), precision);
    if (d === null) return { refused: k };
    out[k] = d;
  }
  return out;
}
