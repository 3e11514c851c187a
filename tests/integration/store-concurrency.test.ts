/**
 * Several processes on one SQLite store, as when `npm run operator` changes an account while the
 * upstream serves: opening the file, applying the migrations and read-then-write transactions all
 * wait for one another instead of failing with SQLITE_BUSY (which reached a user as a 500).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const WRITER = path.join(__dirname, "fixtures/db-writer.ts");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function writer(file: string, count: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, file, String(count)], {
      cwd: ROOT,
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out: out.trim() }));
  });
}

it("three processes opening a new store and bumping one counter lose no update and see no error", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-store-race-"));
  dirs.push(dir);
  const file = path.join(dir, "up.sqlite");
  const COUNT = 150;

  const results = await Promise.all([
    writer(file, COUNT),
    writer(file, COUNT),
    writer(file, COUNT),
  ]);

  for (const r of results) expect(r).toEqual({ code: 0, out: `committed ${COUNT}` });
  const db = new Database(file, { readonly: true });
  try {
    expect(db.prepare("SELECT n FROM race_counter").get()).toEqual({ n: 3 * COUNT });
    // Every migration applied once, by whichever process came first.
    const files = fs.readdirSync(path.join(ROOT, "upstream/platform/migrations"));
    const versions = files.filter((f) => /^\d{3}_.+\.sql$/.test(f)).length;
    expect(db.prepare("SELECT COUNT(*) AS n FROM schema_migrations").get()).toEqual({
      n: versions,
    });
  } finally {
    db.close();
  }
}, 60_000);
