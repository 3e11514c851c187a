/**
 * The store: SQLite (the embedded default, a file) or PostgreSQL (DATABASE_URL=postgres://…), behind
 * one synchronous interface, `DB`, which is the part of better-sqlite3's API the modules use:
 * `prepare(sql).run/get/all`, `exec`, `transaction(fn)`. Every module's SQL is written once, in
 * SQL both engines read alike; store/sql-dialect.ts turns it into PostgreSQL's. Migrations are kept
 * per dialect (migrations/NNN_*.sql for SQLite, migrations/postgres/NNN_*.sql), with the same
 * version numbers, and applied at start-up and by `npm run migrate`.
 *
 * SQLite: WAL mode with synchronous=FULL (every commit, and so every acknowledged order and money
 * movement, is on disk before the call returns: it survives a power cut, not only a crash of the
 * process). Other processes write to the same file while the upstream runs (`npm run operator`, a
 * second upstream starting). Two rules keep that safe:
 * - busy_timeout is set first, so even opening the file waits for another writer's lock;
 * - every transaction of `db.transaction(fn)` begins IMMEDIATE (write lock at BEGIN, waiting up to
 *   busy_timeout). A deferred one that reads, then writes, fails at once with SQLITE_BUSY_SNAPSHOT
 *   when another process committed in between: busy_timeout cannot help it. A read-only snapshot
 *   asks for `.deferred(...)` by name.
 *
 * PostgreSQL: store/pg.ts keeps the same meaning (one writer at a time, a read-only snapshot for
 * `.deferred`, savepoints for nested transactions).
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PgStore } from "./store/pg.js";
import { ensureSqliteNative } from "./store/sqlite-native.mjs";

export { SqlArray } from "./store/types.js";
export { ROWS_PER_STATEMENT, chunked, inList, prepareOnce, tuples } from "./store/multi-row.js";
export type { AnyFn, DB, Dialect, RunResult, Statement, TransactionFn } from "./store/types.js";
import type { DB, Dialect } from "./store/types.js";

/** The SQLite store: better-sqlite3's database, which the tests also reach directly. */
export type SqliteDb = Database.Database & { readonly dialect: "sqlite" };

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** The store named by `where`: a postgres:// URL, or a SQLite file (":memory:" for none). */
export function openStore(where: string, o: MigrateReport = {}): DB {
  return isPostgresUrl(where) ? openPostgres(where, o) : openDb(where, o);
}

export interface MigrateReport {
  /** Told the migration files applied by this opening (none when the store was current). */
  onMigrated?: (files: string[]) => void;
}

export function isPostgresUrl(where: string): boolean {
  return /^postgres(ql)?:\/\//i.test(where);
}

export function openPostgres(url: string, o: MigrateReport = {}): DB {
  const db = new PgStore(url);
  try {
    const applied = migrate(db);
    db.learnSchema();
    o.onMigrated?.(applied);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * The store for reading only, without migrating it (`npm run ledger:check` beside a running
 * upstream): SQLite opened read-only, or a PostgreSQL connection.
 */
export function openStoreReadOnly(where: string): DB {
  if (!isPostgresUrl(where)) {
    if (!fs.existsSync(where)) throw new Error(`No store at ${where}`);
    ensureSqliteNative();
    return Object.assign(new Database(where, { readonly: true, fileMustExist: true }), {
      dialect: "sqlite" as const,
    });
  }
  const db = new PgStore(where);
  db.learnSchema();
  return db;
}

export function openDb(file: string, o: MigrateReport = {}): SqliteDb {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  ensureSqliteNative();
  const db = Object.assign(new Database(file), { dialect: "sqlite" as const });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  walMode(db);
  db.pragma(`synchronous = ${sqliteSynchronous()}`);
  db.pragma("foreign_keys = ON");
  immediateByDefault(db);
  // Migrated first: an optional call (`o.onMigrated?.(…)`) skips its argument when absent.
  const applied = migrate(db);
  o.onMigrated?.(applied);
  return db;
}

/**
 * SQLite's commit durability (README, SQLITE_SYNCHRONOUS): FULL by default, every commit on disk
 * before it returns; NORMAL, a commit written to the log but not synced, survives the program's
 * crash (SIGKILL included) but not the machine's power loss. The test suite runs on NORMAL: what
 * it kills is the program, and a sync per commit was a third of some files' time.
 */
export function sqliteSynchronous(): "FULL" | "NORMAL" {
  const v = process.env.SQLITE_SYNCHRONOUS;
  if (v === undefined || v === "" || v === "FULL") return "FULL";
  if (v === "NORMAL") return "NORMAL";
  throw new Error(`SQLITE_SYNCHRONOUS must be FULL or NORMAL, not "${v}"`);
}

/** How long a statement waits for another connection's lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Puts the file in WAL mode, waiting up to BUSY_TIMEOUT_MS for another connection: two processes
 * opening a new file at once both ask for the change, and SQLite answers SQLITE_BUSY at once to the
 * one that finds the other's lock (the busy handler is not called there, to avoid a deadlock).
 */
function walMode(db: Database.Database): void {
  const until = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > until) throw err;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/** Makes the plain call of every `db.transaction(fn)` its `.immediate` variant (see above). */
function immediateByDefault(db: Database.Database): void {
  const make = db.transaction.bind(db);
  db.transaction = ((fn: (...args: never[]) => unknown) => {
    const tx = make(fn);
    return Object.assign((...args: never[]) => tx.immediate(...args), {
      default: tx.immediate,
      deferred: tx.deferred,
      immediate: tx.immediate,
      exclusive: tx.exclusive,
    });
  }) as Database.Database["transaction"];
}

/** The migration files of a dialect, in order. */
function migrationFiles(dialect: Dialect): { version: number; file: string; dir: string }[] {
  const dir = dialect === "sqlite" ? MIGRATIONS_DIR : path.join(MIGRATIONS_DIR, "postgres");
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 3)), file, dir }));
}

/**
 * Applies every migration of the store's dialect not yet applied, each in its own write
 * transaction (so two nodes starting at once apply each one once). Answers the files applied.
 */
export function migrate(db: DB): string[] {
  // In a write transaction, one process at a time: PostgreSQL's CREATE TABLE IF NOT EXISTS fails
  // (a duplicate key of pg_type) when another connection makes the same table at that moment.
  db.transaction(() =>
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    ),
  )();
  const applied = new Set(
    db
      .prepare("SELECT version FROM schema_migrations")
      .all()
      .map((r) => (r as { version: number }).version),
  );
  const done: string[] = [];
  for (const m of migrationFiles(db.dialect)) {
    if (applied.has(m.version)) continue;
    const sql = fs.readFileSync(path.join(m.dir, m.file), "utf8");
    const again = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?");
    const ran = db.transaction(() => {
      // Another process opening the same store may have applied it since the list was read.
      if (again.get(m.version)) return false;
      db.exec(sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.file,
        Date.now(),
      );
      return true;
    })();
    if (ran) done.push(m.file);
  }
  return done;
}

/** The write was refused by a UNIQUE index or key, on either store. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}

/** Whether the store answers a trivial read now (/healthz). */
export function storeAnswers(db: DB): boolean {
  try {
    db.prepare("SELECT 1 AS one").get();
    return true;
  } catch {
    return false;
  }
}
