/**
 * Several processes on one store, as when `npm run operator` changes an account while the upstream
 * serves, or two upstream nodes start at once on a new database: opening it, applying the
 * migrations and read-then-write transactions all wait for one another instead of failing (with
 * SQLITE_BUSY on SQLite, which reached a user as a 500; with a duplicate table or a lost update on
 * PostgreSQL).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { openStoreReadOnly } from "../../upstream/platform/db.js";
import { nodeArgsFor } from "../support/node-bundle.js";
import { newTestStoreWhere, testDialect } from "../support/test-store.js";

const ROOT = path.resolve(__dirname, "../..");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function writer(
  where: string,
  count: number,
  startAt: number,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...nodeArgsFor("db-writer"), where, String(count), String(startAt)],
      {
        cwd: ROOT,
      },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out: out.trim() }));
  });
}

it("three processes opening a new store and bumping one counter lose no update and see no error", async () => {
  // A SQLite file not made yet, or a PostgreSQL database without a table.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-store-race-"));
  dirs.push(dir);
  const where =
    testDialect() === "postgres" ? newTestStoreWhere({ empty: true }) : path.join(dir, "up.sqlite");
  const COUNT = 150;

  // The three open the store at one moment (once each has loaded; a late one merely joins later).
  const startAt = Date.now() + 4_000;
  const results = await Promise.all([
    writer(where, COUNT, startAt),
    writer(where, COUNT, startAt),
    writer(where, COUNT, startAt),
  ]);

  for (const r of results) expect(r).toEqual({ code: 0, out: `committed ${COUNT}` });
  const db = openStoreReadOnly(where);
  try {
    expect(db.prepare("SELECT n FROM race_counter").get()).toEqual({ n: 3 * COUNT });
    // Every migration of the store's dialect applied once, by whichever process came first.
    const dialectDir = path.join(
      ROOT,
      "upstream/platform/migrations",
      testDialect() === "postgres" ? "postgres" : "",
    );
    const versions = fs.readdirSync(dialectDir).filter((f) => /^\d{3}_.+\.sql$/.test(f)).length;
    expect(db.prepare("SELECT COUNT(*) AS n FROM schema_migrations").get()).toEqual({
      n: versions,
    });
  } finally {
    db.close();
  }
}, 60_000);
