/**
 * Desktop visitors (product-spec.md section 1: detected by user agent) are sent to the desktop
 * site: DESKTOP_URL when it is set, else the current address with its first subdomain replaced by
 * `pc` (m.example.com -> pc.example.com). With neither (no DESKTOP_URL and a host without a
 * subdomain, a bare IP or localhost) nobody is redirected.
 *
 * A visitor may stay on the mobile site: `?view=mobile` remembers that choice in a cookie for a
 * year (the desktop site's "mobile version" link points there); `?view=desktop` forgets it.
 *
 * Only page navigations are redirected (GET or HEAD asking for HTML, no Remix data request);
 * the operator console, the event stream, assets and crawlers never are.
 */
import Bowser from "bowser";
import { isbot } from "isbot";
import type { NextFunction, Request, Response } from "express";

/** Query parameter of the visitor's choice, and its values. */
const VIEW_PARAM = "view";
const VIEW_COOKIE = "tp_view";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Paths that are never redirected: they are not the mobile site's pages. */
const KEPT_PREFIXES = ["/operator", "/live", "/build", "/locales", "/media", "/healthz"];

export interface DesktopRequest {
  method: string;
  /** Path and query as requested, e.g. /trade?code=EURUSD. */
  url: string;
  /** Host name without port, as the visitor asked for it. */
  hostname: string;
  /** Host with port, when a port was given. */
  host: string;
  protocol: string;
  userAgent: string;
  accept: string;
  /** The tp_view cookie's value, if any. */
  view: string | undefined;
}

type DesktopDecision =
  | { kind: "pass" }
  | { kind: "desktop"; location: string }
  | { kind: "remember"; view: "mobile" | "desktop"; location: string };

/** True for a desktop browser's user agent; crawlers and unknown agents are not desktops. */
export function isDesktopAgent(userAgent: string): boolean {
  if (!userAgent || isbot(userAgent)) return false;
  return Bowser.getParser(userAgent).getPlatformType(true) === "desktop";
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The desktop address of a host (first label replaced by pc), or null when it has no subdomain. */
export function desktopHost(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (IPV4.test(name) || name.includes(":")) return null;
  const labels = name.split(".");
  // example.com has no subdomain; pc.example.com is the desktop site already.
  if (labels.length < 3 || labels[0] === "pc") return null;
  return ["pc", ...labels.slice(1)].join(".");
}

/** Where a request goes, given DESKTOP_URL (absolute, without a trailing slash) or null. */
export function decideDesktop(req: DesktopRequest, desktopUrl: string | null): DesktopDecision {
  if (req.method !== "GET" && req.method !== "HEAD") return { kind: "pass" };
  const url = new URL(req.url, "http://x");
  if (KEPT_PREFIXES.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`)))
    return { kind: "pass" };
  if (url.searchParams.has("_data")) return { kind: "pass" };

  const choice = url.searchParams.get(VIEW_PARAM);
  if (choice === "mobile" || choice === "desktop") {
    url.searchParams.delete(VIEW_PARAM);
    return { kind: "remember", view: choice, location: url.pathname + url.search };
  }
  if (req.view === "mobile") return { kind: "pass" };
  if (!req.accept.includes("text/html")) return { kind: "pass" };
  if (!isDesktopAgent(req.userAgent)) return { kind: "pass" };

  const pathAndQuery = url.pathname + url.search;
  if (desktopUrl) {
    const target = new URL(desktopUrl);
    // Never a loop: a DESKTOP_URL on this very host is the mobile site itself.
    if (target.hostname.toLowerCase() === req.hostname.toLowerCase()) return { kind: "pass" };
    return { kind: "desktop", location: desktopUrl + pathAndQuery };
  }
  const host = desktopHost(req.hostname);
  if (!host) return { kind: "pass" };
  const port = req.host.match(/:(\d+)$/)?.[1];
  return {
    kind: "desktop",
    location: `${req.protocol}://${host}${port ? `:${port}` : ""}${pathAndQuery}`,
  };
}

/** Express middleware applying decideDesktop; `secure` marks the choice cookie Secure. */
export function desktopRedirect(opts: { desktopUrl: string | null; secure: boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    const decision = decideDesktop(
      {
        method: req.method,
        url: req.originalUrl,
        hostname: req.hostname ?? "",
        host: req.get("host") ?? "",
        protocol: req.protocol,
        userAgent: req.get("user-agent") ?? "",
        accept: req.get("accept") ?? "",
        view: readCookie(req.get("cookie") ?? "", VIEW_COOKIE),
      },
      opts.desktopUrl,
    );
    if (decision.kind === "pass") {
      // The answer depends on the agent only where a desktop site exists for this address.
      if (opts.desktopUrl || desktopHost(req.hostname ?? "")) res.vary("User-Agent");
      return next();
    }
    if (decision.kind === "remember") {
      const attrs = `Path=/; SameSite=Lax; HttpOnly${opts.secure ? "; Secure" : ""}`;
      res.append(
        "Set-Cookie",
        decision.view === "mobile"
          ? `${VIEW_COOKIE}=mobile; Max-Age=${ONE_YEAR_S}; ${attrs}`
          : `${VIEW_COOKIE}=; Max-Age=0; ${attrs}`,
      );
    }
    res.vary("User-Agent");
    res.setHeader("Cache-Control", "private, no-store");
    res.redirect(302, decision.location);
  };
}

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}
