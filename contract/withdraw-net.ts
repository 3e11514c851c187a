/**
 * The net of a withdrawal as both programs show and book it: `withdrawNet` (contract/formulas.ts)
 * over exact decimals (decimal.js, 40 significant digits, half-even), cut down to WITHDRAW_NET_DP
 * places, never rounded up. The upstream books it (money/withdrawals.ts), the web's server renders
 * the expected arrival with it and the browser recomputes it live as the amount changes, so the
 * three can never disagree.
 */
import DecimalJs from "decimal.js";
import { WITHDRAW_NET_DP } from "./constants";
import { withdrawNet, type Arith } from "./formulas";

const Dec = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -30,
  toExpPos: 40,
});
type Dec = InstanceType<typeof Dec>;

const exact: Arith<Dec> = {
  of: (x) => new Dec(x),
  add: (a, b) => a.plus(b),
  sub: (a, b) => a.minus(b),
  mul: (a, b) => a.mul(b),
  div: (a, b) => a.div(b),
  cmp: (a, b) => a.cmp(b),
};

/** A plain decimal as people type it and settings store it: digits, optionally a point and more. */
const PLAIN_DECIMAL_RE = /^(\d{1,15}(\.\d{0,30})?|\.\d{1,30})$/;

/** The decimal of a plain decimal text or a finite number, else null ("", "1e5", "-1", "abc"). */
function plain(x: string | number): Dec | null {
  if (typeof x === "number") return Number.isFinite(x) ? new Dec(x) : null;
  const s = x.trim();
  return PLAIN_DECIMAL_RE.test(s) ? new Dec(s) : null;
}

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
