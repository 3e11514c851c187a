/**
 * SQLite's batches made durable off the event loop (platform/store/sqlite-wal-sync.ts, decision
 * 0029): a batch commits with synchronous=OFF and is answered only once the worker has synced the
 * log; every other transaction keeps FULL; the main connection never checkpoints and the worker
 * does; a sync that cannot be made answers no command and stops the sequencer.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDb, type SqliteDb } from "../../upstream/platform/db.js";
import { Sequencer, SequencerStopped } from "../../upstream/platform/store/sequencer.js";
import { syncLater, type LaterSyncedDb } from "../../upstream/platform/store/sqlite-wal-sync.js";

const dirs: string[] = [];
const open: LaterSyncedDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function store(): { db: LaterSyncedDb; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-walsync-"));
  dirs.push(dir);
  const file = path.join(dir, "store.db");
  const plain: SqliteDb = openDb(file);
  plain.exec("CREATE TABLE seq_rows (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  const db = syncLater(plain);
  open.push(db);
  return { db, file };
}

const synchronous = (db: Database.Database) => db.pragma("synchronous", { simple: true });
const FULL = 2;
const OFF = 0;

describe("SQLite batches synced by the worker", () => {
  // The product's durability (synchronous=FULL outside the batches), not the suite's NORMAL.
  const suiteLevel = process.env.SQLITE_SYNCHRONOUS;
  beforeAll(() => {
    delete process.env.SQLITE_SYNCHRONOUS;
  });
  afterAll(() => {
    if (suiteLevel !== undefined) process.env.SQLITE_SYNCHRONOUS = suiteLevel;
  });

  it("answers a batch once its log is synced; only the batch commits with synchronous=OFF", async () => {
    const { db, file } = store();
    const seq = new Sequencer({ db, onWriteFailure: () => undefined, maxBatchMs: 60_000 });
    const insert = db.prepare("INSERT INTO seq_rows (n) VALUES (?)");
    const seen: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        seq.run(() => {
          seen.push(synchronous(db) as number);
          insert.run(n);
          return n;
        }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 50 }, (_, n) => n));
    expect(new Set(seen)).toEqual(new Set([OFF]));
    expect(synchronous(db)).toBe(FULL);
    // Every batch asked for a sync and was answered after it.
    expect(db.walSync.stats.syncs).toBe(seq.stats.batches);
    expect(db.walSync.stats.synced).toBe(seq.stats.batches);
    // Another connection reads what was answered.
    const other = new Database(file, { readonly: true });
    try {
      expect(other.prepare("SELECT COUNT(*) AS c FROM seq_rows").get()).toEqual({ c: 50 });
    } finally {
      other.close();
    }
  });

  it("a transaction outside the sequencer keeps synchronous=FULL", () => {
    const { db } = store();
    db.transaction(() => {
      expect(synchronous(db)).toBe(FULL);
      db.prepare("INSERT INTO seq_rows (n) VALUES (1)").run();
    })();
    expect(db.walSync.stats.syncs).toBe(0);
  });

  it("the main connection never checkpoints; the worker's checkpoint copies the whole log", async () => {
    const { db } = store();
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    const seq = new Sequencer({ db, onWriteFailure: () => undefined });
    const insert = db.prepare("INSERT INTO seq_rows (n) VALUES (?)");
    for (let round = 0; round < 5; round++)
      await Promise.all(
        Array.from({ length: 20 }, (_, n) => seq.run(() => insert.run(round * 100 + n))),
      );
    await db.walSync.checkpoint();
    expect(db.walSync.stats.checkpoints).toBeGreaterThan(0);
    // Nothing is left in the log that the database file does not hold: [busy, frames, copied].
    const [busy, frames, copied] = Object.values(
      db.prepare("PRAGMA wal_checkpoint(PASSIVE)").get() as Record<string, number>,
    );
    expect(busy).toBe(0);
    expect(copied).toBe(frames);
  });

  it("a log that cannot be synced answers none of the batch's commands and stops the sequencer", async () => {
    const { db } = store();
    const failures: unknown[] = [];
    const seq = new Sequencer({ db, onWriteFailure: (e) => failures.push(e) });
    const insert = db.prepare("INSERT INTO seq_rows (n) VALUES (?)");
    await seq.run(() => insert.run(1));
    // The worker is gone (as when it dies): the next batch is committed but never synced.
    db.walSync.close();
    const settled = await Promise.allSettled([
      seq.run(() => insert.run(2)),
      seq.run(() => insert.run(3)),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    for (const s of settled)
      expect((s as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(/closed/);
    await expect(seq.run(() => insert.run(4))).rejects.toBeInstanceOf(SequencerStopped);
  });

  it("refuses a store in memory (no log to sync)", () => {
    const db = openDb(":memory:");
    try {
      expect(() => syncLater(db)).toThrow(/WAL file/);
    } finally {
      db.close();
    }
  });
});
