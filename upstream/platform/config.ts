/** Upstream configuration, read once from the environment. Every variable is documented in README.md. */
import path from "node:path";

export interface UpstreamConfig {
  host: string;
  port: number;
  dataDir: string;
  /** ":memory:" or a file path; tests use a fresh temporary file. */
  dbFile: string;
  smtpUrl: string | null;
  devOutbox: boolean;
  marketAlwaysOpen: boolean;
  /** Milliseconds between simulator ticks. */
  tickMs: number;
  /** Seed of the market simulator (same seed, same history). */
  seed: number;
  operatorToken: string | null;
  tokenTtlSeconds: number;
  /** Disable rate limits (tests of the rate limiter turn them on again). */
  rateLimit: boolean;
  /** When false the simulator does not tick on its own (tests drive prices). */
  simulate: boolean;
}

function flag(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === "") return dflt;
  return v === "1" || v.toLowerCase() === "true" || v.toLowerCase() === "yes";
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<UpstreamConfig> = {}): UpstreamConfig {
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  const smtpUrl = env.SMTP_URL || null;
  const cfg: UpstreamConfig = {
    host: env.UPSTREAM_HOST || "127.0.0.1",
    port: Number(env.UPSTREAM_PORT || 4100),
    dataDir,
    dbFile: env.UPSTREAM_DB || path.join(dataDir, "upstream.sqlite"),
    smtpUrl,
    devOutbox: flag(env.DEV_OUTBOX, smtpUrl === null),
    marketAlwaysOpen: flag(env.MARKET_ALWAYS_OPEN, false),
    tickMs: Number(env.MARKET_TICK_MS || 500),
    seed: Number(env.MARKET_SEED || 20261122),
    operatorToken: env.OPERATOR_TOKEN || null,
    tokenTtlSeconds: Number(env.TOKEN_TTL_S || 30 * 24 * 3600),
    rateLimit: flag(env.RATE_LIMIT, true),
    simulate: flag(env.MARKET_SIMULATE, true),
  };
  return { ...cfg, ...overrides };
}
