/**
 * The 4-hour, weekly and monthly candles (contract/constants.ts periodStart): where each period
 * starts (weeks on Monday 00:00 UTC, calendar months UTC), and that the candle book's and the
 * generated history's candles of those periods are exactly the aggregate of their smaller candles.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openTestStore } from "../support/test-store.js";
import type { DB } from "../../upstream/platform/db.js";
import { CandleBook } from "../../upstream/modules/market/candles.js";
import { aggregate, historyCandles } from "../../upstream/modules/market/history.js";
import { loadInstruments, seedInstruments } from "../../upstream/modules/market/instruments.js";
import type { Candle } from "../../upstream/modules/market/candles-store.js";
import { PERIODS, periodStart, type Period } from "@contract/constants";

const at = (iso: string) => Date.parse(iso);

describe("periodStart", () => {
  it("starts 4-hour candles every 4 hours from 00:00 UTC", () => {
    expect(periodStart("4hour", at("2026-11-25T03:59:59.999Z"))).toBe(at("2026-11-25T00:00:00Z"));
    expect(periodStart("4hour", at("2026-11-25T04:00:00Z"))).toBe(at("2026-11-25T04:00:00Z"));
    expect(periodStart("4hour", at("2026-11-25T23:10:00Z"))).toBe(at("2026-11-25T20:00:00Z"));
  });

  it("starts a week on Monday 00:00 UTC", () => {
    // 2026-11-23 is a Monday; the Sunday evening before belongs to the week before.
    expect(periodStart("1week", at("2026-11-23T00:00:00Z"))).toBe(at("2026-11-23T00:00:00Z"));
    expect(periodStart("1week", at("2026-11-29T23:59:59.999Z"))).toBe(at("2026-11-23T00:00:00Z"));
    expect(periodStart("1week", at("2026-11-22T22:00:00Z"))).toBe(at("2026-11-16T00:00:00Z"));
    expect(periodStart("1week", at("1970-01-01T00:00:00Z"))).toBe(at("1969-12-29T00:00:00Z"));
    expect(new Date(periodStart("1week", at("2031-06-05T12:00:00Z"))).getUTCDay()).toBe(1);
  });

  it("starts a month on its first day 00:00 UTC, however long the month", () => {
    expect(periodStart("1mon", at("2028-02-29T23:59:59Z"))).toBe(at("2028-02-01T00:00:00Z"));
    expect(periodStart("1mon", at("2028-03-01T00:00:00Z"))).toBe(at("2028-03-01T00:00:00Z"));
    expect(periodStart("1mon", at("2026-12-31T23:59:59.999Z"))).toBe(at("2026-12-01T00:00:00Z"));
    expect(periodStart("1mon", at("2027-01-01T00:00:00Z"))).toBe(at("2027-01-01T00:00:00Z"));
  });

  it("keeps the other periods on their fixed lengths", () => {
    const t = at("2026-11-25T13:47:31.5Z");
    expect(periodStart("1min", t)).toBe(at("2026-11-25T13:47:00Z"));
    expect(periodStart("15min", t)).toBe(at("2026-11-25T13:45:00Z"));
    expect(periodStart("60min", t)).toBe(at("2026-11-25T13:00:00Z"));
    expect(periodStart("1day", t)).toBe(at("2026-11-25T00:00:00Z"));
  });
});

const dbs: DB[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()!.close();
});

/** A fixed walk of prices: deterministic, no randomness. */
function priceAt(i: number): number {
  return Math.round((1.1 + 0.01 * Math.sin(i / 7) + 0.004 * Math.cos(i / 3.3)) * 1e5) / 1e5;
}

function stored(db: DB, period: Period): Candle[] {
  return db
    .prepare(
      "SELECT time, open, high, low, close, volume FROM candles WHERE instrument_id = 1 AND period = ? ORDER BY time",
    )
    .all(period) as Candle[];
}

/**
 * OHLC and time exactly; volume within `volumeTolerance` (a stored volume is rounded to cents, so a
 * sum of rounded volumes may differ from the rounded sum by half a cent a candle).
 */
function sameCandles(actual: Candle[], expected: Candle[], volumeTolerance = 1e-9) {
  expect(actual.map(({ volume: _v, ...c }) => c)).toEqual(
    expected.map(({ volume: _v, ...c }) => c),
  );
  actual.forEach((c, i) =>
    expect(Math.abs(c.volume - expected[i].volume)).toBeLessThanOrEqual(volumeTolerance),
  );
}

describe("the candle book's longer periods", () => {
  it("are exactly the aggregate of its 1-minute candles, across week and month boundaries", () => {
    const db = openTestStore();
    dbs.push(db);
    seedInstruments(db);
    const book = new CandleBook(db);
    // Every 17 minutes from Wednesday 2026-10-21 to Friday 2026-12-04: months October to December,
    // seven Mondays, one tick with volume 0.25.
    const from = at("2026-10-21T09:03:00Z");
    const to = at("2026-12-04T18:00:00Z");
    let i = 0;
    for (let t = from; t < to; t += 17 * 60_000, i++) {
      book.apply(1, priceAt(i), 0.25, t);
      if (i % 50 === 0) book.flush();
    }
    book.flush();
    const minutes = stored(db, "1min");
    expect(minutes.length).toBe(i);
    for (const p of ["5min", "60min", "4hour", "1day", "1week", "1mon"] as const)
      sameCandles(stored(db, p), aggregate(minutes, p));
    expect(stored(db, "1mon").map((c) => new Date(c.time).toISOString())).toEqual([
      "2026-10-01T00:00:00.000Z",
      "2026-11-01T00:00:00.000Z",
      "2026-12-01T00:00:00.000Z",
    ]);
    expect(stored(db, "1week").every((c) => new Date(c.time).getUTCDay() === 1)).toBe(true);
    expect(stored(db, "1week")).toHaveLength(7);
  });
});

describe("the generated history's longer periods", () => {
  it("are exactly the aggregate of its hours (4 hours) and days (weeks, months)", () => {
    const db = openTestStore();
    dbs.push(db);
    seedInstruments(db);
    for (const inst of loadInstruments(db).slice(0, 3)) {
      const h = historyCandles(inst, 5, at("2026-11-25T10:30:00Z"));
      sameCandles(h["4hour"], aggregate(h["60min"], "4hour"), 0.02);
      sameCandles(h["1week"], aggregate(h["1day"], "1week"), 0.04);
      sameCandles(h["1mon"], aggregate(h["1day"], "1mon"), 0.16);
      for (const p of PERIODS) expect(h[p].length, `${inst.code} ${p}`).toBeGreaterThan(10);
    }
  });
});
