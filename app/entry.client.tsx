/**
 * Hydration: the catalog loads this page's namespaces from /locales/{lng}/{ns}.json (served by a
 * resource route) before React hydrates, so that the first client render matches the server's
 * HTML. The page preloads those files with its scripts (root.tsx), so the requests below find
 * them arriving already.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { getInitialNamespaces } from "remix-i18next/client";
import { hydrationNamespaces, normaliseLang, DEFAULT_LANG } from "./i18n";
import { Catalog, Translations, fetchBundle } from "./translation";

/**
 * A data request the router itself aborted (a live refresh overtaken by a navigation) can surface as
 * an unhandled AbortError from inside the framework's single-fetch code. Nothing failed: the newer
 * request carries on. Such rejections are marked handled; every other error still surfaces.
 */
window.addEventListener("unhandledrejection", (ev) => {
  const r = ev.reason as { name?: unknown } | null;
  if (r && typeof r === "object" && r.name === "AbortError") ev.preventDefault();
});

async function hydrate() {
  const lng = normaliseLang(document.documentElement.dataset.lng) ?? DEFAULT_LANG;
  // Only the page's language: every locale has every key (tests/unit/web-i18n.test.ts), so no
  // fallback language is loaded beside it.
  const catalog = new Catalog(lng, {}, fetchBundle);
  await catalog.load(lng, hydrationNamespaces(getInitialNamespaces()));

  startTransition(() => {
    hydrateRoot(
      document,
      <Translations catalog={catalog}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </Translations>,
    );
  });
}

hydrate().catch((err) => console.error(err));
