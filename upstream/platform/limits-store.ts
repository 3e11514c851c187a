/**
 * The `rate_limits` table (migration 010): the counters of the abuse limits kept in the store, in
 * the layout of rate-limiter-flexible's RateLimiterSQLite, which reads and writes them itself; and
 * the purge of counters that expired long ago.
 */
import { RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { DB } from "./db.js";

/** A limiter counting in `rate_limits` (keys are "<keyPrefix>:<subject>"). */
export function storedRateLimiter(
  db: DB,
  opts: { keyPrefix: string; points: number; duration: number; blockDuration: number },
): RateLimiterAbstract {
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
