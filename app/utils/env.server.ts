/**
 * The web's environment, read and validated once (zod). server.ts calls `loadEnv()` at start-up;
 * an invalid value stops it with a message naming the variable. The app's modules read the same
 * validated values through `env()`.
 *
 * Variables: PORT (3000), HOST (0.0.0.0), NODE_ENV, UPSTREAM_URL (unset: server.ts starts the
 * embedded upstream; one base URL, or several upstream nodes' URLs separated by commas: HTTP calls
 * go to the one that last answered and move on to the next when a connection fails (app/upstream/
 * failover.ts), the live bridge's websockets take the next in turn when they drop), UPSTREAM_PORT
 * (embedded upstream's port, default PORT+100), UPSTREAM_TIMEOUT_MS (15000, each attempt),
 * SESSION_SECRET (comma-separated, the first signs, all verify; each at least 32 bytes; unset: a
 * random secret generated once and kept in DATA_DIR/session-secret, not allowed with DATABASE_URL),
 * DATABASE_URL (postgres://…: cluster mode, several web nodes sharing state in that PostgreSQL
 * database: sign-outs the upstream has not confirmed yet are kept in its table
 * web_pending_signouts instead of DATA_DIR; SESSION_SECRET must then be set, the same on every
 * node, since a secret generated per node would make a session signed on one node invalid on
 * another), DATA_DIR (./data, the same folder the embedded upstream keeps its store in),
 * COOKIE_SECURE (1/true/0/false; default: on in production), TRUST_PROXY, CSP_FRAME_SRC,
 * SHUTDOWN_GRACE_MS (5000), LOCALES_DIR (locales), LIVE_FLUSH_MS, FORM_MAX_BYTES (65536),
 * DESKTOP_URL (the desktop site for desktop visitors; unset: the host with its first subdomain
 * replaced by pc, when it has one), OPERATOR_HOST (the console's own host name; unset: the console
 * shares the users' host), MARKET_CACHE_MS (1000), PAGE_CACHE_MS (MARKET_CACHE_MS),
 * CHAT_FRAME_CACHE_MS (5000), CHECK_ANSWERS (check
 * every upstream answer against the contract; default: on when UPSTREAM_URL is set).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseTrustProxy, TRUST_PROXY_RULE, type TrustProxy } from "@contract/trust-proxy";
import { CHAT_FRAME_CACHE_MS } from "./chat-frame.server";
import { splitUpstreamUrls, UpstreamPool } from "../upstream/failover";

/** Shortest accepted signing secret, in bytes (UTF-8). */
const MIN_SECRET_BYTES = 32;

/** File in DATA_DIR holding the generated signing secret when SESSION_SECRET is unset. */
const SESSION_SECRET_FILE = "session-secret";

const splitSecrets = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

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

const nonNegativeInt = z.coerce
  .number({ invalid_type_error: "must be a number" })
  .int("must be a whole number")
  .min(0, "must be 0 or more");

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

/** UPSTREAM_URL: one absolute http(s) URL or several separated by commas, in the order tried. */
const httpUrlList = z.string().transform((v, ctx) => {
  const urls = splitUpstreamUrls(v);
  const bad = urls.find((u) => !httpUrl.safeParse(u).success);
  if (urls.length === 0 || bad !== undefined) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: "must be an absolute http(s) URL, or several separated by commas",
    });
    return z.NEVER;
  }
  return urls;
});

/** DATABASE_URL: a PostgreSQL connection URL (never echoed back: it may hold a password). */
const postgresUrl = z
  .string()
  .trim()
  .refine(
    (v) => /^postgres(ql)?:\/\//i.test(v) && URL.canParse(v),
    "must be a PostgreSQL URL such as postgres://user:password@host:5432/database",
  );

const envSchema = z
  .object({
    NODE_ENV: optional(
      z.enum(["production", "development", "test"], {
        message: "must be production, development or test",
      }),
    ),
    PORT: optional(port),
    HOST: optional(z.string().trim().min(1)),
    UPSTREAM_URL: optional(httpUrlList),
    UPSTREAM_PORT: optional(port),
    UPSTREAM_TIMEOUT_MS: optional(positiveInt),
    SESSION_SECRET: optional(
      z.string().superRefine((v, ctx) => {
        const secrets = splitSecrets(v);
        if (secrets.length === 0) return;
        secrets.forEach((secret, i) => {
          const bytes = Buffer.byteLength(secret, "utf8");
          if (bytes < MIN_SECRET_BYTES)
            ctx.addIssue({
              code: z.ZodIssueCode.custom,
              message:
                `secret ${i + 1} of ${secrets.length} is ${bytes} bytes; each must be at least ` +
                `${MIN_SECRET_BYTES} bytes (e.g. \`openssl rand -base64 48\`), or leave ` +
                `SESSION_SECRET unset to have one generated in DATA_DIR`,
            });
        });
      }),
    ),
    DATABASE_URL: optional(postgresUrl),
    DATA_DIR: optional(z.string().trim().min(1)),
    COOKIE_SECURE: optional(flag),
    CHECK_ANSWERS: optional(flag),
    // As the upstream reads UPSTREAM_TRUST_PROXY: hops as a number, never as an address list.
    TRUST_PROXY: optional(
      z
        .string()
        .trim()
        .transform((v, c): TrustProxy => {
          const parsed = parseTrustProxy(v);
          if (parsed !== null) return parsed;
          c.addIssue({ code: z.ZodIssueCode.custom, message: TRUST_PROXY_RULE });
          return z.NEVER;
        }),
    ),
    CSP_FRAME_SRC: optional(z.string()),
    SHUTDOWN_GRACE_MS: optional(
      z.coerce
        .number({ invalid_type_error: "must be a number" })
        .int("must be a whole number")
        .min(0, "must be 0 or more"),
    ),
    LOCALES_DIR: optional(z.string().trim().min(1)),
    LIVE_FLUSH_MS: optional(positiveInt),
    LIVE_MAX_PER_SESSION: optional(nonNegativeInt),
    LIVE_MAX_PER_IP: optional(nonNegativeInt),
    LIVE_MAX_BUFFER_BYTES: optional(positiveInt),
    LIVE_REVALIDATE_MS: optional(positiveInt),
    FORM_MAX_BYTES: optional(positiveInt),
    DESKTOP_URL: optional(httpUrl),
    OPERATOR_HOST: optional(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(
          /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/,
          "must be a host name such as console.example.com",
        ),
    ),
    MARKET_CACHE_MS: optional(nonNegativeInt),
    PAGE_CACHE_MS: optional(nonNegativeInt),
    CHAT_FRAME_CACHE_MS: optional(nonNegativeInt),
  })
  .superRefine((e, ctx) => {
    // Several web nodes share one database: each must verify what the others signed.
    if (e.DATABASE_URL && splitSecrets(e.SESSION_SECRET ?? "").length === 0)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["SESSION_SECRET"],
        message:
          "must be set when DATABASE_URL is set (several web nodes): give every node the same " +
          "secret (e.g. `openssl rand -base64 48`); a secret generated per node would make a " +
          "session signed on one node invalid on another",
      });
  })
  .transform((e) => {
    const isProduction = e.NODE_ENV === "production";
    const port = e.PORT ?? 3000;
    const secrets = splitSecrets(e.SESSION_SECRET ?? "");
    return {
      nodeEnv: e.NODE_ENV ?? "development",
      isProduction,
      port,
      host: e.HOST ?? "0.0.0.0",
      /** Unset: server.ts starts the embedded upstream and sets it. The first of upstreamUrls. */
      upstreamUrl: e.UPSTREAM_URL?.[0] ?? null,
      /** Every upstream node's base URL, in the order tried (empty when UPSTREAM_URL is unset). */
      upstreamUrls: e.UPSTREAM_URL ?? [],
      /**
       * Every answer of a described endpoint is checked against the contract's schema before a
       * page reads it (app/upstream/client.server.ts): on by default for a back end the web did not
       * start (UPSTREAM_URL set), off for the embedded upstream (server.ts sets 0 when it starts it).
       */
      checkAnswers: e.CHECK_ANSWERS ?? e.UPSTREAM_URL !== undefined,
      upstreamPort: e.UPSTREAM_PORT ?? port + 100,
      upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS ?? 15_000,
      /** Empty when SESSION_SECRET is unset (sessionSecrets() then uses the one kept in DATA_DIR). */
      sessionSecrets: secrets,
      /** Cluster mode's shared PostgreSQL database (null: one web node, state in DATA_DIR). */
      databaseUrl: e.DATABASE_URL ?? null,
      /** Absolute; also where the embedded upstream keeps its store. */
      dataDir: path.resolve(e.DATA_DIR ?? "./data"),
      /** Secure (and __Host- prefixed) cookies: in production unless COOKIE_SECURE=0. */
      secureCookies: e.COOKIE_SECURE ?? isProduction,
      /** Express's `trust proxy`: unset trusts no proxy (req.ip is the peer's address). */
      trustProxy: e.TRUST_PROXY ?? false,
      cspFrameSrc: (e.CSP_FRAME_SRC ?? "").split(/[ ,]+/).filter(Boolean),
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS ?? 5000,
      localesDir: e.LOCALES_DIR ?? "locales",
      liveFlushMs: e.LIVE_FLUSH_MS ?? null,
      /** Open event streams one session may hold (0: no limit); more answer 429. */
      liveMaxPerSession: e.LIVE_MAX_PER_SESSION ?? 6,
      /** Open event streams one client address may hold (0: no limit); more answer 429. */
      liveMaxPerIp: e.LIVE_MAX_PER_IP ?? 200,
      /** Bytes a stream may have queued unread before it is dropped (its browser reconnects). */
      liveMaxBufferBytes: e.LIVE_MAX_BUFFER_BYTES ?? 1024 * 1024,
      /** How often the token behind each private stream is confirmed with the upstream. */
      liveRevalidateMs: e.LIVE_REVALIDATE_MS ?? 60_000,
      /** Largest accepted form body (the form pipeline answers 413 above it). */
      formMaxBytes: e.FORM_MAX_BYTES ?? 64 * 1024,
      /** Where desktop visitors are sent; null: derived from the host (app/utils/desktop.server.ts). */
      desktopUrl: e.DESKTOP_URL ?? null,
      /** The console's own host name; null: the console shares the users' host. */
      operatorHost: e.OPERATOR_HOST ?? null,
      /**
       * How long the upstream's public market answers (categories, instrument list, candles,
       * sparklines) are shared by every visitor's page; 0: each page asks the upstream.
       */
      marketCacheMs: e.MARKET_CACHE_MS ?? 1000,
      /**
       * How long a signed-out visitor's home and trade pages are kept and served to every visitor
       * with the same address, cookies and language (visitor-page-cache.server.ts); as long as the
       * market's answers they are made of, unless set; 0: every page is rendered.
       */
      pageCacheMs: e.PAGE_CACHE_MS ?? e.MARKET_CACHE_MS ?? 1000,
      /**
       * How long the support chat's framed origin (the CSP's frame-src, from the upstream's public
       * settings) is reused before it is read again; an operator's change shows within this time.
       */
      chatFrameCacheMs: e.CHAT_FRAME_CACHE_MS ?? CHAT_FRAME_CACHE_MS,
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
      // A secret (or a URL that may hold a password) is never echoed back.
      message:
        variable === "SESSION_SECRET" || variable === "DATABASE_URL"
          ? i.message
          : `${i.message} (got ${JSON.stringify(source[variable] ?? null)})`,
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

/**
 * The signing secret kept in `dataDir` (file session-secret, mode 600): read when it exists, else
 * 32 random bytes generated and written once (`created`). A file too short to be a secret is refused.
 */
export function loadOrCreateSessionSecret(dataDir: string): {
  secret: string;
  file: string;
  created: boolean;
} {
  const file = path.join(dataDir, SESSION_SECRET_FILE);
  let created = false;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      // "wx": of two processes starting together, the first one's secret is kept.
      fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url") + "\n", {
        mode: 0o600,
        flag: "wx",
      });
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (Buffer.byteLength(secret, "utf8") < MIN_SECRET_BYTES)
    throw new Error(
      `${file} holds no usable session secret (under ${MIN_SECRET_BYTES} bytes); remove it to have a new one generated`,
    );
  return { secret, file, created };
}

let kept: string | null = null;

/** Signing secrets: SESSION_SECRET's, else the one kept in DATA_DIR (generated on first use). */
export function sessionSecrets(): string[] {
  const secrets = env().sessionSecrets;
  if (secrets.length > 0) return secrets;
  if (kept === null) {
    const r = loadOrCreateSessionSecret(env().dataDir);
    if (r.created)
      console.warn(`SESSION_SECRET is not set: generated a session secret in ${r.file}`);
    kept = r.secret;
  }
  return [kept];
}

const DEFAULT_UPSTREAM_URL = "http://127.0.0.1:4100";

/**
 * Every upstream node's base URL, in the order tried. Read live from UPSTREAM_URL (server.ts sets
 * it when it starts the embedded upstream).
 */
export function upstreamUrls(): string[] {
  const live = splitUpstreamUrls(process.env.UPSTREAM_URL ?? "");
  if (live.length > 0) return live;
  const configured = env().upstreamUrls;
  return configured.length > 0 ? configured : [DEFAULT_UPSTREAM_URL];
}

let pool: { key: string; pool: UpstreamPool } | null = null;

/** The process's upstream pool over upstreamUrls(): which URL calls go to, and the failover. */
export function upstreamPool(): UpstreamPool {
  const urls = upstreamUrls();
  const key = urls.join(",");
  if (pool?.key !== key) pool = { key, pool: new UpstreamPool(urls) };
  return pool.pool;
}

/** Base URL of the upstream node calls go to now (the one that last answered). */
export function upstreamUrl(): string {
  return upstreamPool().url;
}

/** Milliseconds before an upstream call is abandoned. */
export function upstreamTimeoutMs(): number {
  return env().upstreamTimeoutMs;
}
