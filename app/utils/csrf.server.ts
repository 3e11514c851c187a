/**
 * CSRF protection of every POST form: a random token in a signed cookie (signed by the session
 * secrets) and the same token in each form's hidden `csrf` input (remix-utils'
 * AuthenticityTokenInput, fed by the root loader). A form is accepted only when both are present
 * and equal. Tokens come from node:crypto (32 random bytes, base64url).
 */
import crypto from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import { env, sessionSecrets } from "~/utils/env.server";
import { getT } from "~/i18n.server";

/** Name of the hidden input carrying the token. */
export const CSRF_FIELD = "csrf";

let cookie: Cookie | null = null;

function csrfCookie(): Cookie {
  cookie ??= createCookie(env().secureCookies ? "__Host-tp_csrf" : "tp_csrf", {
    path: "/",
    httpOnly: true,
    secure: env().secureCookies,
    sameSite: "lax",
    secrets: sessionSecrets(),
  });
  return cookie;
}

async function cookieToken(headers: Headers): Promise<string | null> {
  const v = await csrfCookie().parse(headers.get("Cookie"));
  return typeof v === "string" && v.length > 0 ? v : null;
}

/** The token for the page and, when new, the Set-Cookie value that stores it. */
export async function commitCsrfToken(request: Request): Promise<[string, string | null]> {
  const existing = await cookieToken(request.headers);
  if (existing) return [existing, null];
  const token = crypto.randomBytes(32).toString("base64url");
  return [token, await csrfCookie().serialize(token)];
}

/** Whether a posted form carries the token of the request's cookie. */
export async function csrfValid(request: Request, formData: FormData): Promise<boolean> {
  const expected = await cookieToken(request.headers);
  const posted = formData.get(CSRF_FIELD);
  if (!expected || typeof posted !== "string") return false;
  const a = Buffer.from(posted);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** Checks the CSRF token of a submitted form: null when valid, else the translated message. */
export async function checkCsrf(request: Request, formData: FormData): Promise<string | null> {
  if (await csrfValid(request, formData)) return null;
  const t = await getT(request);
  return t("common:csrf_failed");
}
