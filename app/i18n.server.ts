/**
 * Server-side i18n: language detection (?lng, then the lng cookie, then Accept-Language, then en)
 * and translation with one i18next instance per language. Translations are read from
 * locales/{lang}/{ns}.json at start.
 */
import { rememberedCookie } from "~/utils/remembered-cookie.server";
import fs from "node:fs";
import path from "node:path";
import { createInstance, type i18n, type Resource } from "i18next";
import {
  DEFAULT_LANG,
  LANGUAGES,
  i18nConfig,
  langFromAcceptLanguage,
  pluralsByTag,
  normaliseLang,
  type Lang,
} from "./i18n";
import { env } from "~/utils/env.server";
import { Catalog } from "./translation";
import type { Bundle } from "./translate";

export const localeCookie = rememberedCookie("lng");

export function localesDir(): string {
  return path.resolve(env().localesDir);
}

let cached: Resource | null = null;
let cachedAt = 0;

/** Every namespace of every language, read once (re-read every 2 s outside production). */
export function loadResources(): Resource {
  if (cached && (env().isProduction || Date.now() - cachedAt < 2000)) return cached;
  const dir = localesDir();
  const resources: Resource = {};
  for (const lng of LANGUAGES) {
    resources[lng] = {};
    const lngDir = path.join(dir, lng);
    if (!fs.existsSync(lngDir)) continue;
    for (const file of fs.readdirSync(lngDir)) {
      if (!file.endsWith(".json")) continue;
      resources[lng][file.slice(0, -5)] = JSON.parse(
        fs.readFileSync(path.join(lngDir, file), "utf8"),
      );
    }
  }
  cached = resources;
  cachedAt = Date.now();
  return resources;
}

/**
 * The language of each Request object seen, detected once: the root loader, the route's loaders, the
 * upstream client (its `lang` header) and the document's render all ask for the same request.
 */
const detected = new WeakMap<Request, Promise<Lang>>();

/** The language of a request: ?lng, then the cookie, then Accept-Language, then en. */
export function detectLang(request: Request): Promise<Lang> {
  let lang = detected.get(request);
  if (!lang) {
    lang = detectUncached(request);
    detected.set(request, lang);
  }
  return lang;
}

async function detectUncached(request: Request): Promise<Lang> {
  const url = new URL(request.url);
  const fromQuery = normaliseLang(url.searchParams.get("lng"));
  if (fromQuery) return fromQuery;
  const fromCookie = normaliseLang(await localeCookie.parse(request.headers.get("Cookie")));
  if (fromCookie) return fromCookie;
  return langFromAcceptLanguage(request.headers.get("Accept-Language")) ?? DEFAULT_LANG;
}

/** The cookie value already stored, to know whether ?lng must be persisted. */
export async function cookieLang(request: Request): Promise<Lang | null> {
  return normaliseLang(await localeCookie.parse(request.headers.get("Cookie")));
}

const instances = new Map<Lang, Promise<i18n>>();

/**
 * The i18next instance of a language with every namespace loaded. In production the resources never
 * change, so one instance per language serves every request (creating and initialising one per
 * request was a large part of a page's cost); elsewhere a new one picks up edited locale files.
 * Nothing changes an instance's language after init, so sharing it between requests is safe.
 */
export function instanceFor(lng: Lang): Promise<i18n> {
  const reuse = env().isProduction;
  const known = reuse ? instances.get(lng) : undefined;
  if (known) return known;
  const resources = loadResources();
  const instance = createInstance();
  const ready = instance
    .use(pluralsByTag)
    .init({
      ...i18nConfig,
      lng,
      ns: Object.keys(resources[lng] ?? resources[DEFAULT_LANG] ?? {}),
      resources,
      initImmediate: false,
    })
    .then(() => instance);
  if (reuse) instances.set(lng, ready);
  return ready;
}

const catalogs = new Map<Lang, Catalog>();

/**
 * The catalog the screens of a language render with (app/translation.tsx): every namespace, as
 * read for the i18next instances. One per language in production, where the files never change.
 */
export function catalogFor(lng: Lang): Catalog {
  const reuse = env().isProduction;
  const known = reuse ? catalogs.get(lng) : undefined;
  if (known) return known;
  const resources = loadResources();
  const catalog = new Catalog(
    lng,
    (resources[lng] ?? resources[DEFAULT_LANG] ?? {}) as Record<string, Bundle>,
  );
  if (reuse) catalogs.set(lng, catalog);
  return catalog;
}

/** A translation function for a request (or a language) and namespaces. */
export async function getT(
  requestOrLang: Request | string,
  ns: string | string[] = ["common", "auth"],
) {
  const lng =
    typeof requestOrLang === "string"
      ? (normaliseLang(requestOrLang) ?? DEFAULT_LANG)
      : await detectLang(requestOrLang);
  return (await instanceFor(lng)).getFixedT(lng, ns as "common");
}
