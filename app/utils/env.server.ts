/**
 * The web's environment, read and validated once (zod). server.ts calls `loadEnv()` at start-up;
 * an invalid value stops it with a message naming the variable. The app's modules read the same
 * validated values through `env()`.
 *
 * Variables: PORT (3000), HOST (0.0.0.0), NODE_ENV, UPSTREAM_URL (unset: server.ts starts the
 * embedded upstream), UPSTREAM_PORT (embedded upstream's port, default PORT+100),
 * UPSTREAM_TIMEOUT_MS (15000), SESSION_SECRET (comma-separated, the first signs, all verify),
 * COOKIE_SECURE (1/true/0/false; default: on in production), TRUST_PROXY, CSP_FRAME_SRC,
 * SHUTDOWN_GRACE_MS (5000), LOCALES_DIR (locales), LIVE_FLUSH_MS, FORM_MAX_BYTES (65536).
 */
import { z } from "zod";

const DEV_SECRET = "tradepost-dev-secret-change-me";

/** An optional variable: unset and empty both mean "use the default". */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    schema.optional(),
  );

const port = z.coerce
  .number({ invalid_type_error: "must be a port number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

const positiveInt = z.coerce
  .number({ invalid_type_error: "must be a number" })
  .int("must be a whole number")
  .positive("must be positive");

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine(
    (v) => ["1", "0", "true", "false", "yes", "no"].includes(v),
    "must be 1, 0, true or false",
  )
  .transform((v) => v === "1" || v === "true" || v === "yes");

const httpUrl = z
  .string()
  .trim()
  .refine(
    (v) => /^https?:\/\/[^/\s]+/i.test(v) && URL.canParse(v),
    "must be an absolute http(s) URL",
  )
  .transform((v) => v.replace(/\/+$/, ""));

export const envSchema = z
  .object({
    NODE_ENV: optional(
      z.enum(["production", "development", "test"], {
        message: "must be production, development or test",
      }),
    ),
    PORT: optional(port),
    HOST: optional(z.string().trim().min(1)),
    UPSTREAM_URL: optional(httpUrl),
    UPSTREAM_PORT: optional(port),
    UPSTREAM_TIMEOUT_MS: optional(positiveInt),
    SESSION_SECRET: optional(z.string()),
    COOKIE_SECURE: optional(flag),
    TRUST_PROXY: optional(z.string().trim()),
    CSP_FRAME_SRC: optional(z.string()),
    SHUTDOWN_GRACE_MS: optional(
      z.coerce
        .number({ invalid_type_error: "must be a number" })
        .int("must be a whole number")
        .min(0, "must be 0 or more"),
    ),
    LOCALES_DIR: optional(z.string().trim().min(1)),
    LIVE_FLUSH_MS: optional(positiveInt),
    FORM_MAX_BYTES: optional(positiveInt),
  })
  .transform((e) => {
    const isProduction = e.NODE_ENV === "production";
    const port = e.PORT ?? 3000;
    const secrets = (e.SESSION_SECRET ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    return {
      nodeEnv: e.NODE_ENV ?? "development",
      isProduction,
      port,
      host: e.HOST ?? "0.0.0.0",
      /** Unset: server.ts starts the embedded upstream and sets it. */
      upstreamUrl: e.UPSTREAM_URL ?? null,
      upstreamPort: e.UPSTREAM_PORT ?? port + 100,
      upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS ?? 15_000,
      /** Empty when SESSION_SECRET is unset (sessionSecrets() then warns and uses a public one). */
      sessionSecrets: secrets,
      /** Secure (and __Host- prefixed) cookies: in production unless COOKIE_SECURE=0. */
      secureCookies: e.COOKIE_SECURE ?? isProduction,
      trustProxy: e.TRUST_PROXY || null,
      cspFrameSrc: (e.CSP_FRAME_SRC ?? "").split(/[ ,]+/).filter(Boolean),
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS ?? 5000,
      localesDir: e.LOCALES_DIR ?? "locales",
      liveFlushMs: e.LIVE_FLUSH_MS ?? null,
      /** Largest accepted form body (the form pipeline answers 413 above it). */
      formMaxBytes: e.FORM_MAX_BYTES ?? 64 * 1024,
    };
  });

export type Env = z.output<typeof envSchema>;

/** Thrown for an invalid environment; its message names every bad variable. */
export class EnvError extends Error {
  constructor(public readonly problems: { variable: string; message: string }[]) {
    super(
      "Invalid environment:\n" + problems.map((p) => `  ${p.variable}: ${p.message}`).join("\n"),
    );
    this.name = "EnvError";
  }
}

/** Validates an environment (process.env by default); throws EnvError naming each bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const r = envSchema.safeParse(source);
  if (r.success) return r.data;
  const seen = new Set<string>();
  const problems: { variable: string; message: string }[] = [];
  for (const i of r.error.issues) {
    const variable = String(i.path[0] ?? "environment");
    if (seen.has(variable)) continue;
    seen.add(variable);
    problems.push({
      variable,
      message: `${i.message} (got ${JSON.stringify(source[variable] ?? null)})`,
    });
  }
  throw new EnvError(problems);
}

let cached: Env | null = null;

/** Validates process.env and keeps the result; server.ts calls it before anything else. */
export function loadEnv(): Env {
  cached = parseEnv(process.env);
  return cached;
}

/**
 * The validated environment. Read on first use (tests and tools import app modules without
 * server.ts); UPSTREAM_URL is read live because server.ts sets it once the embedded upstream runs.
 */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

let warned = false;

/** Signing secrets from SESSION_SECRET; without it a public development secret, with a warning. */
export function sessionSecrets(): string[] {
  const secrets = env().sessionSecrets;
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

/** Base URL of the upstream API (server.ts sets UPSTREAM_URL when it starts the embedded one). */
export function upstreamUrl(): string {
  const live = process.env.UPSTREAM_URL;
  if (live) return parseEnv({ UPSTREAM_URL: live }).upstreamUrl ?? live;
  return env().upstreamUrl ?? "http://127.0.0.1:4100";
}

/** Milliseconds before an upstream call is abandoned. */
export function upstreamTimeoutMs(): number {
  return env().upstreamTimeoutMs;
}
