/**
 * Reads that do not hold the event loop: on PostgreSQL they run on the store's pool of read
 * connections (PgStore.getLater) and see what was committed; on SQLite, whose reads take
 * microseconds, they run at once. For what a request reads before its command enters the sequencer
 * (its session, its idempotency key), so that the one connection of the writes, and the event loop,
 * never wait on them.
 */
import { PgStore } from "./pg.js";
import type { DB, Statement } from "./types.js";

const sqlite = new WeakMap<DB, Map<string, Statement>>();

/** The first row of `sql` (`?` and `@name` parameters, as prepare's), or undefined. */
export async function getLater(db: DB, sql: string, ...args: unknown[]): Promise<unknown> {
  if (db instanceof PgStore) return db.getLater(sql, args);
  let cache = sqlite.get(db);
  if (!cache) sqlite.set(db, (cache = new Map()));
  let st = cache.get(sql);
  if (!st) cache.set(sql, (st = db.prepare(sql)));
  return st.get(...args);
}
