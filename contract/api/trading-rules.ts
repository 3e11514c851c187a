/**
 * The trader's tools' rules that pages read too (contract/api/trading.ts holds the endpoints;
 * trading-rules.md in docs says what the engine does with them).
 *
 * Pips. A pip is the unit traders count price moves in: for prices quoted with 3 or 5 decimals
 * (USD/JPY 151.420, EUR/USD 1.08520) it is ten of the last decimal (0.01, 0.0001): the last digit
 * is a fractional pip; for any other precision it is one of the last decimal (gold at 2 decimals:
 * 0.01). A distance given in pips is converted to price exactly: whole points of the instrument's
 * last decimal, so a distance in pips has at most one decimal where a pip is ten points, none
 * otherwise.
 *
 * Expiry of a pending order: `gtc` good until cancelled (the default), `day` until the end of its
 * instrument's trading day (21:00 UTC for forex, metals, energy, indices and US stocks; 00:00 UTC for
 * crypto, which trades around the clock), `date` until a time the trader gives (UTC, within
 * EXPIRY_MAX_DAYS). An order that reaches its expiry unfilled is cancelled with reason `expired`.
 */
export const EXPIRIES = ["gtc", "day", "date"] as const;
export type Expiry = (typeof EXPIRIES)[number];

/** A pending order's expiry time: "YYYY-MM-DD HH:mm" (or with "T", as a datetime-local input sends), UTC. */
export const EXPIRES_AT_PATTERN = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/;

/** The latest expiry a pending order may be given, in days from now. */
export const EXPIRY_MAX_DAYS = 365;

/** Points (units of the last quoted decimal) in one pip, by the instrument's price precision. */
export function pointsPerPip(precision: number): 1 | 10 {
  return precision === 3 || precision === 5 ? 10 : 1;
}

/** The decimal text of `points` points at `precision` decimals ("0.00125" for 125 at 5). */
export function pointsText(points: bigint, precision: number): string {
  const neg = points < 0n;
  const digits = (neg ? -points : points).toString().padStart(precision + 1, "0");
  const whole = digits.slice(0, digits.length - precision);
  const frac = precision > 0 ? `.${digits.slice(digits.length - precision)}` : "";
  return `${neg ? "-" : ""}${whole}${frac}`;
}

/** A pip's size in price ("0.0001" for EUR/USD at 5 decimals). */
export function pipSize(precision: number): string {
  const text = pointsText(BigInt(pointsPerPip(precision)), precision);
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/**
 * `pips` (decimal text) as a price distance (decimal text), exactly; null when it is not a whole
 * number of points of the instrument (more decimals than a pip has) or not a plain decimal.
 */
export function pipsToPrice(pips: string, precision: number): string | null {
  const m = /^(\d{1,9})(?:\.(\d{1,8}))?$/.exec(pips.trim());
  if (!m) return null;
  const per = pointsPerPip(precision);
  const frac = (m[2] ?? "").replace(/0+$/, "");
  // Ten points a pip take one decimal of pips; one point a pip takes none.
  if (frac.length > (per === 10 ? 1 : 0)) return null;
  const tenths = BigInt(m[1]) * 10n + BigInt(frac || "0");
  const points = per === 10 ? tenths : tenths / 10n;
  return pointsText(points, precision);
}

/** A price distance in pips, for display (the distance is whole points, so this is exact to 1 decimal). */
export function priceToPips(distance: number, precision: number): number {
  const points = Math.round(distance * 10 ** precision);
  return points / pointsPerPip(precision);
}
