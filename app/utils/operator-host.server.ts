/**
 * OPERATOR_HOST: when set, the operator console answers only on that host name, and only the console
 * does (the recommended deployment, docs/operating.md). A script injected into a user page runs on
 * the users' host and can never load a console page there; the console's cookie is bound to its own
 * host (`__Host-`). Build assets and public files are served on both hosts (they come before).
 */
import type { RequestHandler } from "express";

/** The console's paths: its pages and their data requests (/operator, /operator/..., /operator.data). */
const CONSOLE_PATH = /^\/operator(?:[/.]|$)/;

export function operatorHostGate(operatorHost: string | null): RequestHandler {
  if (!operatorHost) return (_req, _res, next) => next();
  const host = operatorHost.toLowerCase();
  return (req, res, next) => {
    const onConsoleHost = req.hostname.toLowerCase() === host;
    const consolePath = CONSOLE_PATH.test(req.path);
    if (consolePath === onConsoleHost) return next();
    // The console host's root leads to the console; anything else is not there.
    if (onConsoleHost && req.path === "/") return res.redirect(302, "/operator");
    res.status(404).type("text/plain").set("Cache-Control", "no-store").send("Not found");
  };
}
