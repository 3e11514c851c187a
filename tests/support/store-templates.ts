/**
 * The market a test upstream starts with, made once per test run instead of at every start: the
 * seeded instruments and their generated history (about 80 000 candle rows, 0.3 s on SQLite and
 * 1.5 s on PostgreSQL per start). A global setup writes it once into a template (a SQLite file, and
 * on PostgreSQL a database); every new upstream store is a copy. What a copy holds is exactly what
 * an upstream's first start with the default seed writes (ensureMarket), at the run's start rather
 * than at the upstream's: as if the upstream had been stopped for the minutes in between, which the
 * market already handles (its candles resume at the next tick).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb, openPostgres } from "../../upstream/platform/db.js";
import { loadConfig } from "../../upstream/platform/config.js";
import { ensureMarket } from "../../upstream/modules/market/history.js";

/** The variable that names the SQLite template file for the test processes. */
export const SQLITE_MARKET_TEMPLATE_VAR = "TEST_SQLITE_MARKET_TEMPLATE";
/** The PostgreSQL database every upstream store of a PostgreSQL run is copied from. */
export const PG_MARKET_TEMPLATE = "tradepost_market_template";

/** The history seed of an upstream that does not set MARKET_SEED (the product's default). */
export function defaultMarketSeed(): number {
  return loadConfig({} as NodeJS.ProcessEnv, { port: 0 }).seed;
}

/** Writes a migrated SQLite store with the default market into a new folder; its file. */
export function makeSqliteMarketTemplate(now = Date.now()): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-market-template-"));
  const file = path.join(dir, "market.sqlite");
  const db = openDb(file);
  ensureMarket(db, defaultMarketSeed(), now);
  // Closing the only connection checkpoints the write-ahead log into the file: one file to copy.
  db.close();
  return file;
}

/** Fills a migrated PostgreSQL database (the template's copy) with the default market. */
export function fillPostgresMarketTemplate(url: string, now = Date.now()): void {
  const db = openPostgres(url);
  try {
    ensureMarket(db, defaultMarketSeed(), now);
  } finally {
    db.close();
  }
}

/**
 * Copies the run's SQLite market template to `file` (a new store); false when the run has none
 * (a test file run outside vitest's projects), and the upstream then writes its market itself.
 */
export function copySqliteMarketTemplate(file: string): boolean {
  const template = process.env[SQLITE_MARKET_TEMPLATE_VAR];
  if (!template || !fs.existsSync(template)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(template, file);
  return true;
}
