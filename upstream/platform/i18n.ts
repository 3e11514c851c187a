/**
 * Translated messages of the upstream: upstream/locales/{lang}/{area}.json, flat key -> text.
 * The `lang` header picks the language (tw maps to hk; anything unknown falls back to en).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { DEFAULT_LANG, LANGS, LANG_TAG, type Lang } from "@contract/constants";

export { DEFAULT_LANG, LANGS, type Lang };

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "locales");

let cache: Map<Lang, Record<string, string>> | null = null;

export function loadMessages(): Map<Lang, Record<string, string>> {
  if (cache) return cache;
  const m = new Map<Lang, Record<string, string>>();
  for (const lang of LANGS) {
    const dir = path.join(DIR, lang);
    const merged: Record<string, string> = {};
    if (fs.existsSync(dir)) {
      for (const f of fs
        .readdirSync(dir)
        .filter((x) => x.endsWith(".json"))
        .sort()) {
        Object.assign(merged, JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")));
      }
    }
    m.set(lang, merged);
  }
  cache = m;
  return m;
}

export function normaliseLang(raw: unknown): Lang {
  const v = String(raw ?? "")
    .trim()
    .toLowerCase();
  if (v === "tw") return "hk";
  return (LANGS as readonly string[]).includes(v) ? (v as Lang) : DEFAULT_LANG;
}

/** A duration or a plain value in a message. */
type Param = string | number | { unit: "second" | "minute" | "hour"; value: number };

/**
 * Languages whose long unit names change with the grammatical case the sentence needs ("через 1
 * минуту"): they take the short, caseless form ("1 мин").
 */
const SHORT_UNITS: ReadonlySet<Lang> = new Set<Lang>(["ru"]);

/** A duration in the reader's language, with the right plural form ("1 minute", "5 Minuten"). */
export function formatDuration(lang: Lang, d: { unit: string; value: number }): string {
  return new Intl.NumberFormat(LANG_TAG[lang], {
    style: "unit",
    unit: d.unit,
    unitDisplay: SHORT_UNITS.has(lang) ? "short" : "long",
  }).format(d.value);
}

/**
 * An instrument's display name in a language: `instrument.<CODE>` of upstream/locales/<lang>/
 * instruments.json (metals and energies: Gold, Silver, Crude Oil...), else the stored show code
 * (currency pairs, indices and company names read the same in every language).
 */
export function instrumentName(lang: Lang, code: string, showCode: string): string {
  return loadMessages().get(lang)?.[`instrument.${code}`] ?? showCode;
}

const pluralRules = new Map<Lang, Intl.PluralRules>();

/**
 * The text of `key` in one language's messages. With a numeric `count`, a plural message is
 * `key_<category>` for the category Intl.PluralRules gives the count in that language (zero, one,
 * two, few, many, other; each language has exactly its own categories), else `key_other`.
 */
function messageOf(lang: Lang, key: string, params: Record<string, Param>): string | undefined {
  const msgs = loadMessages().get(lang);
  if (!msgs) return undefined;
  const count = Number(params.count);
  if ("count" in params && Number.isFinite(count)) {
    let rules = pluralRules.get(lang);
    if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(LANG_TAG[lang])));
    const text = msgs[`${key}_${rules.select(count)}`] ?? msgs[`${key}_other`];
    if (text !== undefined) return text;
  }
  return msgs[key];
}

/** True when `key` names a message of the default language (a zod default text does not). */
export function hasMessage(key: unknown): key is string {
  return typeof key === "string" && loadMessages().get(DEFAULT_LANG)?.[key] !== undefined;
}

export function translate(lang: Lang, key: string, params: Record<string, Param> = {}): string {
  const text = messageOf(lang, key, params) ?? messageOf(DEFAULT_LANG, key, params) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, p: string) => {
    if (!(p in params)) return `{{${p}}}`;
    const v = params[p];
    return typeof v === "object" ? formatDuration(lang, v) : String(v);
  });
}
