/**
 * The session: a signed, HTTP-only cookie holding the upstream token and a summary of the user.
 * No browser script ever sees the token.
 */
import { createCookieSessionStorage, redirect, type Session } from "@remix-run/node";
import { env, sessionSecrets } from "~/utils/env.server";

export interface SessionUser {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  is_demo: number;
  invite_code: string | null;
}

export interface Toast {
  type: "success" | "error" | "info";
  text: string;
}

interface SessionData {
  token: string;
  user: SessionUser;
  /** Recipient and time (ms) of the last verification code sent from this browser. */
  codeSent: { to: string; at: number };
  /**
   * A sign-in whose password was right and that waits for its second factor (/login/code): the
   * upstream's challenge, when it ends (ms), and where to go once signed in.
   */
  secondFactor: { challenge: string; expiresAt: number; from: string };
}

interface SessionFlashData {
  toast: Toast;
}

export type AppSession = Session<SessionData, SessionFlashData>;

let storage: ReturnType<typeof createCookieSessionStorage<SessionData, SessionFlashData>> | null =
  null;

/** The name of the cookie that holds a user's session. */
export function sessionCookieName(): string {
  return env().secureCookies ? "__Host-tp_session" : "tp_session";
}

export function sessionStorage() {
  if (!storage) {
    storage = createCookieSessionStorage<SessionData, SessionFlashData>({
      cookie: {
        name: sessionCookieName(),
        httpOnly: true,
        sameSite: "lax",
        secure: env().secureCookies,
        path: "/",
        secrets: sessionSecrets(),
        maxAge: 60 * 60 * 24 * 30,
      },
    });
  }
  return storage;
}

export function getSession(request: Request): Promise<AppSession> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export function commitSession(session: AppSession): Promise<string> {
  return sessionStorage().commitSession(session);
}

/** The page a request is for (path and query), as used in /login?from=... */
export function pathOf(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  const q = url.searchParams.toString();
  return url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") + (q ? `?${q}` : "");
}

/** The origin same-site paths are resolved against (never contacted). */
const LOCAL_ORIGIN = "http://tradepost.invalid";

/**
 * Only same-origin paths are followed (after login, after a language change): `to` must start with
 * one "/", hold no control characters (browsers drop tabs and newlines, so "/\t/evil.example" is
 * "//evil.example" to them; a newline cannot be sent in a header at all) and no backslashes, and
 * parse as a URL on this origin. The answer is the parsed path, query and fragment; anything else
 * is `fallback`.
 */
export function safeRedirectPath(to: string | null | undefined, fallback = "/"): string {
  if (!to || typeof to !== "string") return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\\]/.test(to)) return fallback;
  if (!to.startsWith("/") || to.startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(to, LOCAL_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== LOCAL_ORIGIN || !url.pathname.startsWith("/") || url.pathname.startsWith("//"))
    return fallback;
  return url.pathname + url.search + url.hash;
}

export function loginUrl(from: string): string {
  return `/login?from=${encodeURIComponent(from)}`;
}

interface SignedIn {
  session: AppSession;
  token: string;
  user: SessionUser;
}

export async function getSignedIn(request: Request): Promise<SignedIn | null> {
  const session = await getSession(request);
  const token = session.get("token");
  const user = session.get("user");
  if (!token || !user) return null;
  return { session, token, user };
}

/** For login-required routes: the signed-in user, or a redirect to /login?from=PATH. */
export async function requireSignedIn(request: Request): Promise<SignedIn> {
  const s = await getSignedIn(request);
  if (!s) throw redirect(loginUrl(pathOf(request)));
  return s;
}
