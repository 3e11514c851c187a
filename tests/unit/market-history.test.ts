import { openTestStore } from "../support/test-store.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB } from "../../upstream/platform/db.js";
import { ensureMarket } from "../../upstream/modules/market/history.js";
import { PERIODS } from "../../upstream/modules/market/candles.js";
import { periodStart } from "@contract/constants";
import { sessionOpen } from "../../upstream/modules/market/hours.js";
import { LANGS } from "../../upstream/platform/i18n.js";

const NOW = Date.parse("2026-11-23T16:12:34Z"); // a Monday afternoon: every market open

interface Row {
  instrument_id: number;
  period: string;
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

function fresh(seed: number, now = NOW): { db: DB; ms: number } {
  const db = openTestStore();
  const r = ensureMarket(db, seed, now);
  return { db, ms: r.ms };
}

/**
 * One market, generated once for the file's read-only checks (a generation writes every candle of
 * every period of every instrument, a few seconds each); the determinism check generates its own.
 */
const SEED = 20261122;
let market: DB;
beforeAll(() => {
  market = fresh(SEED).db;
});
afterAll(() => market.close());

describe("instrument seed", () => {
  it("seeds at least 24 instruments in at least 6 categories, idempotently", () => {
    const db = market;
    const n = (db.prepare("SELECT COUNT(*) n FROM instruments").get() as { n: number }).n;
    const cats = (
      db.prepare("SELECT COUNT(DISTINCT category_id) n FROM instruments").get() as { n: number }
    ).n;
    expect(n).toBeGreaterThanOrEqual(24);
    expect(cats).toBeGreaterThanOrEqual(6);
    const again = ensureMarket(db, SEED, NOW);
    expect(again).toMatchObject({ added: 0, generated: 0 });
    expect((db.prepare("SELECT COUNT(*) n FROM instruments").get() as { n: number }).n).toBe(n);
  });

  it("names every category in all 15 languages", () => {
    const db = market;
    for (const r of db.prepare("SELECT names FROM categories").all() as { names: string }[]) {
      const names = JSON.parse(r.names) as Record<string, string>;
      for (const l of LANGS) expect(names[l], l).toBeTruthy();
      expect(names.hk).not.toBe(names.en);
      expect(names.jp).not.toBe(names.en);
    }
  });

  it("has realistic trading fields, and exactly one instrument without leverage options", () => {
    const db = market;
    const rows = db
      .prepare(
        "SELECT code, pip, min_lots, cont_num, multiples, quote_currency, price_precision FROM instruments",
      )
      .all() as Record<string, string | number>[];
    const eur = rows.find((r) => r.code === "EURUSD")!;
    expect(eur).toMatchObject({
      pip: "0.01",
      min_lots: "0.01",
      cont_num: "100000",
      price_precision: 5,
      quote_currency: "USD",
    });
    expect(rows.find((r) => r.code === "XAUUSD")!.cont_num).toBe("100");
    expect(rows.find((r) => r.code === "USDJPY")!.quote_currency).toBe("JPY");
    const empty = rows.filter((r) => JSON.parse(String(r.multiples)).length === 0);
    expect(empty).toHaveLength(1);
  });
});

describe("generated history", () => {
  it("stores at least 200 candles of every period up to a day for every instrument, and the 4-hour, weekly and monthly candles of that history", () => {
    const db = market;
    const counts = db
      .prepare("SELECT instrument_id, period, COUNT(*) n FROM candles GROUP BY 1, 2")
      .all() as { instrument_id: number; period: string; n: number }[];
    const insts = (db.prepare("SELECT COUNT(*) n FROM instruments").get() as { n: number }).n;
    expect(counts).toHaveLength(insts * PERIODS.length);
    // The longer periods hold what the same hours and days cover: 260 hours at least 60 4-hour
    // candles, the trading days (fewest for US stocks) at least 35 weeks and 9 months.
    const least: Record<string, number> = { "4hour": 60, "1week": 35, "1mon": 9 };
    for (const c of counts)
      expect(c.n, `${c.instrument_id} ${c.period}`).toBeGreaterThanOrEqual(least[c.period] ?? 200);
  });

  it("has consistent candles: OHLC bounds, aligned times, nothing in closed hours, newest close = base price", () => {
    const db = market;
    const insts = db.prepare("SELECT id, code, session, base_price FROM instruments").all() as {
      id: number;
      code: string;
      session: string;
      base_price: number;
    }[];
    const stmt = db.prepare(
      "SELECT * FROM candles WHERE instrument_id = ? AND period = ? ORDER BY time",
    );
    for (const inst of insts) {
      for (const p of PERIODS) {
        const rows = stmt.all(inst.id, p) as Row[];
        let prev = -Infinity;
        const bad: string[] = [];
        for (const c of rows) {
          const at = `${inst.code} ${p} ${new Date(c.time).toISOString()}`;
          if (!(c.low > 0)) bad.push(`${at}: low ${c.low}`);
          if (c.low > Math.min(c.open, c.close)) bad.push(`${at}: low above open/close`);
          if (c.high < Math.max(c.open, c.close)) bad.push(`${at}: high below open/close`);
          if (!(c.volume > 0)) bad.push(`${at}: no volume`);
          if (periodStart(p, c.time) !== c.time) bad.push(`${at}: not aligned`);
          if (c.time <= prev || c.time > NOW) bad.push(`${at}: out of order`);
          if (p === "1min" && !sessionOpen(inst.session, c.time)) bad.push(`${at}: market closed`);
          prev = c.time;
        }
        expect(bad).toEqual([]);
        expect(rows[rows.length - 1].close).toBeCloseTo(inst.base_price, 8);
      }
    }
  });

  it("aggregates consistently across periods (a day contains its hours, an hour its minutes)", () => {
    const db = market;
    const get = (id: number, p: string) =>
      db
        .prepare("SELECT * FROM candles WHERE instrument_id = ? AND period = ? ORDER BY time")
        .all(id, p) as Row[];
    for (const id of [1, 11, 20, 25]) {
      const hours = get(id, "60min");
      const days = get(id, "1day");
      const mins = get(id, "1min");
      const lastDay = days[days.length - 1];
      const inDay = hours.filter(
        (h) => h.time >= lastDay.time && h.time < lastDay.time + 86_400_000,
      );
      expect(inDay.length).toBeGreaterThan(0);
      expect(lastDay.high).toBeGreaterThanOrEqual(Math.max(...inDay.map((h) => h.high)));
      expect(lastDay.low).toBeLessThanOrEqual(Math.min(...inDay.map((h) => h.low)));
      const lastHour = hours[hours.length - 1];
      const inHour = mins.filter((m) => m.time >= lastHour.time);
      expect(lastHour.open).toBe(inHour[0].open);
      expect(lastHour.close).toBe(inHour[inHour.length - 1].close);
      expect(lastHour.high).toBe(Math.max(...inHour.map((m) => m.high)));
      expect(lastHour.low).toBe(Math.min(...inHour.map((m) => m.low)));
    }
  });

  it("is deterministic: the same seed gives the same history, another seed another", () => {
    const dump = (db: DB) =>
      JSON.stringify(
        db
          .prepare("SELECT * FROM candles ORDER BY instrument_id, period, time")
          .all()
          .map((r) => Object.values(r as object)),
      );
    const same = fresh(SEED);
    const other = fresh(SEED + 1);
    const expected = dump(market);
    expect(expected.length).toBeGreaterThan(1000);
    expect(dump(same.db) === expected).toBe(true);
    expect(dump(other.db) === expected).toBe(false);
    for (const x of [same, other]) x.db.close();
  });

  it("moves with a realistic volatility (EURUSD daily returns near 7.5% a year)", () => {
    const db = market;
    const days = db
      .prepare(
        "SELECT close FROM candles WHERE instrument_id = 1 AND period = '1day' ORDER BY time",
      )
      .all() as { close: number }[];
    const r = days.slice(1).map((d, i) => Math.log(d.close / days[i].close));
    const mean = r.reduce((s, x) => s + x, 0) / r.length;
    const sd = Math.sqrt(r.reduce((s, x) => s + (x - mean) ** 2, 0) / (r.length - 1));
    const yearly = sd * Math.sqrt(312);
    expect(yearly).toBeGreaterThan(0.04);
    expect(yearly).toBeLessThan(0.12);
  });
});
