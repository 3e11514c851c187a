/**
 * Translations for the screens (decision 0043): a catalog of one language's bundles, given to React
 * by <Translations>, and `useTranslation(ns)` for components, with the shape react-i18next had
 * (`{ t, i18n: { language } }`).
 *
 * On the server the catalog holds every namespace of the request's language, as the server's i18next
 * instances read them (app/i18n.server.ts). In the browser it starts with the namespaces the page
 * was rendered with (loaded before hydration, so the first render matches the server's HTML) and
 * loads a namespace the first time a screen asks for it, from /locales/{lng}/{ns}.json. Until it
 * arrives that screen shows its keys, as react-i18next did. A language change loads the namespaces in
 * use first, then switches, so a screen never mixes two languages.
 */
import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { localeUrl } from "./i18n";
import { translator, type Bundle, type TFunction } from "./translate";

export type { TFunction } from "./translate";

const DEFAULT_NS = "common";
/** A failed read of a locale file that may succeed later (network, 5xx) is tried this often more. */
const LOAD_RETRIES = 3;
const LOAD_RETRY_FIRST_MS = 400;

type Fetcher = (lang: string, ns: string) => Promise<Bundle>;

/**
 * One page's translations: the bundles loaded per language, the language shown, and a version that
 * changes whenever either changes (what React subscribes to).
 */
export class Catalog {
  private shown: string;
  private wanted: string;
  private version = 0;
  private readonly bundles = new Map<string, Record<string, Bundle>>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly inUse = new Set<string>();
  private readonly listeners = new Set<() => void>();

  /** `fetchBundle` absent: every namespace is in `bundles` already (the server). */
  constructor(
    lang: string,
    bundles: Readonly<Record<string, Bundle>>,
    private readonly fetchBundle?: Fetcher,
  ) {
    this.shown = this.wanted = lang;
    this.bundles.set(lang, { ...bundles });
    for (const ns of Object.keys(bundles)) this.inUse.add(ns);
  }

  get language(): string {
    return this.shown;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): number => this.version;

  /** The translation function of the language shown, over `namespaces` in order. */
  translator(namespaces: readonly string[]): TFunction {
    return translator(this.shown, this.bundles.get(this.shown) ?? {}, namespaces);
  }

  /** Loads what is missing of `namespaces` in `lang`; a namespace that fails stays missing. */
  load(lang: string, namespaces: readonly string[]): Promise<void> {
    for (const ns of namespaces) this.inUse.add(ns);
    const fetchBundle = this.fetchBundle;
    if (!fetchBundle) return Promise.resolve();
    const have = this.bundles.get(lang) ?? {};
    const missing = namespaces.filter((ns) => !(ns in have));
    return Promise.all(
      missing.map((ns) => {
        const id = `${lang}/${ns}`;
        let pending = this.loading.get(id);
        if (!pending) {
          pending = fetchBundle(lang, ns).then(
            (bundle) => {
              this.loading.delete(id);
              this.bundles.set(lang, { ...this.bundles.get(lang), [ns]: bundle });
              if (lang === this.shown) this.changed();
            },
            (err: unknown) => {
              this.loading.delete(id);
              console.error(err);
            },
          );
          this.loading.set(id, pending);
        }
        return pending;
      }),
    ).then(() => undefined);
  }

  /** Shows `lang` once the namespaces in use are loaded in it; the latest request wins. */
  async changeLanguage(lang: string): Promise<void> {
    if (lang === this.wanted) return;
    this.wanted = lang;
    await this.load(lang, [...this.inUse]);
    if (this.wanted !== lang || this.shown === lang) return;
    this.shown = lang;
    this.changed();
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

/** Reads a namespace's file, trying again after a failure that may pass (network, 5xx). */
export async function fetchBundle(lang: string, ns: string): Promise<Bundle> {
  const url = localeUrl(lang, ns);
  for (let attempt = 0; ; attempt++) {
    let retryable: boolean;
    let failure: Error;
    try {
      const res = await fetch(url);
      if (res.ok) return (await res.json()) as Bundle;
      retryable = res.status >= 500;
      failure = new Error(`${res.status} for ${url}`);
    } catch (err) {
      retryable = true;
      failure = err instanceof Error ? err : new Error(String(err));
    }
    if (!retryable || attempt >= LOAD_RETRIES) throw failure;
    await new Promise((resolve) => setTimeout(resolve, LOAD_RETRY_FIRST_MS * 2 ** attempt));
  }
}

const CatalogContext = createContext<Catalog | null>(null);

export function Translations({ catalog, children }: { catalog: Catalog; children: ReactNode }) {
  return <CatalogContext.Provider value={catalog}>{children}</CatalogContext.Provider>;
}

function useCatalog(): Catalog {
  const catalog = useContext(CatalogContext);
  if (!catalog) throw new Error("useTranslation needs a <Translations> catalog above it");
  return catalog;
}

/** `t` over the namespaces given (searched in order), and the language shown. */
export function useTranslation(ns: string | readonly string[] = DEFAULT_NS): {
  t: TFunction;
  i18n: { language: string };
} {
  const catalog = useCatalog();
  const version = useSyncExternalStore(catalog.subscribe, catalog.snapshot, catalog.snapshot);
  const list = typeof ns === "string" ? ns : ns.join(",");
  const lang = catalog.language;
  useEffect(() => {
    void catalog.load(lang, list.split(","));
  }, [catalog, lang, list]);
  return useMemo(
    () => ({ t: catalog.translator(list.split(",")), i18n: { language: lang } }),
    // `version` changes when a bundle arrives or the language changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [catalog, lang, list, version],
  );
}

/** Switches the screens to `lang` (the root's loader data) once its namespaces are loaded. */
export function useChangeLanguage(lang: string): void {
  const catalog = useCatalog();
  useEffect(() => {
    void catalog.changeLanguage(lang);
  }, [catalog, lang]);
}
