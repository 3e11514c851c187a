/** Display formatting with Intl (display values only; money is never booked from these). */
import { HTML_LANG, type Lang } from "../i18n";

function tag(lang: string): string {
  return HTML_LANG[lang as Lang] ?? "en";
}

/** A price with the instrument's precision (Latin digits, grouping as the language does). */
export function formatPrice(value: number | null | undefined, precision: number, lang = "en"): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "--";
  const digits = Math.max(0, Math.min(10, Math.trunc(precision || 0)));
  return new Intl.NumberFormat(tag(lang), { minimumFractionDigits: digits, maximumFractionDigits: digits, numberingSystem: "latn" }).format(value);
}

/** A change in percent, signed, 2 decimals: "+0.53%". */
export function formatChange(value: number | null | undefined, lang = "en"): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "--";
  const s = new Intl.NumberFormat(tag(lang), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: "exceptZero",
    numberingSystem: "latn",
  }).format(value);
  return `${s}%`;
}

/** An amount of money in USD with 2 decimals (product-spec.md section 9: balance 2 decimals). */
export function formatMoney(value: number | null | undefined, lang = "en"): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "--";
  return new Intl.NumberFormat(tag(lang), { minimumFractionDigits: 2, maximumFractionDigits: 2, numberingSystem: "latn" }).format(value);
}

export function changeClass(value: number | null | undefined): "up" | "down" | "flat" {
  if (!value || !Number.isFinite(value)) return "flat";
  return value > 0 ? "up" : "down";
}
