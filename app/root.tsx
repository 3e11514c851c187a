import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
  Link,
} from "@remix-run/react";
import {
  data,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { useChangeLanguage, useNamespacesReady, useTranslation } from "~/translation";
import type { ReactNode } from "react";
import { commitCsrfToken } from "~/utils/csrf.server";
import { markUncacheable } from "~/utils/visitor-page-cache.server";
import { cookieLang, detectLang, getT, localeCookie } from "./i18n.server";
import { HTML_LANG, dirOf, hydrationNamespaces, localeUrl, namespacesOf, type Lang } from "./i18n";
import { commitSession, getSession } from "~/utils/session.server";
import { useNonce } from "./components/nonce";
import { TabBar, FOOTER_PATHS, isTabPath } from "./components/TabBar";
import { Toasts, type ToastItem } from "./components/Toasts";
import { PolicyNotice } from "./components/PolicyNotice";
import { policyNoticeFor } from "./utils/content.server";
import { callerFor } from "./upstream/client.server";
import stylesHref from "./styles/app.css";
import { UNAVAILABLE_RETRY_S } from "~/upstream/retry";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesHref },
  { rel: "manifest", href: "/manifest.json" },
  { rel: "icon", href: "/icons/icon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.png", type: "image/png", sizes: "32x32" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

/** A page answered while the upstream is away (app/upstream/client.server.ts throws it). */
function isUnavailable(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 503;
}

export const meta: MetaFunction<typeof loader> = ({ data, error }) => [
  { title: data?.title ?? "Tradepost" },
  { name: "description", content: data?.description ?? "" },
  { name: "theme-color", content: "#0b1f3a" },
  // Without JavaScript the "unavailable" page reloads itself until the service is back.
  ...(isUnavailable(error) ? [{ httpEquiv: "refresh", content: String(UNAVAILABLE_RETRY_S) }] : []),
];

export const handle = { i18n: ["common"] };

/**
 * A page's own headers come from its loader (`data(..., { headers })`); the root passes them on and,
 * for an error page, the thrown response's (Retry-After on the "temporarily unavailable" page).
 */
export const headers: HeadersFunction = ({ errorHeaders, loaderHeaders, actionHeaders }) => {
  const out = new Headers(loaderHeaders);
  for (const [k, v] of actionHeaders) out.set(k, v);
  const retry = errorHeaders?.get("Retry-After");
  if (retry) {
    out.set("Retry-After", retry);
    out.set("Cache-Control", "no-store");
  }
  out.delete("Set-Cookie");
  return out;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const lang = await detectLang(request);
  const headers = new Headers();
  const [csrf, csrfCookie] = await commitCsrfToken(request);
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);

  const session = await getSession(request);
  const toast = session.get("toast") ?? null;
  if (toast) headers.append("Set-Cookie", await commitSession(session));

  // ?lng=xx is remembered, so that the next page keeps the language.
  const url = new URL(request.url);
  if (url.searchParams.has("lng") && (await cookieLang(request)) !== lang) {
    headers.append("Set-Cookie", await localeCookie.serialize(lang));
  }
  const t = await getT(lang, "common");
  const user = session.get("user");
  // A signed-in user's page, and one with a one-time message, are that person's own: never kept
  // for other visitors (visitor-page-cache.server.ts).
  if (session.get("token") || user || toast) markUncacheable();
  // The policy notice, once, for visitors of the product's screens (not of the operator console).
  const policyNotice =
    url.pathname === "/operator" || url.pathname.startsWith("/operator/")
      ? null
      : await policyNoticeFor(request, await callerFor(request));
  // Its button's label comes translated with it: no namespace is loaded for one word.
  const policy = policyNotice
    ? { ...policyNotice, dismiss: (await getT(lang, "content"))("policy_dismiss") }
    : null;
  return data(
    {
      lang,
      csrf,
      toast,
      signedIn: Boolean(session.get("token") && user),
      // Only the tab bar's paths that this build has (not every route path on every page).
      routePaths: (context?.routePaths ?? []).filter(isTabPath),
      policy,
      title: t("app_name"),
      description: t("app_description"),
    },
    { headers },
  );
}

/**
 * Preloads of the translations the browser loads before it hydrates the page (entry.client.tsx):
 * fetched beside the page's scripts rather than after them, which on a phone's network saves a
 * round trip before the screen answers a tap.
 */
function LocalePreloads({ lang }: { lang: string }) {
  const matches = useMatches();
  const namespaces = hydrationNamespaces(matches.flatMap((m) => namespacesOf(m.handle)));
  return namespaces.map((ns) => (
    // crossOrigin: the same request mode and credentials as the fetch() that reads it.
    <link key={ns} rel="preload" as="fetch" crossOrigin="anonymous" href={localeUrl(lang, ns)} />
  ));
}

/** The element that holds the page's scripts until the first paint (ScriptsAfterFirstPaint). */
const DEFERRED_SCRIPTS_ID = "tp-scripts";

/**
 * Runs the held classic scripts at once (the loader data, which the data streamed after the page
 * expects to find) and adds the rest (the module preloads, the module that hydrates, the
 * translations' preloads) after the first paint: two animation frames later, so that the first
 * has been presented, not only drawn. A copy (importNode) of a node held in a template is
 * live when added; the template's own nodes never are.
 */
const START_SCRIPTS = `(function(){var t=document.getElementById(${JSON.stringify(DEFERRED_SCRIPTS_ID)});if(!t)return;var f=t.content,b=document.body;f.querySelectorAll("script:not([type=module])").forEach(function(s){b.appendChild(document.importNode(s,true));s.remove()});requestAnimationFrame(function(){requestAnimationFrame(function(){b.appendChild(document.importNode(f,true))})})})()`;

/**
 * The page's scripts (Remix's: the route modules' preloads, the loader data and the entry that
 * hydrates) and the translations' preloads, asked for only after the screen has been painted.
 *
 * Every page is complete HTML whose forms and links work before any script: a phone on a slow link
 * should spend it on the page's styles first. Requested beside the styles, the page's 100–145 KiB
 * of script shared the link with them and delayed the first paint (Lighthouse's simulated slow 4G:
 * 2.0–2.1 s on /trade and /login when the scripts were asked for before the paint, 0.8–1.1 s when
 * not). The server writes them inside a <template>, where the browser neither fetches nor runs
 * them; START_SCRIPTS runs the loader data's script at once and adds the rest after the paint. In
 * the browser the template is rendered empty, as the parsed document has it (a template's parsed
 * content is not among its children), so hydration matches; the added nodes come after the body's
 * last element, which React leaves alone.
 */
function ScriptsAfterFirstPaint({ lang, nonce }: { lang: string; nonce: string | undefined }) {
  const server = typeof document === "undefined";
  return (
    <>
      <template id={DEFERRED_SCRIPTS_ID}>
        {server ? (
          <>
            <LocalePreloads lang={lang} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </template>
      <script
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: START_SCRIPTS }}
      />
    </>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const { i18n } = useTranslation();
  const nonce = useNonce();
  const lang = (rootData?.lang ?? i18n.language ?? "en") as Lang;
  return (
    <html lang={HTML_LANG[lang] ?? "en"} dir={dirOf(lang)} data-lng={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <ScriptsAfterFirstPaint lang={lang} nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { lang, csrf, toast, routePaths, policy } = useLoaderData<typeof loader>();
  useChangeLanguage(lang);
  const location = useLocation();
  const matches = useMatches();
  // A navigation shows its screen once the namespaces its routes declare are loaded.
  useNamespacesReady(hydrationNamespaces(matches.flatMap((m) => namespacesOf(m.handle))));
  const toasts: ToastItem[] = [];
  if (toast) toasts.push(toast);
  for (const m of matches) {
    const d = m.data as { toast?: ToastItem | null } | undefined;
    if (m.id !== "root" && d && typeof d === "object" && d.toast) toasts.push(d.toast);
  }
  const footer = FOOTER_PATHS.includes(location.pathname);
  // The operator console has its own navigation and a wider page on large screens.
  const consolePage =
    location.pathname === "/operator" || location.pathname.startsWith("/operator/");
  return (
    <AuthenticityTokenProvider token={csrf}>
      <div className={footer ? "app with-footer" : consolePage ? "app app-console" : "app"}>
        <Toasts items={toasts} />
        {policy ? <PolicyNotice notice={policy} /> : null}
        <main className="screen">
          <Outlet />
        </main>
        {footer ? <TabBar routePaths={routePaths} /> : null}
      </div>
    </AuthenticityTokenProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("common");
  const location = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const unavailable = isUnavailable(error);
  if (!notFound && !unavailable) console.error(error);
  const [title, text] = unavailable
    ? [t("error.unavailable_title"), t("error.unavailable_text")]
    : notFound
      ? [t("error.not_found_title"), t("error.not_found_text")]
      : [t("error.title"), t("error.text")];
  return (
    <div className="app">
      <main className="screen error-screen" data-error={unavailable ? "unavailable" : undefined}>
        <h1>{title}</h1>
        <p>{text}</p>
        {unavailable ? (
          <a href={location.pathname + location.search} className="btn btn-primary">
            {t("error.retry")}
          </a>
        ) : (
          <Link to="/" className="btn btn-primary" reloadDocument>
            {t("error.home")}
          </Link>
        )}
      </main>
    </div>
  );
}
