/**
 * This browser's device id: a random value in a long-lived signed cookie of its own (it outlives
 * signing out, which replaces the session cookie). Sent with each sign-in, so the upstream can tell
 * a device the account has used from a new one (and tell the user of the new one).
 */
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { env, sessionSecrets } from "~/utils/env.server";

const TWO_YEARS_S = 2 * 365 * 24 * 3600;

let cookie: ReturnType<typeof createCookie> | null = null;

function deviceCookie() {
  cookie ??= createCookie(env().secureCookies ? "__Host-tp_device" : "tp_device", {
    httpOnly: true,
    sameSite: "lax",
    secure: env().secureCookies,
    path: "/",
    secrets: sessionSecrets(),
    maxAge: TWO_YEARS_S,
  });
  return cookie;
}

/** The browser's device id, and the Set-Cookie header to send when it was just made. */
export async function deviceOf(request: Request): Promise<{ id: string; setCookie?: string }> {
  const c = deviceCookie();
  const kept: unknown = await c.parse(request.headers.get("Cookie"));
  if (typeof kept === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) return { id: kept };
  const id = crypto.randomBytes(16).toString("base64url");
  return { id, setCookie: await c.serialize(id) };
}
