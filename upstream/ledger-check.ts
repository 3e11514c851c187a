/**
 * `npm run ledger:check`: checks every money invariant of the upstream's store (DATA_DIR/
 * upstream.sqlite, or UPSTREAM_DB) and prints what it found; exit 0 when consistent, 1 on any
 * breach, 2 when the store cannot be read. Opens the store read-only, so it can run beside a
 * running upstream (it reads one consistent snapshot).
 */
import fs from "node:fs";
import Database from "better-sqlite3";
import { ConfigError, loadConfig } from "./platform/config.js";
import { CHECK_NAMES, checkLedger } from "./modules/money/check.js";

function main(): number {
  let file: string;
  try {
    file = loadConfig().dbFile;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  if (!fs.existsSync(file)) {
    console.error(`No store at ${file} (set DATA_DIR or UPSTREAM_DB).`);
    return 2;
  }
  const db = new Database(file, { readonly: true, fileMustExist: true });
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
