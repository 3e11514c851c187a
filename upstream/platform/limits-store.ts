/**
 * The `rate_limits` table (migration 010): the counters of the abuse limits kept in the store, in
 * the layout of rate-limiter-flexible's RateLimiterSQLite and RateLimiterPostgres, which read and
 * write them themselves (on PostgreSQL through a pool of its own, so every node counts in the same
 * rows); and the purge of counters that expired long ago.
 */
import pg from "pg";
import {
  RateLimiterPostgres,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { DB } from "./db.js";
import type { PgStore } from "./store/pg.js";

type LimiterOptions = {
  keyPrefix: string;
  points: number;
  duration: number;
  blockDuration: number;
};

/** A limiter counting in `rate_limits` (keys are "<keyPrefix>:<subject>"). */
export function storedRateLimiter(db: DB, opts: LimiterOptions): RateLimiterAbstract {
  if (db.dialect === "postgres")
    return new RateLimiterPostgres({
      ...opts,
      storeClient: poolOf(db as PgStore),
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      clearExpiredByTimeout: false,
    });
  return new RateLimiterSQLite({
    ...opts,
    storeClient: db,
    storeType: "better-sqlite3",
    tableName: "rate_limits",
    // Created by migration 010; expired rows are purged by purgeExpiredLimits.
    tableCreated: true,
    clearExpiredByTimeout: false,
  });
}

/** Connections of the limiters of one store (few: a use is one statement). */
const POOL_SIZE = 4;
const pools = new WeakMap<PgStore, pg.Pool>();

function poolOf(db: PgStore): pg.Pool {
  let p = pools.get(db);
  if (!p) {
    // Idle connections close after a while and never keep the process alive.
    p = new pg.Pool({
      connectionString: db.url,
      max: POOL_SIZE,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    p.on("error", () => undefined); // a broken idle connection is dropped; the next use opens another
    pools.set(db, p);
    db.onClose(() => void p!.end().catch(() => undefined));
  }
  return p;
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function prepare(db: DB) {
  return { purge: db.prepare("DELETE FROM rate_limits WHERE expire < @expiredBefore") };
}

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** Deletes the counters whose window ended before `expiredBefore` (ms). */
export function purgeExpiredLimits(db: DB, q: { expiredBefore: number }): void {
  stmts(db).purge.run(q);
}
