import { newTestStoreWhere, openTestStore, testDialect } from "../support/test-store.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDb, type DB } from "../../upstream/platform/db.js";
import { createSimulator } from "../../upstream/modules/market/simulator.js";
import { createManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { usdRate } from "../../upstream/modules/market/instruments.js";
import {
  CANDLE_RETENTION,
  CandleBook,
  bucketStart,
  pruneCandles,
} from "../../upstream/modules/market/candles.js";
import { ensureMarket } from "../../upstream/modules/market/history.js";
import { PERIODS } from "@contract/constants";
import type { Quote } from "../../upstream/modules/market/feed.js";

const dbs: DB[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()!.close();
});
function db(): DB {
  const d = openTestStore();
  dbs.push(d);
  return d;
}

/**
 * A store holding a market and its history, as a simulator opens it: on SQLite a copy of the run's
 * market template (store-templates.ts) when the run has one, else a new store the simulator fills;
 * on PostgreSQL a new database the simulator fills.
 */
function marketDb(): DB {
  if (testDialect() !== "sqlite") return db();
  const d = openDb(newTestStoreWhere({ market: true }));
  dbs.push(d);
  return d;
}
const MONDAY = Date.parse("2026-11-23T16:00:00Z");

describe("simulator", () => {
  it("ticks every open instrument, updates and stores the forming candles, and fires onTick", () => {
    const d = marketDb();
    const sim = createSimulator(d, {
      seed: 11,
      tickMs: 500,
      marketAlwaysOpen: true,
      simulate: false,
    });
    const seen: Quote[][] = [];
    sim.onTick((c) => seen.push(c));
    const before = sim.quote("EURUSD")!.price;
    let t = Date.now() + 1000;
    for (let i = 0; i < 20; i++) sim.tickOnce((t += 500));
    expect(seen).toHaveLength(20);
    expect(seen[0]).toHaveLength(sim.instruments().length);
    const q = sim.quote("EURUSD")!;
    expect(q.time).toBe(t);
    expect(q.price).not.toBe(before);
    expect(Number(q.price.toFixed(5))).toBe(q.price); // rounded to PricePrecision
    // The forming 1min candle holds the last price, and is stored.
    const forming = sim.book.current(q.id);
    expect(forming.map((c) => c.period)).toEqual([...PERIODS]);
    for (const c of forming) {
      expect(c.close).toBe(q.price);
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
    }
    // Stored every few seconds of ticks and on stop: after stop() the store holds the forming candles.
    sim.stop();
    for (const c of forming) {
      const stored = d
        .prepare("SELECT * FROM candles WHERE instrument_id = ? AND period = ? AND time = ?")
        .get(q.id, c.period, bucketStart(c.period, t)) as {
        close: number;
        high: number;
        low: number;
      };
      expect(stored, c.period).toMatchObject({ close: c.close, high: c.high, low: c.low });
    }
    // Day statistics come from the day's candle.
    const day = forming.find((c) => c.period === "1day")!;
    expect(q.open).toBe(day.open);
    expect(q.high).toBe(day.high);
    expect(q.low).toBe(day.low);
    expect(q.change).toBeCloseTo(((q.price - day.open) / day.open) * 100, 2);
  });

  it("is deterministic: the same seed replays the same ticks", () => {
    const run = (seed: number) => {
      const sim = createSimulator(marketDb(), {
        seed,
        tickMs: 500,
        marketAlwaysOpen: true,
        simulate: false,
      });
      let t = MONDAY;
      for (let i = 0; i < 10; i++) sim.tickOnce((t += 500));
      return sim.all().map((q) => q.price);
    };
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
  });

  it("walks with the instrument's yearly volatility", () => {
    const sim = createSimulator(marketDb(), {
      seed: 3,
      tickMs: 60_000,
      marketAlwaysOpen: true,
      simulate: false,
    });
    const prices: number[] = [];
    let t = MONDAY;
    for (let i = 0; i < 2000; i++) {
      sim.tickOnce((t += 60_000));
      prices.push(sim.quote("BTCUSD")!.price);
    }
    const r = prices.slice(1).map((p, i) => Math.log(p / prices[i]));
    const sd = Math.sqrt(r.reduce((s, x) => s + x * x, 0) / r.length);
    const yearly = sd * Math.sqrt(525_600);
    expect(yearly).toBeGreaterThan(0.55 * 0.85);
    expect(yearly).toBeLessThan(0.55 * 1.15);
  });

  it("continues from the stored prices after a restart", () => {
    const d = marketDb();
    const a = createSimulator(d, { seed: 1, tickMs: 500, marketAlwaysOpen: true, simulate: false });
    a.tickOnce(Date.now() + 1000);
    const last = a.quote("XAUUSD")!.price;
    a.stop();
    const b = createSimulator(d, { seed: 1, tickMs: 500, marketAlwaysOpen: true, simulate: false });
    expect(b.quote("XAUUSD")!.price).toBe(last);
  });

  it("starts and stops its own timer", async () => {
    const sim = createSimulator(marketDb(), {
      seed: 1,
      tickMs: 20,
      marketAlwaysOpen: true,
      simulate: true,
    });
    // A second simulator on the same period is the clock: once it has ticked 3 times after the
    // first one stopped, the first would have ticked too had its timer survived.
    const witness = createSimulator(marketDb(), {
      seed: 2,
      tickMs: 20,
      marketAlwaysOpen: true,
      simulate: true,
    });
    let ticks = 0;
    let witnessTicks = 0;
    sim.onTick(() => ticks++);
    witness.onTick(() => witnessTicks++);
    sim.start();
    witness.start();
    try {
      await vi.waitFor(() => expect(ticks).toBeGreaterThan(2), { timeout: 2000, interval: 10 });
      sim.stop();
      const n = ticks;
      const seen = witnessTicks;
      await vi.waitFor(() => expect(witnessTicks).toBeGreaterThanOrEqual(seen + 3), {
        timeout: 2000,
        interval: 10,
      });
      expect(ticks).toBe(n);
    } finally {
      witness.stop();
      sim.stop();
    }
  });
});

describe("candle book", () => {
  it("keeps a candle that closed between two flushes with its final values", () => {
    const d = db();
    const feed = createManualFeed(d);
    const id = feed.quote("BTCUSD")!.id;
    const book = new CandleBook(d);
    book.load(id);
    // The first minute of a future five-minute candle, so that both minutes below fall in one 5min candle.
    const m0 = bucketStart("5min", Date.now()) + 10 * 60_000;
    book.apply(id, 100, 1, m0 + 1_000);
    book.apply(id, 105, 2, m0 + 30_000);
    book.apply(id, 99, 3, m0 + 59_999);
    book.apply(id, 101, 4, m0 + 60_000); // the next minute starts; nothing flushed yet
    book.apply(id, 50, 1, m0 - 5_000); // a late tick of an already closed minute is ignored
    book.flush();
    const rows = d
      .prepare(
        "SELECT time, open, high, low, close, volume FROM candles WHERE instrument_id = ? AND period = '1min' AND time >= ? ORDER BY time",
      )
      .all(id, m0);
    expect(rows).toEqual([
      { time: m0, open: 100, high: 105, low: 99, close: 99, volume: 6 },
      { time: m0 + 60_000, open: 101, high: 101, low: 101, close: 101, volume: 4 },
    ]);
    const five = book.last(id, "5min")!;
    expect(five.close).toBe(101);
    expect(five.high).toBeGreaterThanOrEqual(105);
  });
});

describe("manual feed", () => {
  it("sets prices by hand, fires onTick and records candles on the same path", () => {
    const d = db();
    const feed = createManualFeed(d);
    const got: Quote[][] = [];
    feed.onTick((c) => got.push(c));
    const q = feed.set("EURUSD", 1.123456);
    expect(q.price).toBe(1.12346);
    expect(got).toEqual([[q]]);
    feed.set("EURUSD", 1.2);
    feed.set("EURUSD", 1.1);
    const m = feed.book.last(q.id, "1min")!;
    expect([m.high, m.low, m.close]).toEqual([1.2, 1.1, 1.1]);
    const stored = d
      .prepare(
        "SELECT high, low, close FROM candles WHERE instrument_id = ? AND period = '1min' ORDER BY time DESC LIMIT 1",
      )
      .get(q.id);
    expect(stored).toEqual({ high: 1.2, low: 1.1, close: 1.1 });
    expect(feed.quote("EURUSD")!.price).toBe(1.1);
    expect(feed.quote(q.id)!.code).toBe("EURUSD");
    expect(() => feed.set("NOPE", 1)).toThrow();
    expect(() => feed.set("EURUSD", -1)).toThrow();
  });

  it("is open by default and can close one market", () => {
    const feed = createManualFeed(db());
    const saturday = Date.parse("2026-11-21T12:00:00Z");
    expect(feed.isOpen("EURUSD", saturday)).toBe(true);
    feed.setOpen("EURUSD", false);
    expect(feed.isOpen("EURUSD")).toBe(false);
    feed.setOpen("EURUSD", null);
    expect(feed.isOpen("EURUSD")).toBe(true);
    const real = createManualFeed(db(), { alwaysOpen: false });
    expect(real.isOpen("EURUSD", saturday)).toBe(false);
    expect(real.isOpen("BTCUSD", saturday)).toBe(true);
  });
});

describe("usdRate", () => {
  it("converts quote-currency amounts to USD at the current rate", () => {
    const feed = createManualFeed(db());
    feed.set("USDJPY", 150);
    feed.set("GBPUSD", 1.25);
    feed.set("USDCHF", 0.8);
    expect(usdRate(feed, "USD")).toBe(1);
    expect(usdRate(feed, "JPY")).toBeCloseTo(1 / 150, 12);
    expect(usdRate(feed, "gbp")).toBe(1.25);
    expect(usdRate(feed, "CHF")).toBeCloseTo(1.25, 12);
    expect(usdRate(feed, "XYZ")).toBeUndefined();
    // Every instrument's quote currency can be converted.
    for (const i of feed.instruments())
      expect(usdRate(feed, i.quote_currency), i.code).toBeGreaterThan(0);
  });
});

describe("candle retention", () => {
  it("keeps each period's own number of newest candles, and every day, week and month", () => {
    const d = db();
    ensureMarket(d, 1, Date.parse("2026-11-23T16:00:00Z"));
    const count = (period: string) =>
      (
        d.prepare("SELECT COUNT(*) n FROM candles WHERE period = ?").get(period) as {
          n: number;
        }
      ).n;
    const kept = { "1day": count("1day"), "1week": count("1week"), "1mon": count("1mon") };
    expect(kept["1week"]).toBeGreaterThan(0);
    expect(kept["1mon"]).toBeGreaterThan(0);
    const retention = {
      ...CANDLE_RETENTION,
      "1min": 250,
      "5min": 250,
      "15min": 250,
      "30min": 250,
      "60min": 250,
      "4hour": 80,
    };
    expect(pruneCandles(d, retention)).toBeGreaterThan(0);
    const counts = d
      .prepare(
        "SELECT period, MAX(n) mx, MIN(n) mn FROM (SELECT period, instrument_id, COUNT(*) n FROM candles GROUP BY 1, 2) AS per_instrument GROUP BY 1",
      )
      .all() as { period: keyof typeof retention; mx: number; mn: number }[];
    for (const c of counts) {
      const keep = retention[c.period];
      if (keep !== null) expect(c.mx, c.period).toBeLessThanOrEqual(keep);
    }
    expect(counts.find((c) => c.period === "4hour")?.mx).toBe(80);
    for (const p of ["1day", "1week", "1mon"] as const) expect(count(p), p).toBe(kept[p]);
    const newest = d
      .prepare("SELECT MAX(time) t FROM candles WHERE instrument_id = 1 AND period = '1min'")
      .get() as { t: number };
    expect(newest.t).toBeGreaterThan(Date.parse("2026-11-23T15:00:00Z"));
  });
});
