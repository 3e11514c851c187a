/**
 * Translations for the screens (decision 0043): a catalog of one language's bundles, given to React
 * by <Translations>, and `useTranslation(ns)` for components, with the shape react-i18next had
 * (`{ t, i18n: { language } }`).
 *
 * On the server the catalog holds every namespace of the request's language, as the server's i18next
 * instances read them (app/i18n.server.ts). In the browser it starts with the namespaces the page
 * was rendered with (loaded before hydration, so the first render matches the server's HTML) and
 * loads a namespace the first time a screen asks for it, from /locales/{lng}/{ns}.json.
 * - The namespaces a route declares (its handle's `i18n`) are waited for: the root calls
 *   `useNamespacesReady` with those of the matched routes, so a navigation to a screen whose file is
 *   not loaded yet keeps the screen before it until the file arrives (below).
 * - A namespace a component uses without its route declaring it, or one whose file failed to load,
 *   shows its keys until it arrives, as react-i18next did.
 * A language change loads the namespaces in use first, then switches, so a screen never mixes two
 * languages.
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
  /** `lang/ns` of the files that failed to load: shown as keys, never waited for again. */
  private readonly failed = new Set<string>();
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
              this.failed.add(id);
              console.error(err);
            },
          );
          this.loading.set(id, pending);
        }
        return pending;
      }),
    ).then(() => undefined);
  }

  /**
   * What a render must wait for before it can show `namespaces` in the language shown: the load of
   * those missing (started here), or null when each is loaded or its file failed to load (a failed
   * file is never waited for again, so no later render suspends on it).
   */
  whenLoaded(namespaces: readonly string[]): Promise<void> | null {
    if (!this.fetchBundle) return null;
    const lang = this.shown;
    const have = this.bundles.get(lang) ?? {};
    const missing = namespaces.filter((ns) => !(ns in have) && !this.failed.has(`${lang}/${ns}`));
    return missing.length === 0 ? null : this.load(lang, missing);
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

/**
 * Holds the screens back until `namespaces` (those the matched routes declare) are loaded in the
 * language shown. The root calls it with its matches, so it runs in every render that changes them.
 *
 * It suspends: it throws the load's promise, and React renders again once it settles. The router's
 * state updates are transitions (Remix's RouterProvider, `v7_startTransition`), and React holds a
 * suspended transition without committing it: the screen before the navigation stays until the
 * files arrive, then the new screen appears translated. Hydration does not wait here: the browser
 * loads the page's namespaces before it hydrates (entry.client.tsx). Other updates cannot suspend
 * here: the matches, and so the namespaces asked for, change only with the router's state, and the
 * language shown changes only once its namespaces in use are loaded.
 */
export function useNamespacesReady(namespaces: readonly string[]): void {
  const waiting = useCatalog().whenLoaded(namespaces);
  if (waiting) throw waiting;
}

/** Switches the screens to `lang` (the root's loader data) once its namespaces are loaded. */
export function useChangeLanguage(lang: string): void {
  const catalog = useCatalog();
  useEffect(() => {
    void catalog.changeLanguage(lang);
  }, [catalog, lang]);
}
