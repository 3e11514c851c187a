/**
 * The translation function the screens render with, on the server and in the browser: it reads the
 * same locale files as the server's i18next instances (locales/{lang}/{ns}.json, i18next's JSON v4
 * format) and resolves a key as i18next does for every feature those files use:
 *
 * - `ns:key` names the namespace; otherwise the namespaces given are searched in order; a list of
 *   keys is tried in order;
 * - `a.b` walks nested objects;
 * - a numeric `count` picks the plural form of the language's BCP 47 tag (`key_one`, `key_few` …),
 *   `key_zero` first when the count is 0, and the bare key last;
 * - `{{name}}` takes the option of that name as text; a name given as undefined or null gives "",
 *   a name not given at all stays as written;
 * - a key found nowhere gives its `defaultValue` (interpolated) or the key itself.
 *
 * Not supported, and absent from the locale files (tests/unit/web-translate.test.tsx holds both):
 * nesting ($t(…)), formatters ({{x, number}}), context, ordinals, objects as results. The same test
 * checks every key of every language against i18next with the same options.
 *
 * Why not i18next in the browser: i18next with react-i18next is 18 KiB of gzip on every page, an
 * eighth of what a phone downloads before the first tap (decision 0043); this is under 1 KiB.
 */
import { LANG_TAG, type Lang } from "@contract/constants";

/** One namespace's strings, as its JSON file holds them. */
export type Bundle = { readonly [key: string]: string | Bundle };

/** Interpolation values, `count` for plurals, `defaultValue` for a key that may be missing. */
export type TOptions = Readonly<Record<string, unknown>> & {
  count?: number;
  defaultValue?: string;
};

/** A key, or keys tried in order (the first found wins). */
export type TFunction = (key: string | readonly string[], options?: TOptions) => string;

const NS_SEPARATOR = ":";
const KEY_SEPARATOR = ".";
const PLACEHOLDER = /\{\{(.+?)\}\}/g;

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

const rulesByTag = new Map<string, Intl.PluralRules>();

/** The plural category of a count in a language (our codes hk, jp, kr, vn are not BCP 47 tags). */
export function pluralCategory(lang: string, count: number): Intl.LDMLPluralRule {
  const tag = (LANG_TAG as Record<string, string | undefined>)[lang] ?? lang;
  let rules = rulesByTag.get(tag);
  if (!rules) {
    rules = new Intl.PluralRules(tag);
    rulesByTag.set(tag, rules);
  }
  return rules.select(count);
}

function find(bundle: Bundle | undefined, key: string): string | undefined {
  let node: string | Bundle | undefined = bundle;
  for (const part of key.split(KEY_SEPARATOR)) {
    if (node === undefined || typeof node === "string") return undefined;
    node = own(node, part) ? node[part] : undefined;
  }
  return typeof node === "string" ? node : undefined;
}

/** The keys tried for one lookup, most specific first. */
function candidates(lang: string, key: string, count: unknown): string[] {
  if (count === undefined || typeof count === "string") return [key];
  const form = `${key}_${pluralCategory(lang, Number(count))}`;
  return count === 0 ? [`${key}_zero`, form, key] : [form, key];
}

/** `{{name}}` replaced by the option of that name; values are text and are not scanned again. */
export function interpolate(text: string, options: TOptions | undefined): string {
  if (!options || !text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (whole, raw: string) => {
    const name = raw.trim();
    if (!own(options, name)) return whole;
    const value = options[name];
    return value === undefined || value === null ? "" : String(value);
  });
}

/**
 * A translation function for a language, over the bundles loaded for it, searching `namespaces`
 * in order when a key names none. A bundle not loaded (yet) is searched as empty.
 */
export function translator(
  lang: Lang | string,
  bundles: Readonly<Record<string, Bundle | undefined>>,
  namespaces: readonly string[],
): TFunction {
  const lookup = (fullKey: string, options: TOptions | undefined): string | undefined => {
    const split = fullKey.indexOf(NS_SEPARATOR);
    const key = split < 0 ? fullKey : fullKey.slice(split + 1);
    const searched = split < 0 ? namespaces : [fullKey.slice(0, split)];
    const tried = candidates(lang, key, options?.count);
    for (const ns of searched)
      for (const k of tried) {
        const found = find(bundles[ns], k);
        if (found !== undefined) return found;
      }
    return undefined;
  };
  return (keys, options) => {
    const list = typeof keys === "string" ? [keys] : keys;
    for (const k of list) {
      const found = lookup(k, options);
      if (found !== undefined) return interpolate(found, options);
    }
    const fallback = options?.defaultValue;
    if (typeof fallback === "string") return interpolate(fallback, options);
    const last = list[list.length - 1] ?? "";
    return last.slice(last.indexOf(NS_SEPARATOR) + 1);
  };
}
