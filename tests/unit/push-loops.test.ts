/**
 * The push loops read no store (issue 32): the FOREX_TRADE and COPY_TRADE flushes, every quarter
 * second on the leader, answer from what the engine and the copy service hold in memory, and what
 * they send equals what the store holds. A withdrawal's locked balance reaches memory through the
 * money service (held, returned, paid out), so the account's figures need no read either.
 * Runs on both stores (unit-postgres too).
 */
import { checkFrame } from "@contract/check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOPIC } from "@contract/constants";
import { openStore, type DB } from "../../upstream/platform/db.js";
import type { Hub } from "../../upstream/platform/ws/hub.js";
import { CopyTrading } from "../../upstream/modules/copy/service.js";
import { CopyPusher } from "../../upstream/modules/copy/pushes.js";
import { usd2 } from "../../upstream/modules/follow/stats.js";
import { fundProvider } from "../../upstream/modules/follow/strategies.js";
import { createManualFeed, type ManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { Engine } from "../../upstream/modules/trading/engine.js";
import { TradePusher } from "../../upstream/modules/trading/pushes.js";
import { orderRequestOf } from "../../upstream/modules/trading/requests.js";
import * as api from "@contract/api/trading";
import { newUser } from "./engine-helpers.js";
import { newTestStoreWhere } from "../support/test-store.js";

const M = 1_000_000;
const quiet = { warn() {}, error: (o: unknown) => console.error(o) };

/** The store, with a count of the statements it ran (get, all, run, iterate). */
function countingStore(db: DB): { db: DB; ran: { n: number } } {
  const ran = { n: 0 };
  const counted = new Set(["get", "all", "run", "iterate"]);
  const wrap = <T extends object>(stmt: T): T =>
    new Proxy(stmt, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (typeof v !== "function") return v;
        const f = (v as (...a: unknown[]) => unknown).bind(target);
        return counted.has(String(prop))
          ? (...a: unknown[]) => {
              ran.n++;
              return f(...a);
            }
          : f;
      },
    });
  const proxy = new Proxy(db, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === "prepare")
        return (sql: string) => wrap((v as (s: string) => object).call(target, sql));
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db: proxy, ran };
}

/**
 * A hub whose subscribers are `users` on every private topic; it keeps what was published, each
 * push checked against contract/ws.ts as the real hub checks it under CHECK_ANSWERS.
 */
function fakeHub(users: number[]): Hub & { sent: { userId: number; topic: string; data: any }[] } {
  const sent: { userId: number; topic: string; data: any }[] = [];
  return {
    sent,
    publish() {},
    publishToUser: (userId, topic, data) => {
      checkFrame({ op: "push", topic, data });
      sent.push({ userId, topic, data });
    },
    onSubscribe() {},
    subscribedUsers: () => users,
    dropTokenHash() {},
    connectionCount: () => users.length,
    frameDrifts: () => 0,
    close: async () => {},
  };
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0).reverse()) c();
});

function setUp() {
  const base = openStore(newTestStoreWhere());
  const { db, ran } = countingStore(base);
  const feed: ManualFeed = createManualFeed(db, { alwaysOpen: true });
  const engine = new Engine({ db, feed, log: quiet });
  const money = moneyOf(db);
  const copies = new CopyTrading({ db, money, engine, log: quiet });
  closers.push(() => {
    copies.stop();
    engine.stop();
    feed.stop();
    base.close();
  });
  feed.set("EURUSD", 1.1);
  const order = (userId: number, lots: string) =>
    engine.submit(
      userId,
      orderRequestOf(
        api.submit.body.parse({
          type: 1,
          cont: lots,
          forex_id: feed.quote("EURUSD")!.id,
          status: 1,
          multiple: 100,
        }),
      ),
      null,
    );
  const balances = (userId: number) =>
    base
      .prepare("SELECT balance_micro, lock_balance_micro FROM users WHERE id = ?")
      .get(userId) as {
      balance_micro: number;
      lock_balance_micro: number;
    };
  return { db, ran, feed, engine, money, copies, order, balances };
}

describe("the push loops", () => {
  // A standing clock: what is cached for a time (the trading settings, one second) stays cached
  // between a step and the count of the statements after it, however slow the machine.
  beforeEach(() => vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-25T12:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  it("send FOREX_TRADE and COPY_TRADE from memory: no statement, and the figures the store holds", () => {
    const { db, ran, feed, engine, money, copies, order, balances } = setUp();
    const provider = fundProvider(db, money, {
      name: "Loop Desk",
      style: "manual",
      capital: 10_000 * M,
    });
    const follower = newUser(db, money, 5_000);
    const trader = newUser(db, money, 2_000);
    const copy = copies.start(
      follower,
      {
        providerId: provider,
        amount: "1000",
        mode: "proportional",
        multiple: "1.00",
        stopLossPct: 50,
        copyOpen: false,
      },
      null,
    );
    order(provider, "0.10");
    order(trader, "0.20");
    money.hold({ userId: trader, amountMicro: 300 * M, ref: "draw:loop" });

    const hub = fakeHub([follower, trader]);
    const trades = new TradePusher(hub, engine, quiet, 1e9);
    const copyPushes = new CopyPusher(hub, db, engine, copies, quiet, 1e9);
    closers.push(() => {
      trades.stop();
      copyPushes.stop();
    });
    // The first flush of a new subscriber may read what memory does not hold yet (a lock).
    trades.flush();
    copyPushes.flush();

    for (let i = 1; i <= 5; i++) {
      hub.sent.length = 0;
      feed.set("EURUSD", 1.1 + i / 1000);
      ran.n = 0;
      trades.flush();
      copyPushes.flush();
      expect(ran.n, `statements run by the flushes of tick ${i}`).toBe(0);

      const forex = hub.sent.find((s) => s.userId === trader && s.topic === TOPIC.FOREX_TRADE);
      expect(forex?.data.Balance).toBe(balances(trader).balance_micro / M);
      const pushed = hub.sent.find((s) => s.userId === follower && s.topic === TOPIC.COPY_TRADE);
      expect(pushed?.data.copies).toHaveLength(1);
      const c = pushed!.data.copies[0];
      expect(c).toMatchObject({ id: copy.id, provider_name: "Loop Desk", status: "active" });
      expect(c.balance).toBe(usd2(balances(copy.account_id).balance_micro));
      expect(c.positions).toHaveLength(1);
    }
  });

  it("hold the locked balance in memory as the money service changes it", () => {
    const { ran, engine, money, order, balances, db } = setUp();
    const user = newUser(db, money, 1_000);
    order(user, "0.10");
    const lockOf = () => engine.accountValues(user).lockMicro;
    expect(lockOf()).toBe(0);
    const steps: [string, () => void][] = [
      ["hold", () => money.hold({ userId: user, amountMicro: 200 * M, ref: "draw:a" })],
      ["unhold", () => money.unhold({ userId: user, amountMicro: 50 * M, ref: "draw:a" })],
      ["payout", () => money.payOut({ userId: user, amountMicro: 150 * M, ref: "draw:a" })],
      [
        "rolled back",
        () =>
          expect(() =>
            money.transaction(() => {
              money.hold({ userId: user, amountMicro: 100 * M, ref: "draw:b" });
              throw new Error("refused later");
            }),
          ).toThrow(/refused later/),
      ],
    ];
    for (const [what, step] of steps) {
      step();
      ran.n = 0;
      const v = engine.accountValues(user);
      expect(ran.n, `statements to answer the figures after ${what}`).toBe(0);
      expect([v.balanceMicro, v.lockMicro], what).toEqual([
        balances(user).balance_micro,
        balances(user).lock_balance_micro,
      ]);
    }
  });
});
