/**
 * The money service: the one owner of balances. Each post is one ledger row and the balance after;
 * invariants are asserted; listeners (the engine's in-memory accounts) hear every change, also the
 * undoing of a rolled-back transaction. And the engine's events reach their subscribers.
 */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "../../upstream/platform/db.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { rig, type Rig } from "./engine-helpers.js";

let r: Rig | null = null;
afterEach(() => r?.close());

describe("money service", () => {
  it("books one row per change and returns the balance after; balance = sum of rows", () => {
    r = rig();
    const u = r.user(100);
    const money = moneyOf(r.db);
    expect(
      money.post({
        userId: u,
        amountMicro: 5_500_000,
        kind: "deposit",
        memo: "bank",
        ref: "deposit:1",
      }),
    ).toBe(105_500_000);
    expect(
      money.post({ userId: u, amountMicro: -500_000, kind: "adjustment", memo: "correction" }),
    ).toBe(105_000_000);
    expect(r.balance(u)).toBe(105_000_000);
    expect(money.ledgerSum(u)).toBe(105_000_000);
    const rows = r.db
      .prepare(
        "SELECT amount_micro, kind, memo, ref, balance_after_micro FROM ledger WHERE user_id = ? ORDER BY id",
      )
      .all(u);
    expect(rows.slice(1)).toEqual([
      {
        amount_micro: 5_500_000,
        kind: "deposit",
        memo: "bank",
        ref: "deposit:1",
        balance_after_micro: 105_500_000,
      },
      {
        amount_micro: -500_000,
        kind: "adjustment",
        memo: "correction",
        ref: null,
        balance_after_micro: 105_000_000,
      },
    ]);
    expect(money.balances(u)).toEqual({ balanceMicro: 105_000_000, lockMicro: 0 });
  });

  it("refuses amounts that are not integer micro-USD, unknown kinds and users", () => {
    r = rig();
    const u = r.user(1);
    const money = moneyOf(r.db);
    expect(() => money.post({ userId: u, amountMicro: 0.5, kind: "deposit" })).toThrow(
      /integer micro-USD/,
    );
    expect(() => money.post({ userId: u, amountMicro: 1, kind: "bonus" as never })).toThrow(
      /unknown ledger kind/,
    );
    expect(() => money.post({ userId: 999_999, amountMicro: 1, kind: "deposit" })).toThrow(
      /no such user/,
    );
    expect(money.ledgerSum(u)).toBe(1_000_000);
  });

  it("a floor refuses a change that would take the balance below it, and nothing is booked", () => {
    r = rig();
    const u = r.user(10);
    const money = moneyOf(r.db);
    let err: unknown;
    try {
      money.post({
        userId: u,
        amountMicro: -10_000_001,
        kind: "withdrawal_request",
        floorMicro: 0,
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).key).toBe("insufficient_balance");
    expect(r.balance(u)).toBe(10_000_000);
    expect(money.ledgerSum(u)).toBe(10_000_000);
  });

  it("keeps the engine's in-memory account consistent, also after a rollback", () => {
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
    const money = moneyOf(r.db);
    const heard: number[] = [];
    const off = money.onBalance((userId, bal) => userId === u && heard.push(bal));
    money.post({ userId: u, amountMicro: 500_000_000, kind: "deposit" });
    expect(r.engine.accountValues(u).balance).toBe(1499.78);
    expect(() =>
      money.transaction(() => {
        money.post({ userId: u, amountMicro: 100_000_000, kind: "deposit" });
        throw new Error("later step failed");
      }),
    ).toThrow("later step failed");
    off();
    expect(r.balance(u)).toBe(1_499_780_000);
    expect(heard).toEqual([1_499_780_000, 1_599_780_000, 1_499_780_000]);
    // Free margin (checked from the in-memory account) counts the deposit and not the rolled-back one.
    expect(r.engine.accountValues(u).can_use).toBeCloseTo(1499.78 - 110, 6);
  });
});

describe("engine events", () => {
  it("announces placed, closed and cancelled orders", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const seen: string[] = [];
    const ev = r.engine.core.events;
    ev.on("orderPlaced", (e) => seen.push(`placed ${e.orderId} ${e.pending}`));
    ev.on("positionsClosed", (e) => seen.push(`closed ${e.orderIds.join(",")} ${e.reason}`));
    ev.on("orderCancelled", (e) => seen.push(`cancelled ${e.orderId} ${e.reason}`));
    ev.on("orderActivated", (e) => seen.push(`activated ${e.orderId} ${e.price}`));
    const o = r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 1,
      multiple: 100,
      target_profit_price: "1.2",
    });
    const p = r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.09",
      multiple: 100,
    });
    const q = r.engine.submit(u, {
      type: 2,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.3",
      multiple: 100,
    });
    r.engine.cancel(u, q.Id);
    r.feed.set("EURUSD", 1.09);
    r.feed.set("EURUSD", 1.2);
    expect(seen).toEqual([
      `placed ${o.Id} false`,
      `placed ${p.Id} true`,
      `placed ${q.Id} true`,
      `cancelled ${q.Id} cancelled`,
      `activated ${p.Id} 1.09`,
      `closed ${o.Id} take_profit`,
    ]);
  });

  it("a throwing listener is logged and changes nothing", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    r.engine.core.events.on("orderPlaced", () => {
      throw new Error("listener broke");
    });
    const o = r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 1,
      multiple: 100,
    });
    expect(o.Status).toBe(1);
    expect(r.engine.stats().open).toBe(1);
  });
});

describe("store durability", () => {
  const opened = (sync: string | undefined) => {
    // The suite runs with SQLITE_SYNCHRONOUS=NORMAL (vitest.config.ts); a product starts without it.
    const was = process.env.SQLITE_SYNCHRONOUS;
    if (sync === undefined) delete process.env.SQLITE_SYNCHRONOUS;
    else process.env.SQLITE_SYNCHRONOUS = sync;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-durable-"));
    try {
      const db = openDb(path.join(dir, "up.sqlite"));
      const got = [
        db.pragma("journal_mode", { simple: true }),
        db.pragma("synchronous", { simple: true }),
      ];
      db.close();
      return got;
    } finally {
      if (was === undefined) delete process.env.SQLITE_SYNCHRONOUS;
      else process.env.SQLITE_SYNCHRONOUS = was;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it("opens a file database in WAL mode with synchronous=FULL (commits on disk before they return)", () => {
    expect(opened(undefined)).toEqual(["wal", 2]); // 2 = FULL
    expect(opened("FULL")).toEqual(["wal", 2]);
  });

  it("takes SQLITE_SYNCHRONOUS=NORMAL (the log written, not synced, at each commit) and refuses another level", () => {
    expect(opened("NORMAL")).toEqual(["wal", 1]); // 1 = NORMAL
    expect(() => opened("OFF")).toThrow(/SQLITE_SYNCHRONOUS must be FULL or NORMAL/);
  });
});
