/**
 * Reads that do not hold the event loop: on PostgreSQL they run on the store's pool of read
 * connections (PgStore.getLater) and see what was committed; on SQLite, whose reads take
 * microseconds, they run at once. For what a request reads before its command enters the sequencer
 * (its session, its idempotency key), so that the one connection of the writes, and the event loop,
 * never wait on them. Also the bookkeeping writes nothing waits for (runLater: a token's last use),
 * outside any transaction, the write lock and the leader's fence.
 */
import { PgStore } from "./pg.js";
import type { DB, Statement } from "./types.js";

const sqlite = new WeakMap<DB, Map<string, Statement>>();

/** The first row of `sql` (`?` and `@name` parameters, as prepare's), or undefined. */
export async function getLater(db: DB, sql: string, ...args: unknown[]): Promise<unknown> {
  if (db instanceof PgStore) return db.getLater(sql, args);
  return sqliteStatement(db, sql).get(...args);
}

/** Every row of `sql` (as getLater's). */
export async function allLater(db: DB, sql: string, ...args: unknown[]): Promise<unknown[]> {
  if (db instanceof PgStore) return db.allLater(sql, args);
  return sqliteStatement(db, sql).all(...args);
}

/** Runs a write nothing waits for (see the module's comment); resolves once it ran. */
export async function runLater(db: DB, sql: string, ...args: unknown[]): Promise<void> {
  if (db instanceof PgStore) await db.getLater(sql, args);
  else sqliteStatement(db, sql).run(...args);
}

function sqliteStatement(db: DB, sql: string): Statement {
  let cache = sqlite.get(db);
  if (!cache) sqlite.set(db, (cache = new Map()));
  let st = cache.get(sql);
  if (!st) cache.set(sql, (st = db.prepare(sql)));
  return st;
}
