/**
 * `npm run migrate`: applies the store's pending migrations (migrations/ for SQLite,
 * migrations/postgres/ with DATABASE_URL) and says which; exit 0 when the store is current, 2 when
 * it cannot be opened. The upstream also migrates at start-up; this runs it ahead of a rolling
 * upgrade (docs/deploy.md).
 */
import { ConfigError, loadStoreOf, redactedStore } from "./platform/config.js";
import { openStore } from "./platform/db.js";

function main(): number {
  let where: string;
  try {
    where = loadStoreOf();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    return 2;
  }
  let applied: string[] = [];
  try {
    openStore(where, { onMigrated: (files) => (applied = files) }).close();
  } catch (err) {
    console.error(`Cannot migrate the store ${redactedStore(where)}: ${(err as Error).message}`);
    return 2;
  }
  console.log(`Store: ${redactedStore(where)}`);
  console.log(applied.length === 0 ? "Up to date." : `Applied: ${applied.join(", ")}`);
  return 0;
}

process.exitCode = main();
