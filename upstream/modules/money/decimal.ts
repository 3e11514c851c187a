/**
 * Exact money for the order engine. Every amount that is booked (fee, margin, realised profit,
 * protection, demo reset) is computed with decimal.js at 40 significant digits and rounded ONCE to
 * integer micro-USD with ROUND_HALF_EVEN (banker's rounding: 0.0000005 -> 0, 0.0000015 -> 0.000002),
 * so repeated bookings carry no systematic bias. Floats are used only for display values and for the
 * per-tick mark-to-market of the hot path, never for a booked amount.
 */
import { Dec } from "@contract/exact";
import type { Arith } from "@contract/formulas";

// The contract's exact decimal (40 significant digits, half-even): the web's exact figures use it too.
export { Dec };

export const MICRO = 1_000_000;

/**
 * Decimals of the numbers dec() met last (prices, rates: the same few between two ticks). A Dec
 * never changes once made, so one may stand for its number wherever it is met; parsing a number's
 * text costs more than the look-up. Emptied when full, so it holds at most NUMBER_CACHE_MAX.
 */
const numberCache = new Map<number, Dec>();
const NUMBER_CACHE_MAX = 4096;

/** A decimal from a decimal string or a JS number (numbers use their shortest round-trip text). */
export function dec(x: string | number | Dec): Dec {
  if (x instanceof Dec) return x;
  if (typeof x !== "number" || x === 0) return new Dec(x); // 0 and -0 share a key: never cached
  let d = numberCache.get(x);
  if (d === undefined) {
    d = new Dec(x);
    if (numberCache.size >= NUMBER_CACHE_MAX) numberCache.clear();
    numberCache.set(x, d);
  }
  return d;
}

const constCache = new Map<string, Dec>();
/** A decimal of a configuration value (instrument fields, settings), parsed once and cached. */
export function decConst(s: string): Dec {
  let d = constCache.get(s);
  if (!d) {
    d = new Dec(s);
    if (constCache.size < 10_000) constCache.set(s, d);
  }
  return d;
}

/** Rounds a USD decimal to integer micro-USD (half-even). */
/**
 * The largest money amount any field takes, USD (a deposit, a withdrawal, an adjustment, a bound or
 * price in the catalogue or the settings): far beyond any real one, and well inside what integer
 * micro-USD hold exactly. A larger figure is the field's refusal, never an error.
 */
export const MAX_MONEY_USD = 1_000_000_000;

/** True when |d| is at most MAX_MONEY_USD. */
export const inMoneyRange = (d: Dec): boolean => d.abs().lte(MAX_MONEY_USD);

export function toMicro(usd: Dec): number {
  const m = usd.mul(MICRO).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).toNumber();
  if (!Number.isSafeInteger(m)) throw new Error(`amount out of range: ${usd.toString()}`);
  return m === 0 ? 0 : m; // no -0
}

/** Display value of a micro-USD integer (exact to 6 decimals as a JS number). */
export function microToNumber(m: number): number {
  return m / MICRO;
}

/** Micro-USD to a decimal string with 6 decimals, e.g. 1500000 -> "1.500000". */
export function microToString(m: number): string {
  return new Dec(m).div(MICRO).toFixed(6);
}

/** USD decimal string or number -> micro-USD (half-even). */
export function usdToMicro(x: string | number): number {
  return toMicro(dec(x));
}

/**
 * Parses a user-supplied positive decimal ("0.01", "1", 2) into a Decimal, or null when it is not a
 * plain finite decimal with at most `maxDp` decimals.
 */
export function parseDecimal(raw: unknown, maxDp = 8): Dec | null {
  if (typeof raw === "number") {
    if (!Number.isFinite(raw)) return null;
    raw = String(raw);
  }
  if (typeof raw !== "string") return null;
  const s = raw.trim();
  if (!/^\d{1,15}(\.\d{1,30})?$/.test(s) && !/^\.\d{1,30}$/.test(s)) return null;
  const d = new Dec(s);
  if (d.decimalPlaces() > maxDp) return null;
  return d;
}

/** Rounds a float display value to 6 decimals (for JSON output). */
export function round6(x: number): number {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0 ? 0 : r;
}

export function round2(x: number): number {
  const r = Math.round(x * 100) / 100;
  return r === 0 ? 0 : r;
}

/** The contract's formulas (@contract/formulas) over exact decimals: what the engine books. */
export const decimalArith: Arith<Dec> = {
  of: (x) => (typeof x === "string" ? decConst(x) : new Dec(x)),
  add: (a, b) => a.plus(b),
  sub: (a, b) => a.minus(b),
  mul: (a, b) => a.mul(b),
  div: (a, b) => a.div(b),
  cmp: (a, b) => a.cmp(b),
};
