/**
 * Upstream configuration, read once from the environment and validated with zod: an invalid value
 * stops start-up with a message naming the variable. Every variable is documented in README.md.
 */
import path from "node:path";
import { z } from "zod";
import { CODE_RESEND_S, UPLOAD_MAX_BYTES as DEFAULT_UPLOAD_MAX_BYTES } from "@contract/constants";
import { OPERATOR_TOKEN_MIN_LENGTH } from "@contract/operators";
import { parseTrustProxy, TRUST_PROXY_RULE, type TrustProxy } from "@contract/trust-proxy";

export interface UpstreamConfig {
  host: string;
  port: number;
  dataDir: string;
  /** ":memory:" or a file path; tests use a fresh temporary file. Unused with databaseUrl. */
  dbFile: string;
  /** DATABASE_URL: the store on PostgreSQL (postgres://…); null: SQLite in dbFile. */
  databaseUrl: string | null;
  /** UPSTREAM_NODE_NAME: this node's name among the upstream nodes (default host:pid). */
  nodeName: string | null;
  /**
   * UPSTREAM_ADVERTISE_URL: where the other upstream nodes reach this one when it leads (default:
   * the address it listens on, right on one machine only).
   */
  advertiseUrl: string | null;
  smtpUrl: string | null;
  /** Sender address of code e-mails. */
  mailFrom: string;
  /**
   * WEB_URL: where users reach the web app (https://trade.example.com); notices link to its pages
   * (a new device's sign-in to the session list). null: notices name the page instead.
   */
  webUrl: string | null;
  /**
   * PUSH_CA_FILE: PEM certificates trusted, besides the system's, for Web Push endpoints (a push
   * relay inside the broker's network with its own CA). null: the system's only.
   */
  pushCaFile: string | null;
  /** The SMS gateway's webhook: each text is POSTed there as JSON { to, text }; null: none. */
  smsWebhookUrl: string | null;
  /** Sent to the SMS webhook as "Authorization: Bearer <token>" when set. */
  smsWebhookToken: string | null;
  /**
   * GET /dev/outbox and /dev/captcha, which serve any code and captcha answer to whoever asks.
   * Never true with NODE_ENV=production (loadConfig refuses it).
   */
  devOutbox: boolean;
  marketAlwaysOpen: boolean;
  /** Milliseconds between simulator ticks. */
  tickMs: number;
  /** Seed of the market simulator (same seed, same history). */
  seed: number;
  operatorToken: string | null;
  /** Key sealing operators' TOTP secrets (platform/secret-box.ts); null: a key file beside the db. */
  operatorSecretKey: string | null;
  tokenTtlSeconds: number;
  /** A token unused for this long ends, whatever its lifetime. */
  tokenIdleSeconds: number;
  /** Seconds between two verification codes to one recipient (the contract's minute by default). */
  codeResendSeconds: number;
  /**
   * Which proxies may name the client address in X-Forwarded-For (Fastify's trustProxy): false, true,
   * a hop count, or addresses, CIDR ranges and the names loopback, linklocal, uniquelocal. The
   * per-address limits count that address; from an untrusted peer the header is ignored.
   */
  trustProxy: boolean | number | string;
  /** Disable rate limits (tests of the rate limiter turn them on again). */
  rateLimit: boolean;
  /**
   * CHECK_ANSWERS: every answer of an endpoint the contract describes is checked against its
   * schema before it is sent, and one that drifts is answered 500 and logged with the endpoint and
   * the field (platform/http/answers.ts). On in the test harnesses; off by default (production
   * does not pay for it).
   */
  checkAnswers: boolean;
  /** Largest accepted upload (an image), bytes. */
  uploadMaxBytes: number;
  /** An upload nothing names (no deposit, no verification) is removed once older than this, s. */
  uploadOrphanGraceSeconds: number;
  /** When false the simulator does not tick on its own (tests drive prices). */
  simulate: boolean;
  /**
   * Where prices come from: "simulator" (the seeded random walk, ticking every tickMs) or "manual"
   * (the same seeded history, then prices move only when POST /dev/market/price sets them, with the
   * operator token: a market tests drive, never one that moves on its own).
   */
  marketFeed: "simulator" | "manual";
  /**
   * The strategy traders of the ranking (modules/follow): "auto" trades them while the simulator
   * ticks, "on" with any feed (tests), "off" never.
   */
  strategies: "auto" | "on" | "off";
  /** How often the strategy traders act, ms. */
  strategyIntervalMs: number;
  /**
   * The NATS server(s) carrying websocket pushes between upstream nodes (platform/ws/broker.ts):
   * one nats:// or tls:// URL or several, comma-separated; null: pushes stay in this process.
   */
  natsUrl: string | null;
  /** pino log level. */
  logLevel: string;
}

/** How long an upload nothing names is kept unless UPLOAD_ORPHAN_GRACE_S says otherwise, s. */
export const DEFAULT_UPLOAD_ORPHAN_GRACE_S = 24 * 3600;

/** An unset or empty variable: the default. */
const unset = (v: unknown) => (v === "" ? undefined : v);

/** A yes/no variable; undefined when unset (the caller's default applies). */
const flag = () =>
  z.preprocess(
    unset,
    z
      .string()
      .regex(/^(1|0|true|false|yes|no)$/i, "must be 1, 0, true, false, yes or no")
      .transform((v) => /^(1|true|yes)$/i.test(v))
      .optional(),
  );

const int = (dflt: number, min: number, max: number) =>
  z
    .preprocess(
      unset,
      z
        .string()
        .regex(/^-?\d+$/, "must be a whole number")
        .transform(Number)
        .pipe(
          z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
        )
        .optional(),
    )
    .transform((v) => v ?? dflt);

const text = () => z.preprocess(unset, z.string().optional());

/** UPSTREAM_TRUST_PROXY, read as the web reads TRUST_PROXY (contract/trust-proxy.ts). */
const trustProxy = () =>
  z.preprocess(
    unset,
    z
      .string()
      .trim()
      .transform((v, c): TrustProxy => {
        const parsed = parseTrustProxy(v);
        if (parsed !== null) return parsed;
        c.addIssue({ code: z.ZodIssueCode.custom, message: TRUST_PROXY_RULE });
        return z.NEVER;
      })
      .optional(),
  );

/** NATS_URL: one nats:// or tls:// URL, or several separated by commas (a NATS cluster). */
const natsUrl = () =>
  z.preprocess(
    unset,
    z
      .string()
      .trim()
      .refine(
        (v) =>
          v.split(",").every((u) => {
            try {
              const p = new URL(u.trim());
              return (p.protocol === "nats:" || p.protocol === "tls:") && p.hostname !== "";
            } catch {
              return false;
            }
          }),
        "must be a nats:// or tls:// URL such as nats://127.0.0.1:4222, or several separated by commas",
      )
      .optional(),
  );

const EnvSchema = z.object({
  UPSTREAM_HOST: text(),
  UPSTREAM_PORT: int(4100, 0, 65535),
  DATA_DIR: text(),
  UPSTREAM_DB: text(),
  UPSTREAM_NODE_NAME: z.preprocess(
    unset,
    z
      .string()
      .regex(/^[\w.:-]{1,64}$/, "must be 1 to 64 letters, digits, '.', ':', '_' or '-'")
      .optional(),
  ),
  UPSTREAM_ADVERTISE_URL: z.preprocess(
    unset,
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+$/i, "must be a base URL such as http://10.0.0.11:4100 (no path)")
      .optional(),
  ),
  DATABASE_URL: z.preprocess(
    unset,
    z
      .string()
      .regex(
        /^postgres(ql)?:\/\/\S+$/i,
        "must be a PostgreSQL URL such as postgres://user@host:5432/tradepost",
      )
      .optional(),
  ),
  SMTP_URL: z.preprocess(
    unset,
    z.string().url("must be a URL such as smtp://user:pass@host:587").optional(),
  ),
  MAIL_FROM: text(),
  WEB_URL: z.preprocess(unset, z.string().url().optional()),
  PUSH_CA_FILE: text(),
  SMS_WEBHOOK_URL: z.preprocess(
    unset,
    z
      .string()
      .url("must be a URL such as https://sms.example.com/send")
      .regex(/^https?:\/\//i, "must be an http or https URL")
      .optional(),
  ),
  SMS_WEBHOOK_TOKEN: text(),
  DEV_OUTBOX: flag(),
  NODE_ENV: text(),
  MARKET_ALWAYS_OPEN: flag(),
  MARKET_TICK_MS: int(500, 10, 3_600_000),
  MARKET_SEED: int(20261122, 0, Number.MAX_SAFE_INTEGER),
  // The scripts' operator secret acts as an admin: as long as a generated one (openssl rand -hex 32).
  OPERATOR_TOKEN: z.preprocess(
    unset,
    z
      .string()
      .min(
        OPERATOR_TOKEN_MIN_LENGTH,
        `must be at least ${OPERATOR_TOKEN_MIN_LENGTH} characters (e.g. openssl rand -hex 32)`,
      )
      .optional(),
  ),
  OPERATOR_SECRET_KEY: z.preprocess(
    unset,
    z
      .string()
      .regex(
        /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/,
        "must be 32 bytes: 64 hex digits or base64",
      )
      .optional(),
  ),
  CODE_RESEND_S: int(CODE_RESEND_S, 1, CODE_RESEND_S),
  TOKEN_TTL_S: int(30 * 24 * 3600, 60, 10 * 365 * 24 * 3600),
  TOKEN_IDLE_S: int(7 * 24 * 3600, 60, 10 * 365 * 24 * 3600),
  RATE_LIMIT: flag(),
  CHECK_ANSWERS: flag(),
  UPLOAD_MAX_BYTES: int(DEFAULT_UPLOAD_MAX_BYTES, 1024, 50 * 1024 * 1024),
  // At least an hour: a user filling in the form after uploading must not lose the image.
  UPLOAD_ORPHAN_GRACE_S: int(DEFAULT_UPLOAD_ORPHAN_GRACE_S, 3600, 365 * 24 * 3600),
  UPSTREAM_TRUST_PROXY: trustProxy(),
  MARKET_SIMULATE: flag(),
  MARKET_FEED: z.preprocess(unset, z.enum(["simulator", "manual"]).optional()),
  STRATEGIES: z.preprocess(unset, z.enum(["auto", "on", "off"]).optional()),
  STRATEGY_INTERVAL_MS: int(15_000, 100, 3_600_000),
  NATS_URL: natsUrl(),
  LOG_LEVEL: z.preprocess(
    unset,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  ),
});

/** An invalid environment: the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      `Invalid upstream configuration: ${problems.map((p) => `${p.variable} ${p.message}`).join("; ")}`,
    );
    this.name = "ConfigError";
  }
}

/** Whether the upstream listens on the loopback interface alone (unreachable from other machines). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Where the store is, from the variables that name it (DATA_DIR, UPSTREAM_DB, DATABASE_URL). */
function storeVars(
  e: Pick<z.infer<typeof EnvSchema>, "DATA_DIR" | "UPSTREAM_DB" | "DATABASE_URL">,
) {
  const dataDir = path.resolve(e.DATA_DIR ?? "./data");
  return {
    dataDir,
    dbFile: e.UPSTREAM_DB ?? path.join(dataDir, "upstream.sqlite"),
    databaseUrl: e.DATABASE_URL ?? null,
  };
}

/** The variables that name the store, validated as loadConfig validates them. */
const StoreEnvSchema = EnvSchema.pick({ DATA_DIR: true, UPSTREAM_DB: true, DATABASE_URL: true });

/** Throws ConfigError naming each variable of a failed parse. */
function refused(error: z.ZodError): never {
  throw new ConfigError(
    error.issues.map((i) => ({
      variable: String(i.path[0] ?? "environment"),
      message: i.message,
    })),
  );
}

/**
 * The store the environment names (storeOf), reading only DATA_DIR, UPSTREAM_DB and DATABASE_URL:
 * for tools that read the store and nothing else (`npm run ledger:check`), which need none of the
 * upstream's other settings (not even OPERATOR_SECRET_KEY on PostgreSQL).
 */
export function loadStoreOf(env: NodeJS.ProcessEnv = process.env): string {
  const r = StoreEnvSchema.safeParse(env);
  if (!r.success) refused(r.error);
  return storeOf(storeVars(r.data));
}

/** Reads and validates the environment; throws ConfigError naming each invalid variable. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<UpstreamConfig> = {},
): UpstreamConfig {
  const r = EnvSchema.safeParse(env);
  if (!r.success) refused(r.error);
  const e = r.data;
  const production = e.NODE_ENV === "production";
  const { dataDir, dbFile, databaseUrl } = storeVars(e);
  const smtpUrl = e.SMTP_URL ?? null;
  const host = e.UPSTREAM_HOST ?? "127.0.0.1";
  const cfg: UpstreamConfig = {
    host,
    port: e.UPSTREAM_PORT,
    dataDir,
    dbFile,
    databaseUrl,
    nodeName: e.UPSTREAM_NODE_NAME ?? null,
    advertiseUrl: e.UPSTREAM_ADVERTISE_URL ?? null,
    smtpUrl,
    mailFrom: e.MAIL_FROM ?? "Tradepost <no-reply@tradepost.invalid>",
    webUrl: e.WEB_URL ? e.WEB_URL.replace(/\/+$/, "") : null,
    pushCaFile: e.PUSH_CA_FILE ?? null,
    smsWebhookUrl: e.SMS_WEBHOOK_URL ?? null,
    smsWebhookToken: e.SMS_WEBHOOK_TOKEN ?? null,
    // The outbox serves codes to anyone who can reach the upstream: on by default only in
    // development on loopback, never in production.
    devOutbox: e.DEV_OUTBOX ?? (!production && smtpUrl === null && isLoopbackHost(host)),
    marketAlwaysOpen: e.MARKET_ALWAYS_OPEN ?? false,
    tickMs: e.MARKET_TICK_MS,
    seed: e.MARKET_SEED,
    operatorToken: e.OPERATOR_TOKEN ?? null,
    operatorSecretKey: e.OPERATOR_SECRET_KEY ?? null,
    codeResendSeconds: e.CODE_RESEND_S,
    tokenTtlSeconds: e.TOKEN_TTL_S,
    tokenIdleSeconds: e.TOKEN_IDLE_S,
    // The web embeds the upstream on loopback and forwards the client address (server.ts).
    trustProxy: e.UPSTREAM_TRUST_PROXY ?? "loopback",
    rateLimit: e.RATE_LIMIT ?? true,
    checkAnswers: e.CHECK_ANSWERS ?? false,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadOrphanGraceSeconds: e.UPLOAD_ORPHAN_GRACE_S,
    simulate: e.MARKET_SIMULATE ?? true,
    marketFeed: e.MARKET_FEED ?? "simulator",
    strategies: e.STRATEGIES ?? "auto",
    strategyIntervalMs: e.STRATEGY_INTERVAL_MS,
    natsUrl: e.NATS_URL ?? null,
    logLevel: e.LOG_LEVEL ?? "info",
  };
  const config = { ...cfg, ...overrides };
  if (production && config.devOutbox)
    throw new ConfigError([{ variable: "DEV_OUTBOX", message: DEV_OUTBOX_IN_PRODUCTION }]);
  return config;
}

export const DEV_OUTBOX_IN_PRODUCTION =
  "cannot be on with NODE_ENV=production: it serves every verification code to whoever asks. " +
  "Deliver codes with SMTP_URL and SMS_WEBHOOK_URL (README), or run in development (npm run dev)";

export const SECRET_KEY_WITH_POSTGRES =
  "must be set with DATABASE_URL: every upstream node must seal and open operators' secrets with the " +
  "same key, and a key generated on one node's disk is not on the others (README, docs/deploy.md)";

/**
 * The configuration of what seals or opens operators' secrets (an upstream node, the operator
 * command): with DATABASE_URL it must name OPERATOR_SECRET_KEY. The ledger check and the
 * migrations read no secret and do not ask for it.
 */
export function requireSecretKeyWithPostgres(c: UpstreamConfig): UpstreamConfig {
  if (c.databaseUrl !== null && c.operatorSecretKey === null)
    throw new ConfigError([{ variable: "OPERATOR_SECRET_KEY", message: SECRET_KEY_WITH_POSTGRES }]);
  return c;
}

/** The store of the configuration: its PostgreSQL URL, or its SQLite file. */
export function storeOf(c: Pick<UpstreamConfig, "dbFile" | "databaseUrl">): string {
  return c.databaseUrl ?? c.dbFile;
}

/** The store for messages: a PostgreSQL URL without its password. */
export function redactedStore(where: string): string {
  return where.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/i, "$1:***@");
}

/** Where the generated key of platform/secret-box.ts lives: beside the database file. */
export function secretKeyDir(c: Pick<UpstreamConfig, "dbFile" | "dataDir">): string {
  return c.dbFile === ":memory:" ? c.dataDir : path.dirname(path.resolve(c.dbFile));
}
