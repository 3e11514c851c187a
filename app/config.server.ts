/** Web configuration read from the environment (documented in README.md). */
const DEV_SECRET = "tradepost-dev-secret-change-me";
let warned = false;

// Read through a variable: the Remix compiler replaces the literal `process.env.NODE_ENV` at build
// time, and this must be the running server's mode.
const env = process.env;

export const isProduction = env.NODE_ENV === "production";

/**
 * Whether cookies are Secure (and the session cookie __Host- prefixed): in production, unless
 * COOKIE_SECURE=0 (a deployment served over plain HTTP on a private network).
 */
export const secureCookies = env.COOKIE_SECURE ? env.COOKIE_SECURE === "1" || env.COOKIE_SECURE === "true" : isProduction;

/** Signing secrets from SESSION_SECRET (comma-separated; the first signs, all verify). */
export function sessionSecrets(): string[] {
  const raw = process.env.SESSION_SECRET ?? "";
  const secrets = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (secrets.length > 0) return secrets;
  if (!warned) {
    warned = true;
    console.warn(
      "\n*** WARNING: SESSION_SECRET is not set; sessions are signed with a public development secret. ***\n" +
        "*** Set SESSION_SECRET (comma-separated for rotation) before exposing this server.         ***\n",
    );
  }
  return [DEV_SECRET];
}

/** Base URL of the upstream API (set by server.ts when it starts the embedded upstream). */
export function upstreamUrl(): string {
  return (process.env.UPSTREAM_URL || "http://127.0.0.1:4100").replace(/\/+$/, "");
}

/** Milliseconds before an upstream call is abandoned. */
export function upstreamTimeoutMs(): number {
  const n = Number(process.env.UPSTREAM_TIMEOUT_MS || 15000);
  return Number.isFinite(n) && n > 0 ? n : 15000;
}
