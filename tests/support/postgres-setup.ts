/**
 * Global setup of the vitest projects that run on PostgreSQL: starts one PostgreSQL server of
 * Debian's package for the run (installing the package first when missing and running as root),
 * migrates a template database, and hands its address to the tests (TEST_PG_URL). Each test
 * database is a copy of the template (test-store.ts); each upstream's store is a copy of a second
 * template that also holds the default market and its history (store-templates.ts).
 */
import { execFileSync } from "node:child_process";
import { startPostgres, type PostgresServer } from "../../scripts/services/postgres.js";
import { openPostgres } from "../../upstream/platform/db.js";
import { PG_TEMPLATE } from "./test-store.js";
import { fillPostgresMarketTemplate, PG_MARKET_TEMPLATE } from "./store-templates.js";

let server: PostgresServer | null = null;

export async function setup(): Promise<void> {
  execFileSync("bash", ["scripts/ensure-services.sh"], { stdio: "inherit" });
  server = await startPostgres({ durable: false });
  const url = await server.createDatabase(PG_TEMPLATE);
  openPostgres(url).close();
  fillPostgresMarketTemplate(await server.createDatabase(PG_MARKET_TEMPLATE));
  process.env.TEST_PG_URL = server.url.replace(/\/[^/]*$/, "/postgres");
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
