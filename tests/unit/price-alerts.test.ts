/**
 * Price alerts' engine side: the index takes out exactly the alerts a price and a day's change
 * reach (checked against a plain scan over random alerts and ticks, fixed seed), and the service
 * books a firing once, ends a one-off alert, re-arms an `every` alert only after its pause and ends
 * one past its last day without firing, on a real store with the hand-driven feed and a set clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { DB } from "../../upstream/platform/db.js";
import { AlertIndex, type Armed } from "../../upstream/modules/alerts/index.js";
import { PriceAlerts } from "../../upstream/modules/alerts/service.js";
import { createManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { openTestStore } from "../support/test-store.js";
import { SEED } from "../integration/fuzz-values.js";

let db: DB | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

const armed = (id: number, condition: Armed["condition"], target: number, inst = 1): Armed => ({
  id,
  userId: 1,
  instrumentId: inst,
  code: "X",
  condition,
  target,
  repeat: false,
  cooldownMs: 0,
  expiresAt: null,
});

/** What a plain scan says a tick reaches. */
const reaches = (a: Armed, inst: number, price: number, change: number) =>
  a.instrumentId === inst &&
  (a.condition === "above"
    ? a.target <= price
    : a.condition === "below"
      ? a.target >= price
      : a.target <= Math.abs(change));

describe("the alert index", () => {
  it("takes out exactly what a tick reaches, each alert once", () => {
    const alert = fc.record({
      condition: fc.constantFrom("above" as const, "below" as const, "change" as const),
      target: fc.integer({ min: 1, max: 200 }),
      inst: fc.integer({ min: 1, max: 3 }),
    });
    const tick = fc.record({
      inst: fc.integer({ min: 1, max: 3 }),
      price: fc.integer({ min: 1, max: 200 }),
      change: fc.integer({ min: -100, max: 100 }),
    });
    fc.assert(
      fc.property(
        fc.array(alert, { maxLength: 60 }),
        fc.array(tick, { maxLength: 20 }),
        (as, ts) => {
          const index = new AlertIndex();
          let left = as.map((a, i) => armed(i + 1, a.condition, a.target, a.inst));
          for (const a of left) index.add(a);
          for (const t of ts) {
            const out: Armed[] = [];
            index.take(t.inst, t.price, t.change, out);
            const want = left.filter((a) => reaches(a, t.inst, t.price, t.change));
            expect(out.map((a) => a.id).sort((x, y) => x - y)).toEqual(want.map((a) => a.id));
            left = left.filter((a) => !want.includes(a));
            expect(index.size).toBe(left.length);
          }
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe("the alerts of a store", () => {
  function setUp() {
    db = openTestStore();
    const store = db;
    const userId = Number(
      store
        .prepare(
          "INSERT INTO users (uid, email, invite_code, created_at) VALUES ('pa1', 'pa1@example.com', 'PAINV1', ?)",
        )
        .run(0).lastInsertRowid,
    );
    const feed = createManualFeed(store);
    feed.set("EURUSD", 1.1);
    const clock = { now: Date.parse("2026-03-02T10:00:00Z") };
    const alerts = new PriceAlerts({
      db: store,
      feed,
      run: async (command) => command(),
      log: { error: (o) => console.error(o) },
      now: () => clock.now,
    });
    alerts.start();
    const eur = feed.quote("EURUSD")!.id;
    const notices = () =>
      (
        store
          .prepare("SELECT kind, params FROM notifications WHERE user_id = ? ORDER BY id")
          .all(userId) as { kind: string; params: string }[]
      ).map((n) => ({ kind: n.kind, ...JSON.parse(n.params) }));
    const tick = async (price: number) => {
      feed.set("EURUSD", price);
      await new Promise((r) => setImmediate(r));
    };
    return { store, userId, feed, clock, alerts, eur, notices, tick };
  }

  it("an `every` alert fires, cools down for its pause, then fires again", async () => {
    const t = setUp();
    t.alerts.create(t.userId, {
      instrumentId: t.eur,
      condition: "above",
      target: "1.2",
      repeat: "every",
      cooldownMin: 5,
    });
    await t.tick(1.2);
    await t.tick(1.21);
    expect(t.notices()).toHaveLength(1);
    t.clock.now += 5 * 60_000 - 1;
    await t.tick(1.22);
    expect(t.notices()).toHaveLength(1);
    t.clock.now += 1;
    await t.tick(1.23);
    expect(t.notices().map((n) => n.price)).toEqual([1.2, 1.23]);
    t.alerts.stop();
  });

  it("an alert past its last day ends without firing", async () => {
    const t = setUp();
    const a = t.alerts.create(t.userId, {
      instrumentId: t.eur,
      condition: "below",
      target: "1.0",
      repeat: "once",
      until: "2026-03-02",
    });
    t.clock.now = Date.parse("2026-03-03T00:00:00Z");
    await t.tick(0.99);
    expect(t.notices()).toHaveLength(0);
    const row = t.store.prepare("SELECT active FROM price_alerts WHERE id = ?").get(a.id) as {
      active: number;
    };
    expect(row.active).toBe(0);
    t.alerts.stop();
  });

  it("the sweep ends armed alerts past their last day that no tick reached", async () => {
    const t = setUp();
    t.alerts.create(t.userId, {
      instrumentId: t.eur,
      condition: "above",
      target: "5",
      repeat: "once",
      until: "2026-03-02",
    });
    t.clock.now = Date.parse("2026-03-04T00:00:00Z");
    t.alerts.sweepExpired();
    await new Promise((r) => setImmediate(r));
    expect(t.alerts.index.size).toBe(0);
    expect(
      (
        t.store.prepare("SELECT COUNT(*) AS n FROM price_alerts WHERE active = 1").get() as {
          n: number;
        }
      ).n,
    ).toBe(0);
    t.alerts.stop();
  });
});
