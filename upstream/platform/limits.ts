/**
 * Abuse limits: the one mechanism behind every per-address and per-account cap (sign-in,
 * registration, code sending and checking, demo accounts, captcha images, order submission).
 *
 * Each limit allows `points` uses of one subject (an account, a client address, a recipient) within
 * a fixed window of `durationS` seconds that starts at the subject's first use; a limit with
 * `blockS` then refuses that subject for `blockS` seconds. A use is counted before the guarded work
 * runs (one atomic upsert), so parallel requests cannot pass a limit; the caller may refund it
 * afterwards (for instance when a sign-in succeeds).
 *
 * Limits whose windows last minutes or more keep their counters in the upstream's own store (table
 * rate_limits, through rate-limiter-flexible's RateLimiterSQLite), so a restart does not reset them;
 * the per-second order limits count in memory (a restart lasts longer than their window, and a
 * write with synchronous=FULL on every order would halve the engine's throughput). See
 * docs/decisions/0006-abuse-limits.md.
 *
 * Figures: the defaults below, each overridable by the setting `limit.<name>` = "POINTS/SECONDS" or
 * "POINTS/SECONDS/BLOCK_SECONDS" (read on each use; an invalid value keeps the default). RATE_LIMIT=0
 * switches every limit off.
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import net from "node:net";
import type pino from "pino";
import type { DB } from "./db.js";
import { RateLimitedError } from "./errors.js";
import { purgeExpiredLimits, storedRateLimiter } from "./limits-store.js";
import { getSetting } from "./settings.js";

export interface LimitSpec {
  /** Uses allowed within the window. */
  points: number;
  /** Length of the window in seconds. */
  durationS: number;
  /** Once the points are spent, the subject is refused this long (seconds); 0: until the window ends. */
  blockS: number;
}

interface LimitDef extends LimitSpec {
  store: "db" | "memory";
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;

/** Every limit with its default figures (documented in README.md and upstream/API.md). */
export const LIMITS = {
  /** Sign-in tries of one account from one client address; a success clears them. */
  login_account_ip: { points: 5, durationS: 15 * MINUTE, blockS: 15 * MINUTE, store: "db" },
  /** Failed sign-ins of one account from any address (a success refunds its try). */
  login_account: { points: 50, durationS: DAY, blockS: 0, store: "db" },
  /** Failed sign-ins from one client address, any account (a success refunds its try). */
  login_ip: { points: 30, durationS: HOUR, blockS: 0, store: "db" },
  /**
   * Wrong second-factor codes of one account (sign-in, turning it off, backup codes, withdrawals);
   * a right code gives the try back.
   */
  two_factor_user: { points: 5, durationS: 15 * MINUTE, blockS: 15 * MINUTE, store: "db" },
  /** Registration requests from one client address. */
  register_ip: { points: 20, durationS: HOUR, blockS: 0, store: "db" },
  /** Codes sent to one recipient (besides the 60 s wait between two codes). */
  code_send_recipient: { points: 10, durationS: DAY, blockS: 0, store: "db" },
  /** Code requests from one client address. */
  code_send_ip: { points: 30, durationS: HOUR, blockS: 0, store: "db" },
  /** Wrong codes entered for one recipient, whatever the number of codes sent. */
  code_check_recipient: { points: 10, durationS: DAY, blockS: 0, store: "db" },
  /** Demo accounts created from one client address. */
  demo_ip: { points: 10, durationS: HOUR, blockS: 0, store: "db" },
  /** Operator sign-in tries of one operator name; a success clears them. */
  operator_login: { points: 5, durationS: 15 * MINUTE, blockS: 15 * MINUTE, store: "db" },
  /** Operator sign-in tries from one client address; a success gives its try back. */
  operator_login_ip: { points: 20, durationS: HOUR, blockS: HOUR, store: "db" },
  /** Images uploaded by one account (each is decoded and re-encoded). */
  upload_account: { points: 30, durationS: HOUR, blockS: 0, store: "db" },
  /** Captcha images requested from one client address. */
  captcha_ip: { points: 60, durationS: 10 * MINUTE, blockS: 0, store: "db" },
  /** Feedback messages sent from one client address. */
  feedback_ip: { points: 10, durationS: HOUR, blockS: 0, store: "db" },
  /** Copies started by one account (each opens an account and joins every provider fill). */
  copy_start: { points: 10, durationS: HOUR, blockS: 0, store: "db" },
  /** Orders submitted by one account within a second (the burst). */
  order_second: { points: 10, durationS: 1, blockS: 0, store: "memory" },
  /** Orders submitted by one account within a minute (the sustained rate, 2 a second). */
  order_minute: { points: 120, durationS: MINUTE, blockS: 0, store: "memory" },
} as const satisfies Record<string, LimitDef>;

export type LimitName = keyof typeof LIMITS;

export const LIMIT_NAMES = Object.keys(LIMITS) as LimitName[];

/** The setting that overrides a limit's figures. */
export const limitSettingKey = (name: LimitName) => `limit.${name}`;

/** Parses "POINTS/SECONDS" or "POINTS/SECONDS/BLOCK_SECONDS"; null when invalid. */
export function parseLimitSpec(v: string | undefined): LimitSpec | null {
  const m = /^\s*(\d{1,9})\s*\/\s*(\d{1,9})\s*(?:\/\s*(\d{1,9})\s*)?$/.exec(v ?? "");
  if (!m) return null;
  const spec = { points: Number(m[1]), durationS: Number(m[2]), blockS: Number(m[3] ?? 0) };
  return spec.points >= 1 && spec.durationS >= 1 ? spec : null;
}

/**
 * The subject of the per-address limits for a client address: an IPv4 address as it is (also when
 * written IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address as its /64 network, the smallest block a
 * client is usually given, so that one client cannot spread its tries over its own addresses.
 */
export function addressSubject(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (net.isIPv6(ip)) {
    const [head, tail] = ip.toLowerCase().split("::");
    const groups = (part: string | undefined) =>
      part ? part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : [];
    const h = groups(head);
    const t = groups(tail);
    const full = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
    return `${full
      .slice(0, 4)
      .map((g) => parseInt(g, 16).toString(16))
      .join(":")}::/64`;
  }
  return ip;
}

/** One check: a limit and the subject it counts (an account, a client address, a recipient). */
export type LimitCheck = [name: LimitName, subject: string];

/** Rows of rate_limits expired this long ago are purged (at most every PURGE_EVERY_MS). */
const PURGE_AFTER_MS = HOUR * 1000;
const PURGE_EVERY_MS = 10 * MINUTE * 1000;

export class Limits {
  private readonly limiters = new Map<LimitName, { spec: string; limiter: RateLimiterAbstract }>();
  private lastPurge = 0;

  constructor(
    private readonly db: DB,
    /** False: every limit is off (RATE_LIMIT=0). */
    readonly enabled: boolean,
    private readonly log?: pino.Logger,
  ) {}

  /** A limit's figures: its setting when valid, else its default. */
  spec(name: LimitName): LimitSpec {
    const raw = getSetting(this.db, limitSettingKey(name));
    if (raw !== undefined) {
      const s = parseLimitSpec(raw);
      if (s) return s;
      this.log?.warn({ setting: limitSettingKey(name), value: raw }, "invalid limit setting");
    }
    const d = LIMITS[name];
    return { points: d.points, durationS: d.durationS, blockS: d.blockS };
  }

  private limiter(name: LimitName): RateLimiterAbstract {
    const spec = this.spec(name);
    const id = `${spec.points}/${spec.durationS}/${spec.blockS}`;
    const known = this.limiters.get(name);
    if (known?.spec === id) return known.limiter;
    const opts = {
      keyPrefix: name,
      points: spec.points,
      duration: spec.durationS,
      blockDuration: spec.blockS,
    };
    const limiter =
      LIMITS[name].store === "memory"
        ? new RateLimiterMemory(opts)
        : storedRateLimiter(this.db, opts);
    this.limiters.set(name, { spec: id, limiter });
    return limiter;
  }

  /**
   * Counts one use against each check, atomically per check. When any refuses, the uses counted by
   * the others are given back and a RateLimitedError (HTTP 429 with Retry-After) names the longest
   * wait. Does nothing while limits are off.
   */
  async consume(...checks: LimitCheck[]): Promise<void> {
    if (!this.enabled) return;
    this.purgeExpired();
    const done: LimitCheck[] = [];
    let waitMs = -1;
    for (const check of checks) {
      try {
        await this.limiter(check[0]).consume(check[1]);
        done.push(check);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        waitMs = Math.max(waitMs, err.msBeforeNext, 0);
      }
    }
    if (waitMs < 0) return;
    await this.refund(...done);
    throw new RateLimitedError(waitMs);
  }

  /** Gives back one use to each check (a use that turned out not to count, such as a success). */
  async refund(...checks: LimitCheck[]): Promise<void> {
    if (!this.enabled) return;
    for (const [name, subject] of checks) {
      const l = this.limiter(name);
      // Only while the subject has uses in its window: a reward on an empty key would open one.
      const cur = await l.get(subject);
      if (cur && cur.consumedPoints > 0) await l.reward(subject, 1);
    }
  }

  /** Forgets a subject's uses of a limit (a sign-in that succeeded clears its tries). */
  async clear(name: LimitName, subject: string): Promise<void> {
    if (!this.enabled) return;
    await this.limiter(name).delete(subject);
  }

  /** Deletes counters that expired over an hour ago, at most every ten minutes. */
  private purgeExpired(now = Date.now()): void {
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    purgeExpiredLimits(this.db, { expiredBefore: now - PURGE_AFTER_MS });
  }
}
