/**
 * The store a test runs on: SQLite (a file or memory), or PostgreSQL in the vitest projects
 * "unit-postgres" and "integration-postgres" (their TEST_STORE=postgres; their global setup,
 * tests/support/postgres-setup.ts, starts the server and sets TEST_PG_URL to its admin database,
 * which the other projects' workers may inherit: TEST_STORE alone chooses). Each store is a new
 * database, copied from a migrated template, so a test starts from the schema and seed rows
 * exactly as a new deployment does.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb, openPostgres, openStore, type DB } from "../../upstream/platform/db.js";
import { PgStore } from "../../upstream/platform/store/pg.js";

/** The database every test database is copied from (made by postgres-setup.ts). */
export const PG_TEMPLATE = "tradepost_template";

export type TestDialect = "sqlite" | "postgres";

/** Which store this run's tests use. */
export function testDialect(): TestDialect {
  return process.env.TEST_STORE === "postgres" ? "postgres" : "sqlite";
}

let admin: PgStore | null = null;
let made = 0;

/** A new, empty database's URL (PostgreSQL runs) or a new SQLite file's path. */
export function newTestStoreWhere(): string {
  const adminUrl = process.env.TEST_PG_URL;
  if (testDialect() === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-store-"));
    return path.join(dir, "up.sqlite");
  }
  if (!adminUrl)
    throw new Error("TEST_STORE=postgres needs the global setup tests/support/postgres-setup.ts");
  admin ??= new PgStore(adminUrl);
  const name = `t_${process.pid}_${++made}_${Date.now() % 100000}`;
  admin.exec(`CREATE DATABASE ${name} TEMPLATE ${PG_TEMPLATE}`);
  return adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

/** A new store (see newTestStoreWhere), migrated; SQLite in memory unless `file` is asked for. */
export function openTestStore(o: { file?: boolean } = {}): DB {
  if (testDialect() === "postgres") return openPostgres(newTestStoreWhere());
  return o.file ? openDb(newTestStoreWhere()) : openDb(":memory:");
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
