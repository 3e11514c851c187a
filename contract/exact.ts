/**
 * Exact decimals for the money figures both programs compute from the same inputs (the withdrawal
 * net, a deposit's coin count): decimal.js with 40 significant digits, half-even, and the
 * contract's formulas over it. Float is for display only.
 */
import DecimalJs from "decimal.js";
import type { Arith } from "./formulas";

export const Dec = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -30,
  toExpPos: 40,
});
export type Dec = InstanceType<typeof Dec>;

export const exact: Arith<Dec> = {
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
export function plain(x: string | number): Dec | null {
  if (typeof x === "number") return Number.isFinite(x) ? new Dec(x) : null;
  const s = x.trim();
  return PLAIN_DECIMAL_RE.test(s) ? new Dec(s) : null;
}
