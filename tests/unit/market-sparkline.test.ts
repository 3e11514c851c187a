/**
 * The sparkline's points (upstream/modules/market/candles.ts sparklinePoints, served by
 * abbreviated_cache_kline): every point but the last is a candle that ended before the current
 * period, so the drawing the web makes of them changes only when a candle ends, whatever ticks,
 * flushes or a market's first tick of a period do. Driven on explicit times: no clock, no market.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openDb, type DB } from "../../upstream/platform/db.js";
import { ensureMarket } from "../../upstream/modules/market/history.js";
import {
  CandleBook,
  PERIOD_MS,
  readCandles,
  sparklinePoints,
} from "../../upstream/modules/market/candles.js";
import { loadInstruments } from "../../upstream/modules/market/instruments.js";

const HOUR = PERIOD_MS["60min"];
const T0 = Date.parse("2026-11-23T10:00:00Z");
const N = 5;

const dbs: DB[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()!.close();
});

/** A market without history and its candle book; ticks of one instrument at explicit times. */
function market() {
  const db = openDb(":memory:");
  dbs.push(db);
  ensureMarket(db, 1, T0, { history: false });
  const id = loadInstruments(db)[0].id;
  const book = new CandleBook(db);
  const stored = () => readCandles(db, id, "60min", N + 1);
  const points = (now: number) =>
    sparklinePoints(stored(), book.held(id, "60min"), "60min", now, N);
  return {
    db,
    id,
    book,
    points,
    tick: (price: number, at: number) => book.apply(id, price, 1, at),
  };
}

describe("sparkline points", () => {
  it("keep the ended candles' closes while ticks of the current hour move only the last point", () => {
    const m = market();
    for (let h = 0; h < 6; h++) m.tick(100 + h, T0 + h * HOUR + 60_000);
    m.book.flush();
    const now = T0 + 5 * HOUR + 120_000;
    expect(m.points(now)).toEqual([101, 102, 103, 104, 105]);
    m.tick(110, now);
    m.tick(111, now + 1000);
    expect(m.points(now + 2000)).toEqual([101, 102, 103, 104, 111]);
    // A flush writes the forming candle; the points are the same.
    m.book.flush();
    expect(m.points(now + 2000)).toEqual([101, 102, 103, 104, 111]);
  });

  it("move by one when the hour ends, with the ended candle's final close before any flush", () => {
    const m = market();
    for (let h = 0; h < 6; h++) m.tick(100 + h, T0 + h * HOUR + 60_000);
    m.book.flush();
    m.tick(107, T0 + 6 * HOUR - 1000); // the last tick of hour 5, never flushed
    const next = T0 + 6 * HOUR;
    // The hour has ended but no tick of the new one came yet: the price stays the last close.
    expect(m.points(next)).toEqual([102, 103, 104, 107, 107]);
    m.tick(108, next + 500);
    expect(m.points(next + 1000)).toEqual([102, 103, 104, 107, 108]);
    m.book.flush();
    expect(m.points(next + 1000)).toEqual([102, 103, 104, 107, 108]);
  });

  it("stay the same on a closed market and at its first tick after hours", () => {
    const m = market();
    for (let h = 0; h < 6; h++) m.tick(100 + h, T0 + h * HOUR + 60_000);
    m.book.flush();
    // Reopened from the store, as after a restart: the book holds the last (long ended) candle.
    const reopened = new CandleBook(m.db);
    reopened.load(m.id);
    const later = T0 + 30 * HOUR;
    const held = () => reopened.held(m.id, "60min");
    const pts = (now: number) =>
      sparklinePoints(readCandles(m.db, m.id, "60min", N + 1), held(), "60min", now, N);
    expect(pts(later)).toEqual([102, 103, 104, 105, 105]);
    reopened.apply(m.id, 120, 1, later + 10);
    expect(pts(later + 20)).toEqual([102, 103, 104, 105, 120]);
  });

  it("are the live price alone without history, and nothing without any price", () => {
    expect(sparklinePoints([], [], "60min", T0, N)).toEqual([]);
    expect(sparklinePoints([], [{ time: T0, close: 3 }], "60min", T0 + 5, N)).toEqual([3]);
  });
});
