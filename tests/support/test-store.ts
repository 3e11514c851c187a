/**
 * The store a test runs on: SQLite (a file or memory), or PostgreSQL in the vitest projects
 * "unit-postgres" and "integration-postgres" (their TEST_STORE=postgres; their global setup,
 * tests/support/postgres-setup.ts, starts the server and sets TEST_PG_URL to its admin database,
 * which the other projects' workers may inherit: TEST_STORE alone chooses). Each store is a new
 * database, copied from a migrated template, so a test starts from the schema and seed rows
 * exactly as a new deployment does.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { threadId } from "node:worker_threads";
import { openDb, openPostgres, openStore, type DB } from "../../upstream/platform/db.js";
import { PgStore } from "../../upstream/platform/store/pg.js";
import { copySqliteMarketTemplate, PG_MARKET_TEMPLATE } from "./store-templates.js";

/** The database every test database is copied from (made by postgres-setup.ts). */
export const PG_TEMPLATE = "tradepost_template";

export type TestDialect = "sqlite" | "postgres";

/** Which store this run's tests use. */
export function testDialect(): TestDialect {
  return process.env.TEST_STORE === "postgres" ? "postgres" : "sqlite";
}

let admin: PgStore | null = null;
let made = 0;

/**
 * A new database's URL (PostgreSQL runs) or a new SQLite file's path. The database is a copy of the
 * migrated template; with `market`, of the template that also holds the default market and its
 * history (store-templates.ts), as an upstream's first start leaves it; with `empty`, a database
 * without a table (as a new deployment's, which the first node to start migrates). A SQLite file
 * is new (made when first opened), or with `market` a copy of the run's market template.
 */
export function newTestStoreWhere(o: { empty?: boolean; market?: boolean } = {}): string {
  const adminUrl = process.env.TEST_PG_URL;
  if (testDialect() === "sqlite") {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tp-store-")), "up.sqlite");
    if (o.market) copySqliteMarketTemplate(file);
    return file;
  }
  if (!adminUrl)
    throw new Error("TEST_STORE=postgres needs the global setup tests/support/postgres-setup.ts");
  admin ??= new PgStore(adminUrl);
  // Unique without the clock: a test may hold Date still (vi.setSystemTime) or run under a faked
  // one, and the worker threads of one process share its pid while each counts from 0.
  const name = `t_${process.pid}_${threadId}_${++made}_${crypto.randomBytes(4).toString("hex")}`;
  const template = o.empty ? "" : ` TEMPLATE ${o.market ? PG_MARKET_TEMPLATE : PG_TEMPLATE}`;
  admin.exec(`CREATE DATABASE ${name}${template}`);
  return adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

/** A new store (see newTestStoreWhere), migrated; SQLite in memory unless `file` is asked for. */
export function openTestStore(o: { file?: boolean } = {}): DB {
  if (testDialect() === "postgres") return openPostgres(newTestStoreWhere());
  return o.file ? openDb(newTestStoreWhere()) : openDb(":memory:");
}

/**
 * The operator key of every upstream a test runs on PostgreSQL (OPERATOR_SECRET_KEY, 32 bytes in
 * hex): required there, as every node must seal with one key (platform/config.ts).
 */
export const TEST_OPERATOR_SECRET_KEY = "7e57".repeat(16);

/** Where an upstream under test keeps its store, in the forms its config and a child's env take. */
export interface UpstreamStore {
  /** The store (a SQLite file or a PostgreSQL URL), for openStore / openStoreReadOnly. */
  where: string;
  /** Config overrides: dbFile, or databaseUrl with the operator key. */
  config: { dbFile: string; databaseUrl: string | null; operatorSecretKey?: string };
  /** The same for a child process (upstream/main.ts, operator.ts, ledger-check.ts). */
  env: Record<string, string>;
}

/**
 * The store of a new upstream under test: `file` in its data folder on SQLite, or a new PostgreSQL
 * database (with the operator key PostgreSQL requires) when the run is on PostgreSQL. Either holds
 * the default market already (store-templates.ts), unless `market: false` (an upstream priced by
 * the hand-driven feed without history, whose markets start at their base prices).
 */
export function newUpstreamStore(file: string, o: { market?: boolean } = {}): UpstreamStore {
  const market = o.market ?? true;
  if (testDialect() === "sqlite") {
    if (market) copySqliteMarketTemplate(file);
    return { where: file, config: { dbFile: file, databaseUrl: null }, env: { UPSTREAM_DB: file } };
  }
  const where = newTestStoreWhere({ market });
  return {
    where,
    config: { dbFile: file, databaseUrl: where, operatorSecretKey: TEST_OPERATOR_SECRET_KEY },
    env: { DATABASE_URL: where, OPERATOR_SECRET_KEY: TEST_OPERATOR_SECRET_KEY },
  };
}

/** Opens again a store made by newTestStoreWhere (a restart). */
export function reopenTestStore(where: string): DB {
  return openStore(where);
}

/**
 * Makes the store refuse an UPDATE of `column` of `table` when `condition` (over NEW) holds, as a
 * broken or full disk would: a trigger named `name`, written in the store's dialect.
 */
export function refuseUpdates(
  db: DB,
  t: { name: string; table: string; column: string; condition: string },
): void {
  if (db.dialect === "sqlite") {
    db.exec(
      `CREATE TRIGGER ${t.name} BEFORE UPDATE OF ${t.column} ON ${t.table} WHEN ${t.condition}
       BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    return;
  }
  db.exec(
    `CREATE FUNCTION ${t.name}_fn() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
     CREATE TRIGGER ${t.name} BEFORE UPDATE OF ${t.column} ON ${t.table}
       FOR EACH ROW WHEN (${t.condition}) EXECUTE FUNCTION ${t.name}_fn();`,
  );
}

/** Removes a trigger made by refuseUpdates. */
export function allowUpdates(db: DB, t: { name: string; table: string }): void {
  db.exec(
    db.dialect === "sqlite"
      ? `DROP TRIGGER ${t.name}`
      : `DROP TRIGGER ${t.name} ON ${t.table}; DROP FUNCTION ${t.name}_fn()`,
  );
}

const pairs: DB[] = [];

/**
 * A new store (newTestStoreWhere) opened twice: `db` for the code under test, `other` a second
 * connection that sees only what was committed. Closed by closeConnectionPairs (an afterEach).
 */
export function twoConnections(): { db: DB; other: DB } {
  const where = newTestStoreWhere();
  const db = openStore(where);
  const other = openStore(where);
  pairs.push(db, other);
  return { db, other };
}

/** Closes every store twoConnections opened and left open. */
export function closeConnectionPairs(): void {
  for (const d of pairs.splice(0)) if (d.open) d.close();
}
