/**
 * Shared set-up of the engine unit tests: a real store (a temp SQLite file, or a new PostgreSQL
 * database in the PostgreSQL projects: tests/support/test-store.ts), the manual feed, the engine.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore, type DB } from "../../upstream/platform/db.js";
import { newTestStoreWhere } from "../support/test-store.js";
import { createManualFeed, type ManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { Engine } from "../../upstream/modules/trading/engine.js";
import { moneyOf, type MoneyService } from "../../upstream/modules/money/service.js";
import type { z } from "zod";
import * as api from "@contract/api/trading";
import { orderRequestOf, stopOf, trailOf } from "../../upstream/modules/trading/requests.js";
import { dec } from "../../upstream/modules/money/decimal.js";
import { accountView, dealPageView, orderView } from "../../upstream/modules/trading/views.js";
import { DomainError } from "../../upstream/platform/errors.js";

/**
 * Raw API fields read by an endpoint's contract schema, as its route reads them: a field that fails
 * its rule is the route's refusal ("Invalid value: FIELD").
 */
export function fieldsBy<S extends z.ZodTypeAny>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data as z.output<S>;
  throw new DomainError("trade_invalid_field", 0, { field: String(r.error.issues[0].path[0]) });
}

/**
 * The engine as the trading routes drive it: raw API fields read as the routes read them, answers
 * mapped to the API's wire shapes (so the assertions read as the API does).
 */
export function wire(engine: Engine) {
  return {
    core: engine,
    submit: (userId: number, f: Record<string, unknown>, key: string | null = null) =>
      orderView(engine.submit(userId, orderRequestOf(fieldsBy(api.submit.body, f)), key)),
    close: (userId: number, id: unknown, key: string | null = null, lots?: unknown) => {
      const f = fieldsBy(api.close.body, { id, lots });
      const part = f.lots === undefined ? null : dec(f.lots);
      return orderView(engine.close(userId, f.id, key, "manual", undefined, part));
    },
    setTrailing: (userId: number, f: Record<string, unknown>, key: string | null = null) => {
      const b = fieldsBy(api.setTrailing.body, f);
      return orderView(engine.setTrailing(userId, b.id, trailOf(b), key));
    },
    cancel: (userId: number, id: unknown, key: string | null = null) =>
      orderView(engine.cancel(userId, fieldsBy(api.cancelTrade.body, { id }).id, key)),
    setStops: (userId: number, id: unknown, tp: unknown, sl: unknown) => {
      const f = fieldsBy(api.setStopPrice.body, {
        id,
        target_profit_price: tp,
        stop_loss_price: sl,
      });
      return orderView(
        engine.setStops(userId, f.id, stopOf(f.target_profit_price), stopOf(f.stop_loss_price)),
      );
    },
    listOrders: (userId: number, status: unknown, page: unknown) => {
      const q = fieldsBy(api.myDeal.query, { status, page });
      return dealPageView(engine.listOrders(userId, q.status, q.page));
    },
    accountValues: (userId: number) => {
      const f = engine.accountValues(userId);
      return { ...accountView(f), marginCall: f.marginCall };
    },
    resetDemo: (userId: number) => accountView(engine.resetDemo(userId)),
    stats: () => engine.stats(),
    hotFloating: (userId: number) => engine.hotFloating(userId),
    reloadSettings: () => engine.reloadSettings(),
    stop: () => engine.stop(),
  };
}
export type WireEngine = ReturnType<typeof wire>;

export interface Rig {
  /** A temporary directory of the rig's own (removed on close). */
  dir: string;
  /** Where the store is: a SQLite file or a PostgreSQL URL (reopenTestStore opens it again). */
  file: string;
  db: DB;
  feed: ManualFeed;
  engine: WireEngine;
  /** Creates a user with a deposit of `usd` (a 'deposit' ledger row). */
  user(usd: number, isDemo?: boolean): number;
  balance(userId: number): number;
  ledger(
    userId: number,
  ): { amount_micro: number; kind: string; ref: string | null; balance_after_micro: number }[];
  ledgerSum(userId: number): number;
  id(code: string): number;
  setting(key: string, value: string): void;
  close(): void;
}

let seq = 0;

/**
 * A fresh store, manual feed and engine. `alwaysOpen: false` puts the markets on the market-hours
 * calendar (hours.ts) of the current clock instead of keeping them all open.
 */
/** A new user with a deposit of `usd` (a 'deposit' ledger row, 'demo_initial' for a demo). */
export function newUser(db: DB, money: MoneyService, usd: number, isDemo = false): number {
  seq++;
  const r = db
    .prepare(
      "INSERT INTO users (uid, email, invite_code, is_demo, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    .run(
      `u${seq}-${process.pid}`,
      `u${seq}-${process.pid}@example.com`,
      `I${seq}x${process.pid}`,
      isDemo ? 1 : 0,
      Date.now(),
    );
  const id = Number(r.lastInsertRowid);
  if (usd)
    money.post({
      userId: id,
      amountMicro: Math.round(usd * 1e6),
      kind: isDemo ? "demo_initial" : "deposit",
    });
  return id;
}

export function rig(
  opts: { alwaysOpen?: boolean; schedule?: (command: () => void) => void } = {},
): Rig {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-eng-"));
  const file = newTestStoreWhere();
  const db = openStore(file);
  const feed = createManualFeed(db, { alwaysOpen: opts.alwaysOpen ?? true });
  const engine = wire(
    new Engine({
      db,
      feed,
      schedule: opts.schedule,
      log: { error: (o) => console.error(o), warn: () => {} },
    }),
  );
  const money = moneyOf(db);
  return {
    dir,
    file,
    db,
    feed,
    engine,
    user: (usd, isDemo = false) => newUser(db, money, usd, isDemo),
    balance(userId) {
      return (
        db.prepare("SELECT balance_micro FROM users WHERE id = ?").get(userId) as {
          balance_micro: number;
        }
      ).balance_micro;
    },
    ledger(userId) {
      return db
        .prepare(
          "SELECT amount_micro, kind, ref, balance_after_micro FROM ledger WHERE user_id = ? ORDER BY id",
        )
        .all(userId) as never;
    },
    ledgerSum: (userId) => money.ledgerSum(userId),
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
