/**
 * Global setup of the vitest projects that start upstreams on SQLite: writes the run's market
 * template once (store-templates.ts) and names it to the test processes.
 */
import fs from "node:fs";
import path from "node:path";
import { makeSqliteMarketTemplate, SQLITE_MARKET_TEMPLATE_VAR } from "./store-templates.js";

let made: string | null = null;

export function setup(): void {
  made = makeSqliteMarketTemplate();
  process.env[SQLITE_MARKET_TEMPLATE_VAR] = made;
}

export function teardown(): void {
  if (made) fs.rmSync(path.dirname(made), { recursive: true, force: true });
}
