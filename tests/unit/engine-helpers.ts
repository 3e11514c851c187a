/** Shared set-up of the engine unit tests: a real store on a temp file, the manual feed, the engine. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb, type DB } from "../../upstream/platform/db.js";
import { createManualFeed, type ManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { Engine } from "../../upstream/modules/trading/engine.js";
import { postLedger, ledgerSum } from "../../upstream/modules/money/ledger.js";
import { DomainError } from "../../upstream/platform/errors.js";

export interface Rig {
  dir: string;
  file: string;
  db: DB;
  feed: ManualFeed;
  engine: Engine;
  /** Creates a user with a deposit of `usd` (a 'deposit' ledger row). */
  user(usd: number, isDemo?: boolean): number;
  balance(userId: number): number;
  ledger(userId: number): { amount_micro: number; kind: string; ref: string | null; balance_after_micro: number }[];
  ledgerSum(userId: number): number;
  id(code: string): number;
  setting(key: string, value: string): void;
  close(): void;
}

let seq = 0;

export function rig(): Rig {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-eng-"));
  const file = path.join(dir, "up.sqlite");
  const db = openDb(file);
  const feed = createManualFeed(db);
  const engine = new Engine({ db, feed, log: { error: (o) => console.error(o), warn: () => {} } });
  return {
    dir,
    file,
    db,
    feed,
    engine,
    user(usd, isDemo = false) {
      seq++;
      const r = db
        .prepare("INSERT INTO users (uid, email, invite_code, is_demo, created_at) VALUES (?, ?, ?, ?, ?)")
        .run(`u${seq}-${process.pid}`, `u${seq}-${process.pid}@example.com`, `I${seq}x${process.pid}`, isDemo ? 1 : 0, Date.now());
      const id = Number(r.lastInsertRowid);
      if (usd) db.transaction(() => postLedger(db, { userId: id, amountMicro: Math.round(usd * 1e6), kind: isDemo ? "demo_initial" : "deposit" }))();
      return id;
    },
    balance(userId) {
      return (db.prepare("SELECT balance_micro FROM users WHERE id = ?").get(userId) as { balance_micro: number }).balance_micro;
    },
    ledger(userId) {
      return db.prepare("SELECT amount_micro, kind, ref, balance_after_micro FROM ledger WHERE user_id = ? ORDER BY id").all(userId) as never;
    },
    ledgerSum: (userId) => ledgerSum(db, userId),
    id(code) {
      return feed.quote(code)!.id;
    },
    setting(key, value) {
      db.prepare("UPDATE settings SET value = ? WHERE key = ?").run(value, key);
      engine.reloadSettings();
    },
    close() {
      engine.stop();
      feed.stop();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The key of the DomainError a call refuses with, or "accepted" when it does not throw. */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.key;
    throw e;
  }
  return "accepted";
}
