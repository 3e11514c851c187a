/**
 * Statements' and own statistics' rules that pages read too (contract/api/statements.ts holds the
 * endpoints): the lines of a statement, its date range (whole UTC days: the product has no time
 * zone of its own), the presets, and exact money on the wire as decimal text.
 *
 * A statement covers the days `from` to `to`, both included, in UTC: the instants
 * [from 00:00, to + 1 day 00:00). Its opening balance is the sum of the account's ledger rows
 * booked before the first instant, its closing balance the sum of those booked before the last;
 * every row between is on exactly one line, so opening + Σ lines = closing, to the micro-dollar.
 */

/** A statement's lines, in the order it shows them (each ledger kind belongs to one). */
export const STATEMENT_LINES = [
  "deposits",
  "withdrawals",
  "realised_profit",
  "fees",
  "adjustments",
  "copy_moves",
] as const;
export type StatementLine = (typeof STATEMENT_LINES)[number];

/** The longest statement, in days: a year, leap day included. */
export const STATEMENT_MAX_DAYS = 366;
/** The first and last days a statement may name (anything else is not a statement's day). */
export const STATEMENT_FIRST_DAY = "2000-01-01";
export const STATEMENT_LAST_DAY = "2099-12-31";

/** The ranges the statement page offers as links. */
export const STATEMENT_PRESETS = ["this_month", "last_month", "this_year"] as const;
export type StatementPreset = (typeof STATEMENT_PRESETS)[number];

/** Rows a page of a statement's lists may ask for at most (the downloads read pages this size). */
export const STATEMENT_EXPORT_PAGE = 500;

/** Months of profit the own statistics' chart shows, the current one last. */
export const STATS_MONTHS = 12;

/** A day as the statement's fields take it. */
export const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

const DAY_MS = 86_400_000;

/** UTC midnight of a day "YYYY-MM-DD" (ms), or null when it is no such day ("2026-02-30"). */
export function dayStartMs(day: string): number | null {
  if (!DAY_RE.test(day)) return null;
  const [y, m, d] = day.split("-").map(Number);
  const ms = Date.UTC(y, m - 1, d);
  return dayOf(ms) === day ? ms : null;
}

/** The UTC day of an instant, "YYYY-MM-DD". */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC month of an instant, "YYYY-MM". */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** The first and last days of a month "YYYY-MM". */
export function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split("-").map(Number);
  return { from: dayOf(Date.UTC(y, m - 1, 1)), to: dayOf(Date.UTC(y, m, 1) - DAY_MS) };
}

/** The month before a month "YYYY-MM". */
export function monthBefore(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return monthOf(Date.UTC(y, m - 2, 1));
}

/** The instants [startMs, endMs) of the months from `first` to `last` ("YYYY-MM"), in order. */
export function monthsBetween(
  first: string,
  last: string,
): { month: string; startMs: number; endMs: number }[] {
  const out: { month: string; startMs: number; endMs: number }[] = [];
  let [y, m] = first.split("-").map(Number);
  for (;;) {
    const startMs = Date.UTC(y, m - 1, 1);
    const month = monthOf(startMs);
    if (month > last) return out;
    out.push({ month, startMs, endMs: Date.UTC(y, m, 1) });
    m += 1;
    if (m > 12) [y, m] = [y + 1, 1];
  }
}

/** The days of a preset at `nowMs` (this month and this year run to their last day). */
export function presetRange(preset: StatementPreset, nowMs: number): { from: string; to: string } {
  const month = monthOf(nowMs);
  if (preset === "this_month") return monthRange(month);
  if (preset === "last_month") return monthRange(monthBefore(month));
  const year = month.slice(0, 4);
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

/** Why a range is refused: a day that is none, `from` after `to`, or more than the longest span. */
export type RangeProblem = "date_invalid" | "range_order" | "range_too_long";

/**
 * The instants of the days `from` to `to` (both included): [fromMs, toMs). Refused when a day is
 * not a real day between STATEMENT_FIRST_DAY and STATEMENT_LAST_DAY, when `from` is after `to`, or
 * when it spans more than STATEMENT_MAX_DAYS days.
 */
export function statementRange(
  from: string,
  to: string,
): { ok: true; fromMs: number; toMs: number } | { ok: false; problem: RangeProblem } {
  const a = dayStartMs(from);
  const b = dayStartMs(to);
  const inside = (d: string) => d >= STATEMENT_FIRST_DAY && d <= STATEMENT_LAST_DAY;
  if (a === null || b === null || !inside(from) || !inside(to))
    return { ok: false, problem: "date_invalid" };
  if (a > b) return { ok: false, problem: "range_order" };
  if ((b - a) / DAY_MS + 1 > STATEMENT_MAX_DAYS) return { ok: false, problem: "range_too_long" };
  return { ok: true, fromMs: a, toMs: b + DAY_MS };
}

/** Exact USD on the wire: integer micro-USD as a decimal with 6 places ("-12.345600"). */
export const MICRO_TEXT_RE = /^-?\d{1,10}\.\d{6}$/;

/** Micro-USD (a safe integer) as decimal text with 6 places. */
export function microText(micro: number): string {
  if (!Number.isSafeInteger(micro)) throw new RangeError(`not integer micro-USD: ${micro}`);
  const sign = micro < 0 ? "-" : "";
  const abs = String(Math.abs(micro)).padStart(7, "0");
  return `${sign}${abs.slice(0, -6)}.${abs.slice(-6)}`;
}

/** Decimal text with 6 places back to micro-USD (exact: no float is involved). */
export function textMicro(text: string): number {
  if (!MICRO_TEXT_RE.test(text)) throw new RangeError(`not micro-USD text: ${text}`);
  const neg = text.startsWith("-");
  const [whole, frac] = text.replace("-", "").split(".");
  const micro = Number(whole) * 1_000_000 + Number(frac);
  return neg ? -micro : micro;
}
