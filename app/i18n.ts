/**
 * Language configuration shared by the server and the browser: the 15 interface languages of
 * product-spec.md section 1, their BCP 47 tags for <html lang>, and text direction.
 */
import type { ThirdPartyModule, i18n } from "i18next";
import { DEFAULT_LANG, LANGS, LANG_TAG, type Lang } from "@contract/constants";
export const LANGUAGES = LANGS;
export { DEFAULT_LANG, type Lang };
const DEFAULT_NS = "common";

/** BCP 47 tag of each interface language (used for <html lang> and Intl formatting). */
export const HTML_LANG: Readonly<Record<Lang, string>> = LANG_TAG;

/** Each language's own name, shown on the language page (never translated). */
export const LANGUAGE_LABEL: Record<Lang, string> = {
  hk: "繁體中文",
  en: "English",
  jp: "日本語",
  kr: "한국어",
  th: "ไทย",
  vn: "Tiếng Việt",
  fr: "Français",
  de: "Deutsch",
  ru: "Русский",
  spa: "Español",
  pt: "Português",
  ar: "العربية",
  it: "Italiano",
  tr: "Türkçe",
  id: "Bahasa Indonesia",
};

export function isLang(v: unknown): v is Lang {
  return typeof v === "string" && (LANGUAGES as readonly string[]).includes(v);
}

/** Our code for a value given by a user or a link (`tw` maps to `hk`), or null when unknown. */
export function normaliseLang(v: string | null | undefined): Lang | null {
  if (!v) return null;
  const s = v.trim().toLowerCase();
  if (s === "tw") return "hk";
  return isLang(s) ? s : null;
}

/** Our code for a BCP 47 tag from Accept-Language (ja -> jp, zh-TW -> hk, es-MX -> spa ...). */
function langFromTag(tag: string): Lang | null {
  const t = tag.trim().toLowerCase();
  if (!t || t === "*") return null;
  const primary = t.split("-")[0];
  if (primary === "zh") return "hk"; // the only Chinese we offer is traditional
  const map: Record<string, Lang> = {
    en: "en",
    ja: "jp",
    ko: "kr",
    th: "th",
    vi: "vn",
    fr: "fr",
    de: "de",
    ru: "ru",
    es: "spa",
    pt: "pt",
    ar: "ar",
    it: "it",
    tr: "tr",
    id: "id",
    in: "id",
  };
  return map[primary] ?? normaliseLang(primary);
}

/** Best supported language for an Accept-Language header value, or null. */
export function langFromAcceptLanguage(header: string | null | undefined): Lang | null {
  if (!header) return null;
  const items = header
    .split(",")
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag, quality: Number.isFinite(quality) ? quality : 0, i };
    })
    .filter((x) => x.tag && x.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.i - b.i);
  for (const item of items) {
    const l = langFromTag(item.tag);
    if (l) return l;
  }
  return null;
}

export function dirOf(lang: string): "rtl" | "ltr" {
  return lang === "ar" ? "rtl" : "ltr";
}

/** Where the browser reads one namespace of a language: the locales resource route. */
export function localeUrl(lng: string, ns: string): string {
  return `/locales/${encodeURIComponent(lng)}/${encodeURIComponent(ns)}.json`;
}

/** The namespaces a route declares in its handle (`handle.i18n`: one name or a list), as remix-i18next reads them. */
export function namespacesOf(handle: unknown): string[] {
  const ns = (handle as { i18n?: unknown } | null | undefined)?.i18n;
  if (typeof ns === "string") return [ns];
  return Array.isArray(ns) && ns.every((n) => typeof n === "string") ? ns : [];
}

/**
 * The namespaces the browser loads before it hydrates a page: "common", "auth" (small, and used by
 * several screens: loading it up front avoids a flash of keys) and those of the page's routes. The
 * page's head preloads the same files (root.tsx), so they arrive beside its scripts instead of
 * after them.
 */
export function hydrationNamespaces(routeNamespaces: readonly string[]): string[] {
  return Array.from(new Set(["common", "auth", ...routeNamespaces]));
}

export const i18nConfig = {
  supportedLngs: [...LANGUAGES] as string[],
  fallbackLng: DEFAULT_LANG,
  defaultNS: DEFAULT_NS,
  interpolation: { escapeValue: false },
};

/**
 * An i18next plugin: plural forms chosen by the language's BCP 47 tag (LANG_TAG). Our codes hk, jp,
 * kr and vn are not tags of those languages, and Intl.PluralRules would give them English rules
 * (one/other) instead of their single form. Used by every i18next instance, server and browser.
 */
export const pluralsByTag: ThirdPartyModule = {
  type: "3rdParty",
  init(instance: i18n) {
    const resolver = instance.services.pluralResolver as {
      getRule(code: string, options?: object): unknown;
    };
    const getRule = resolver.getRule.bind(resolver);
    resolver.getRule = (code, options) => getRule(isLang(code) ? LANG_TAG[code] : code, options);
  },
};
