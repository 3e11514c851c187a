/**
 * Hydration: i18next loads this page's namespaces from /locales/{lng}/{ns}.json (served by a resource
 * route) before React hydrates, so that the first client render matches the server's HTML. The
 * page's head preloads those files (root.tsx), so the requests below find them arriving already.
 */
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import i18next, { type BackendModule } from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import {
  hydrationNamespaces,
  i18nConfig,
  localeUrl,
  normaliseLang,
  pluralsByTag,
  DEFAULT_LANG,
} from "./i18n";

/**
 * A data request the router itself aborted (a live refresh overtaken by a navigation) can surface as
 * an unhandled AbortError from inside the framework's single-fetch code. Nothing failed: the newer
 * request carries on. Such rejections are marked handled; every other error still surfaces.
 */
window.addEventListener("unhandledrejection", (ev) => {
  const r = ev.reason as { name?: unknown } | null;
  if (r && typeof r === "object" && r.name === "AbortError") ev.preventDefault();
});

/**
 * Reads /locales/{lng}/{ns}.json (the resource route). A few lines of fetch instead of
 * i18next-http-backend and its fetch polyfill: every browser the product serves has fetch, and
 * the page's JavaScript budget counts every kilobyte (decision 0011). A failed request that may
 * succeed later (network, 5xx) is retried by i18next; a missing file is not.
 */
const localesBackend: BackendModule = {
  type: "backend",
  init() {},
  read(lng, ns, done) {
    const url = localeUrl(lng, ns);
    fetch(url).then(
      (res) =>
        res.ok
          ? res.json().then(
              (data) => done(null, data),
              (err: Error) => done(err, false),
            )
          : done(new Error(`${res.status} for ${url}`), res.status >= 500),
      (err: Error) => done(err, true),
    );
  },
};

async function hydrate() {
  const lng = normaliseLang(document.documentElement.dataset.lng) ?? DEFAULT_LANG;
  await i18next
    .use(initReactI18next)
    .use(pluralsByTag)
    .use(localesBackend)
    .init({
      ...i18nConfig,
      lng,
      // Only the page's language: every locale has every key (tests/unit/web-i18n.test.ts), so the
      // English fallback would never show, and loading it would double a phone's requests.
      fallbackLng: false,
      ns: hydrationNamespaces(getInitialNamespaces()),
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate().catch((err) => console.error(err));
