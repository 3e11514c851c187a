/**
 * SQLite store: opens the database in WAL mode with synchronous=FULL (every commit, and so every
 * acknowledged order and money movement, is on disk before the call returns: it survives a power
 * cut, not only a crash of the process) and applies versioned migrations in order.
 *
 * Other processes write to the same file while the upstream runs (`npm run operator`, a second
 * upstream starting). Two rules keep that safe:
 * - busy_timeout is set first, so even opening the file waits for another writer's lock;
 * - every transaction of `db.transaction(fn)` begins IMMEDIATE (write lock at BEGIN, waiting up to
 *   busy_timeout). A deferred one that reads, then writes, fails at once with SQLITE_BUSY_SNAPSHOT
 *   when another process committed in between: busy_timeout cannot help it. A read-only snapshot
 *   asks for `.deferred(...)` by name.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type DB = Database.Database;

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

export function openDb(file: string): DB {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  immediateByDefault(db);
  migrate(db);
  return db;
}

/** How long a statement waits for another connection's lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

/** Makes the plain call of every `db.transaction(fn)` its `.immediate` variant (see above). */
function immediateByDefault(db: DB): void {
  const make = db.transaction.bind(db);
  db.transaction = ((fn: (...args: never[]) => unknown) => {
    const tx = make(fn);
    return Object.assign((...args: never[]) => tx.immediate(...args), {
      default: tx.immediate,
      deferred: tx.deferred,
      immediate: tx.immediate,
      exclusive: tx.exclusive,
    });
  }) as DB["transaction"];
}

/** Applies every migrations/NNN_name.sql not yet applied, each in its own transaction. */
export function migrate(db: DB): string[] {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  const applied = new Set(
    db
      .prepare("SELECT version FROM schema_migrations")
      .all()
      .map((r) => (r as { version: number }).version),
  );
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  const done: string[] = [];
  for (const f of files) {
    const version = Number(f.slice(0, 3));
    if (applied.has(version)) continue;
    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, f), "utf8");
    const again = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?");
    const ran = db.transaction(() => {
      // Another process opening the same file may have applied it since the list was read.
      if (again.get(version)) return false;
      db.exec(sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        version,
        f,
        Date.now(),
      );
      return true;
    })();
    if (ran) done.push(f);
  }
  return done;
}
