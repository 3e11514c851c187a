/**
 * Upstream configuration, read once from the environment and validated with zod: an invalid value
 * stops start-up with a message naming the variable. Every variable is documented in README.md.
 */
import path from "node:path";
import { z } from "zod";

export interface UpstreamConfig {
  host: string;
  port: number;
  dataDir: string;
  /** ":memory:" or a file path; tests use a fresh temporary file. */
  dbFile: string;
  smtpUrl: string | null;
  /** Sender address of code e-mails. */
  mailFrom: string;
  devOutbox: boolean;
  marketAlwaysOpen: boolean;
  /** Milliseconds between simulator ticks. */
  tickMs: number;
  /** Seed of the market simulator (same seed, same history). */
  seed: number;
  operatorToken: string | null;
  tokenTtlSeconds: number;
  /** A token unused for this long ends, whatever its lifetime. */
  tokenIdleSeconds: number;
  /** Disable rate limits (tests of the rate limiter turn them on again). */
  rateLimit: boolean;
  /** When false the simulator does not tick on its own (tests drive prices). */
  simulate: boolean;
  /** pino log level. */
  logLevel: string;
}

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

const EnvSchema = z.object({
  UPSTREAM_HOST: text(),
  UPSTREAM_PORT: int(4100, 0, 65535),
  DATA_DIR: text(),
  UPSTREAM_DB: text(),
  SMTP_URL: z.preprocess(
    unset,
    z.string().url("must be a URL such as smtp://user:pass@host:587").optional(),
  ),
  MAIL_FROM: text(),
  DEV_OUTBOX: flag(),
  MARKET_ALWAYS_OPEN: flag(),
  MARKET_TICK_MS: int(500, 10, 3_600_000),
  MARKET_SEED: int(20261122, 0, Number.MAX_SAFE_INTEGER),
  OPERATOR_TOKEN: text(),
  TOKEN_TTL_S: int(30 * 24 * 3600, 60, 10 * 365 * 24 * 3600),
  TOKEN_IDLE_S: int(7 * 24 * 3600, 60, 10 * 365 * 24 * 3600),
  RATE_LIMIT: flag(),
  MARKET_SIMULATE: flag(),
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

/** Reads and validates the environment; throws ConfigError naming each invalid variable. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<UpstreamConfig> = {},
): UpstreamConfig {
  const r = EnvSchema.safeParse(env);
  if (!r.success) {
    throw new ConfigError(
      r.error.issues.map((i) => ({
        variable: String(i.path[0] ?? "environment"),
        message: i.message,
      })),
    );
  }
  const e = r.data;
  const dataDir = path.resolve(e.DATA_DIR ?? "./data");
  const smtpUrl = e.SMTP_URL ?? null;
  const host = e.UPSTREAM_HOST ?? "127.0.0.1";
  const cfg: UpstreamConfig = {
    host,
    port: e.UPSTREAM_PORT,
    dataDir,
    dbFile: e.UPSTREAM_DB ?? path.join(dataDir, "upstream.sqlite"),
    smtpUrl,
    mailFrom: e.MAIL_FROM ?? "Tradepost <no-reply@tradepost.invalid>",
    // The outbox serves codes to anyone who can reach the upstream: on by default only on loopback.
    devOutbox: e.DEV_OUTBOX ?? (smtpUrl === null && isLoopbackHost(host)),
    marketAlwaysOpen: e.MARKET_ALWAYS_OPEN ?? false,
    tickMs: e.MARKET_TICK_MS,
    seed: e.MARKET_SEED,
    operatorToken: e.OPERATOR_TOKEN ?? null,
    tokenTtlSeconds: e.TOKEN_TTL_S,
    tokenIdleSeconds: e.TOKEN_IDLE_S,
    rateLimit: e.RATE_LIMIT ?? true,
    simulate: e.MARKET_SIMULATE ?? true,
    logLevel: e.LOG_LEVEL ?? "info",
  };
  return { ...cfg, ...overrides };
}
