/**
 * The one display format module: prices, money, percentages, lots and dates, all through Intl in
 * the user's locale (the BCP 47 tag of the interface language, Latin digits so that the server's
 * HTML and the browser's render agree), with the display precisions of product-spec.md section 9:
 * balance 2 decimals; profit 6; margin and fee 6; prices with the instrument's PricePrecision.
 * Display values only (money is never booked from these). Pure and safe on the server and in the
 * browser. Values that are not finite numbers show as "--".
 */
import { PRECISION as CONTRACT_PRECISION } from "@contract/constants";
import { HTML_LANG, normaliseLang } from "~/i18n";

/** Decimals shown: the contract's (balance 2, profit 6, margin 6, fee 6), and 2 for percentages. */
const PRECISION = { ...CONTRACT_PRECISION, percent: 2 } as const;
export const EMPTY = "--";

const cache = new Map<string, Intl.NumberFormat>();

/** BCP 47 tag for one of our language codes (hk -> zh-Hant-HK); unknown values fall back to en. */
export function localeOf(lang: string | null | undefined): string {
  const l = normaliseLang(lang ?? "");
  return l ? HTML_LANG[l] : "en";
}

function numberFormat(
  lang: string,
  decimals: number,
  signed: boolean,
  grouping = true,
): Intl.NumberFormat {
  const d = Math.max(0, Math.min(20, Math.trunc(decimals)));
  const key = `${lang}|${d}|${signed ? 1 : 0}|${grouping ? 1 : 0}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(localeOf(lang), {
      minimumFractionDigits: d,
      maximumFractionDigits: d,
      signDisplay: signed ? "exceptZero" : "auto",
      useGrouping: grouping,
      numberingSystem: "latn",
    });
    cache.set(key, f);
  }
  return f;
}

function toNumber(v: unknown): number | null {
  if (v === null || v === undefined || v === "") return null;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Any amount with a fixed number of decimals. */
export function formatFixed(
  v: unknown,
  decimals: number,
  lang: string,
  opts: { signed?: boolean } = {},
): string {
  const n = toNumber(v);
  if (n === null) return EMPTY;
  // Avoid "-0.00": a value that rounds to zero shows as zero.
  const f = numberFormat(lang, decimals, !!opts.signed);
  const rounded = Number(n.toFixed(Math.max(0, Math.min(20, decimals))));
  return f.format(rounded === 0 ? 0 : n);
}

const exactCache = new Map<string, Intl.NumberFormat>();

/**
 * Exact USD as a statement sends it (decimal text with 6 places, "-12.345600"), in the user's
 * locale: grouped, with 2 to 6 decimals, so every micro-dollar shows and the lines add up to the
 * balances on the screen as they do in the ledger. The text is formatted as a decimal, never
 * through a float.
 */
export function formatExact(text: string, lang: string, opts: { signed?: boolean } = {}): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) return EMPTY;
  const key = `${lang}|${opts.signed ? 1 : 0}`;
  let f = exactCache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(localeOf(lang), {
      minimumFractionDigits: 2,
      maximumFractionDigits: 6,
      signDisplay: opts.signed ? "exceptZero" : "auto",
      numberingSystem: "latn",
    });
    exactCache.set(key, f);
  }
  // Intl formats a decimal string exactly (no rounding through a double).
  return f.format(text as unknown as number);
}

const unitFormats = new Map<string, Intl.NumberFormat>();

/**
 * A length of time in whole seconds, in the user's locale, by its two largest units ("1 day 3 hr",
 * "2 hr 5 min", "40 sec"): Intl's short unit names, which carry each language's plural forms.
 */
export function formatDuration(seconds: number, lang: string): string {
  if (!Number.isFinite(seconds) || seconds < 0) return EMPTY;
  const unit = (u: "day" | "hour" | "minute" | "second", n: number) => {
    const key = `${lang}|${u}`;
    let f = unitFormats.get(key);
    if (!f) {
      f = new Intl.NumberFormat(localeOf(lang), {
        style: "unit",
        unit: u,
        unitDisplay: "short",
        numberingSystem: "latn",
      });
      unitFormats.set(key, f);
    }
    return f.format(n);
  };
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return h > 0 ? `${unit("day", d)} ${unit("hour", h)}` : unit("day", d);
  if (h > 0) return m > 0 ? `${unit("hour", h)} ${unit("minute", m)}` : unit("hour", h);
  if (m > 0) return unit("minute", m);
  return unit("second", s);
}

/** Balance, equity, free margin and other account amounts: 2 decimals. */
export function formatBalance(v: unknown, lang: string): string {
  return formatFixed(v, PRECISION.balance, lang);
}

/** An amount of money in USD (the user card's balance): 2 decimals. */
export function formatMoney(v: unknown, lang: string): string {
  return formatFixed(v, PRECISION.balance, lang);
}

/** Profit (floating or realised): 6 decimals, with an explicit + sign when positive. */
export function formatProfit(v: unknown, lang: string): string {
  return formatFixed(v, PRECISION.profit, lang, { signed: true });
}

/** Margin (CautionMoney): 6 decimals. */
export function formatMargin(v: unknown, lang: string): string {
  return formatFixed(v, PRECISION.margin, lang);
}

/** Fee (TradeFee): 6 decimals. */
export function formatFee(v: unknown, lang: string): string {
  return formatFixed(v, PRECISION.fee, lang);
}

/** A price with the instrument's PricePrecision. */
export function formatPrice(v: unknown, precision: number, lang = "en"): string {
  return formatFixed(v, Number.isFinite(precision) ? precision : 5, lang);
}

/** Lots: as many decimals as the lot step (Pip) has, at least 2. */
export function formatLots(v: unknown, pip: number, lang: string): string {
  return formatFixed(v, Math.max(2, decimalsOf(pip)), lang);
}

/** A lot figure of a hint (minimum lots, lot step): as many decimals as it has. */
export function formatLotHint(v: unknown, lang: string): string {
  const n = toNumber(v);
  if (n === null) return EMPTY;
  return formatFixed(n, decimalsOf(n), lang);
}

/** Margin level (HazardRate) in percent, 2 decimals; "--" when no position is open (null). */
export function formatPercent(v: unknown, lang: string): string {
  const n = toNumber(v);
  if (n === null) return EMPTY;
  return `${formatFixed(n, PRECISION.percent, lang)}%`;
}

/** Change in percent with a sign (quotes). */
export function formatChange(v: unknown, lang: string): string {
  const n = toNumber(v);
  if (n === null) return EMPTY;
  return `${formatFixed(n, PRECISION.percent, lang, { signed: true })}%`;
}

/** Volume: compact grouping, no decimals. */
export function formatVolume(v: unknown, lang: string): string {
  return formatFixed(v, 0, lang);
}

/** Number of decimals of a step such as 0.01 (2) or 1 (0). */
export function decimalsOf(step: number): number {
  if (!Number.isFinite(step)) return 0;
  const s = String(step);
  if (s.includes("e-")) return Number(s.split("e-")[1]);
  const i = s.indexOf(".");
  return i < 0 ? 0 : s.length - i - 1;
}

/**
 * A plain, locale-independent value for an <input> (dot decimal separator, no grouping), rounded
 * to the given decimals without float noise: 0.30000000000000004 -> "0.3".
 */
export function inputValue(v: number, decimals: number): string {
  if (!Number.isFinite(v)) return "";
  return String(Number(v.toFixed(Math.max(0, Math.min(20, decimals)))));
}

/** Sign class of an amount for colouring: "up", "down" or "flat". */
export function signOf(v: unknown): "up" | "down" | "flat" {
  const n = toNumber(v);
  if (n === null || n === 0) return "flat";
  return n > 0 ? "up" : "down";
}

const dateCache = new Map<string, Intl.DateTimeFormat>();

/**
 * A date and time in the user's locale: seconds or milliseconds since the epoch, or the upstream's
 * "YYYY-MM-DD HH:mm:ss" (UTC). Shown in UTC unless a time zone is given, so that the server's HTML
 * and the browser's render agree.
 */
export function formatDateTime(v: unknown, lang: string, opts: { timeZone?: string } = {}): string {
  let d: Date | null = null;
  if (v instanceof Date) d = v;
  else if (typeof v === "number" && Number.isFinite(v)) d = new Date(v < 1e12 ? v * 1000 : v);
  else if (typeof v === "string" && v.trim())
    d = new Date(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(v.trim())
        ? `${v.trim().replace(" ", "T")}Z`
        : v,
    );
  if (!d || Number.isNaN(d.getTime())) return EMPTY;
  const timeZone = opts.timeZone ?? "UTC";
  const key = `${lang}|${timeZone}`;
  let f = dateCache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(localeOf(lang), {
      dateStyle: "short",
      timeStyle: "medium",
      numberingSystem: "latn",
      timeZone,
    });
    dateCache.set(key, f);
  }
  return f.format(d);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A day "YYYY-MM-DD" (UTC) in the user's locale ("Nov 1, 2026"), wrapped in a first-strong
 * isolate (U+2068 … U+2069) so that its figures keep their order inside a right-to-left sentence.
 */
export function formatDay(day: string, lang: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (!Number.isFinite(ms)) return EMPTY;
  const locale = localeOf(lang);
  let f = dayFormats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      dateStyle: "medium",
      timeZone: "UTC",
      numberingSystem: "latn",
    });
    dayFormats.set(locale, f);
  }
  return `\u2068${f.format(ms)}\u2069`;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A chart's time label in the user's locale, the same on the server-drawn chart and in chart.js:
 * hours and minutes for intraday periods, day and month for daily candles, and for tooltips
 * (`full`) both. Candle times are UTC (the market's clock), so the labels are too.
 */
export function formatChartTime(ms: number, period: string, lang: string, full = false): string {
  const locale = localeOf(lang);
  // Days and weeks by their day, months by month and year, 4 hours by day and hour.
  const kind = full
    ? "full"
    : period === "1mon"
      ? "month"
      : period === "1day" || period === "1week"
        ? "day"
        : period === "4hour"
          ? "full"
          : "time";
  const key = `${locale}|${kind}`;
  let f = timeFormats.get(key);
  if (!f) {
    const day = { month: "short", day: "numeric" } as const;
    const time = { hour: "numeric", minute: "2-digit" } as const;
    f = new Intl.DateTimeFormat(locale, {
      timeZone: "UTC",
      ...(kind === "month"
        ? ({ month: "short", year: "numeric" } as const)
        : kind === "day"
          ? day
          : kind === "time"
            ? time
            : { ...day, ...time }),
    });
    timeFormats.set(key, f);
  }
  return f.format(ms);
}

const curveFormats = new Map<string, Intl.DateTimeFormat>();
const DAY_MS = 86_400_000;

/**
 * A date on the axis of a curve spanning `spanMs`, in the user's locale and UTC: the time within
 * two days, day and month within most of a year, month and year beyond. Never a numeric date with
 * separators (cut at its first space in English, "11/28/26,"; its figures reordered in a
 * right-to-left language): wrapped in a first-strong isolate (U+2068 … U+2069), so its figures keep
 * their own direction inside an Arabic page or canvas.
 */
export function formatCurveDate(ms: number, spanMs: number, lang: string): string {
  const kind = spanMs <= 2 * DAY_MS ? "time" : spanMs <= 300 * DAY_MS ? "day" : "month";
  const locale = localeOf(lang);
  const key = `${locale}|${kind}`;
  let f = curveFormats.get(key);
  if (!f) {
    const options: Record<typeof kind, Intl.DateTimeFormatOptions> = {
      time: { hour: "numeric", minute: "2-digit" },
      day: { month: "short", day: "numeric" },
      month: { month: "short", year: "numeric" },
    };
    f = new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...options[kind] });
    curveFormats.set(key, f);
  }
  return `\u2068${f.format(ms)}\u2069`;
}
