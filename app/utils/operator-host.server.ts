/**
 * OPERATOR_HOST: when set, the operator console answers only on that host name, and only the console
 * does (the recommended deployment, docs/operating.md). A script injected into a user page runs on
 * the users' host and can never load a console page there; the console's cookie is bound to its own
 * host (`__Host-`). Build assets and public files are served on both hosts (they come before).
 *
 * The host is the request's `Host` header, which the proxy in front passes on (docs/deploy.md), never
 * `X-Forwarded-Host`: Express's `req.hostname` reads that header once TRUST_PROXY is set, and a
 * browser's request can carry one of its own through a proxy that does not strip it, which would
 * open the console on the users' host.
 */
import type { RequestHandler } from "express";

/** The console's paths: its pages and their data requests (/operator, /operator/..., /operator.data). */
const CONSOLE_PATH = /^\/operator(?:[/.]|$)/;

export function operatorHostGate(operatorHost: string | null): RequestHandler {
  if (!operatorHost) return (_req, _res, next) => next();
  const host = operatorHost.toLowerCase();
  return (req, res, next) => {
    const onConsoleHost = hostOf(req.headers.host) === host;
    const consolePath = CONSOLE_PATH.test(req.path);
    if (consolePath === onConsoleHost) return next();
    // The console host's root leads to the console; anything else is not there.
    if (onConsoleHost && req.path === "/") return res.redirect(302, "/operator");
    res.status(404).type("text/plain").set("Cache-Control", "no-store").send("Not found");
  };
}

/** The host name of a Host header (lower case, without its port; an IPv6 address keeps its brackets). */
export function hostOf(header: string | undefined): string {
  const h = (header ?? "").trim().toLowerCase();
  const port = /:\d*$/.exec(h);
  return port && (!h.startsWith("[") || h.lastIndexOf("]") < port.index)
    ? h.slice(0, port.index)
    : h;
}
