/**
 * Store set-up shared by the money unit tests. A fresh store hides its seeded deposit channels and
 * bank account (migration 025); tests of deposits show them, as an operator's approved catalogue
 * change does (that path, with its second operator, is tested in integration/four-eyes.test.ts).
 */
import type { DB } from "../../upstream/platform/db.js";

export function showSeededDeposits(db: DB): void {
  db.prepare("UPDATE charge_channels SET enabled = 1").run();
  db.prepare("UPDATE wire_accounts SET enabled = 1").run();
}
