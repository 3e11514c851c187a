/**
 * `npm run ledger:check` over a real store, SQLite (UPSTREAM_DB) or PostgreSQL (DATABASE_URL, in
 * the PostgreSQL run): a consistent store exits 0 and says so; a balance changed behind the money
 * service's back (a direct UPDATE of users, which neither store's guards refuse, unlike the
 * ledger's) exits 1 and names the breach; no store, or one that cannot be reached, exits 2.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rig, type Rig } from "../unit/engine-helpers.js";
import { testDialect } from "../support/test-store.js";
import { nodeArgsFor } from "../support/node-bundle.js";

const ROOT = path.resolve(__dirname, "../..");
let r: Rig | null = null;
afterEach(() => r?.close());

/** The environment naming the store at `where` (a PostgreSQL URL or a SQLite file), alone. */
const storeEnv = (where: string): Record<string, string> =>
  testDialect() === "postgres" ? { DATABASE_URL: where } : { UPSTREAM_DB: where };

function ledgerCheck(env: Record<string, string>) {
  const out = spawnSync(process.execPath, nodeArgsFor("ledger-check"), {
    cwd: ROOT,
    // Only the store's variables: ledger:check needs no other (not even OPERATOR_SECRET_KEY).
    env: { ...process.env, DATABASE_URL: "", UPSTREAM_DB: "", OPERATOR_SECRET_KEY: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: out.status, text: out.stdout + out.stderr };
}

describe("ledger:check", () => {
  it("says a consistent store is consistent, and names a breach with exit 1", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 1,
      multiple: 100,
    });
    const ok = ledgerCheck(storeEnv(r.file));
    expect(ok.text).toContain("Consistent.");
    expect(ok.text).toMatch(/ok\s+balance_sum/);
    expect(ok.code).toBe(0);

    r.db.prepare("UPDATE users SET balance_micro = balance_micro + 1 WHERE id = ?").run(u);
    const bad = ledgerCheck(storeEnv(r.file));
    expect(bad.text).toMatch(/BREACH balance_sum \(1\)/);
    expect(bad.text).toContain(`balance_sum user ${u}`);
    expect(bad.code).toBe(1);
  });

  it.runIf(testDialect() === "postgres")(
    "exits 2 when the PostgreSQL store cannot be reached",
    () => {
      const none = ledgerCheck({
        DATABASE_URL: process.env.TEST_PG_URL!.replace(/\/[^/]*$/, "/no_such_database"),
      });
      expect(none.code).toBe(2);
      expect(none.text).toContain("Cannot read the store");
    },
  );

  it("exits 2 without a store", () => {
    const none = ledgerCheck({ UPSTREAM_DB: path.join(ROOT, "no-such-dir", "none.sqlite") });
    expect(none.code).toBe(2);
    expect(none.text).toContain("No store at");
  });
});
