/**
 * `npm run ledger:check`: checks every money invariant of the upstream's store (PostgreSQL with
 * DATABASE_URL, else DATA_DIR/upstream.sqlite or UPSTREAM_DB) and prints what it found; exit 0 when
 * consistent, 1 on any breach, 2 when the store cannot be read. Opens the store for reading only,
 * so it can run beside a running upstream (it reads one consistent snapshot).
 */
import { ConfigError, loadStoreOf, redactedStore } from "./platform/config.js";
import { openStoreReadOnly, type DB } from "./platform/db.js";
import { CHECK_NAMES, checkLedger } from "./modules/money/check.js";

function main(): number {
  let where: string;
  try {
    where = loadStoreOf();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const file = redactedStore(where);
  let db: DB;
  try {
    db = openStoreReadOnly(where);
  } catch (err) {
    console.error(
      `Cannot read the store ${file}: ${(err as Error).message} (set DATABASE_URL, DATA_DIR or UPSTREAM_DB).`,
    );
    return 2;
  }
  try {
    const report = checkLedger(db);
    console.log(`Store: ${file}`);
    console.log(
      `Read ${report.users} accounts, ${report.ledgerRows} ledger rows, ${report.orders} orders.`,
    );
    for (const name of CHECK_NAMES) {
      const n = report.findings.filter((f) => f.check === name).length;
      console.log(`  ${n === 0 ? "ok    " : "BREACH"} ${name}${n ? ` (${n})` : ""}`);
    }
    for (const f of report.findings)
      console.log(
        `  - ${f.check}${f.userId !== undefined ? ` user ${f.userId}` : ""}${f.orderId !== undefined ? ` order ${f.orderId}` : ""}: ${f.message}`,
      );
    console.log(
      report.findings.length === 0 ? "Consistent." : `${report.findings.length} breach(es).`,
    );
    return report.findings.length === 0 ? 0 : 1;
  } finally {
    db.close();
  }
}

process.exitCode = main();
