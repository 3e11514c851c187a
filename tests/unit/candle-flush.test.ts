/**
 * The candle book's flush (candles.ts, candles-store.ts upsertCandles): every candle changed since
 * the last flush written once, by multi-row upserts, whatever their number; a stored candle of the
 * same instrument, period and start replaced with the book's; the simulator's flushLater handing
 * its write to the leader's sequencer (writeVia). Runs on SQLite and on PostgreSQL
 * (unit-postgres), where the upsert's ON CONFLICT is the store's own behaviour, and where a flush
 * was a round trip per candle on the event loop.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openTestStore } from "../support/test-store.js";
import type { DB } from "../../upstream/platform/db.js";
import { CandleBook, bucketStart } from "../../upstream/modules/market/candles.js";
import { createManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { ROWS_PER_STATEMENT } from "../../upstream/platform/store/multi-row.js";

const dbs: DB[] = [];
afterEach(() => {
  while (dbs.length) dbs.pop()!.close();
});

/** A store with the instruments, and the id of one of them. */
function market(): { d: DB; id: number } {
  const d = openTestStore();
  dbs.push(d);
  const feed = createManualFeed(d);
  const id = feed.quote("EURUSD")!.id;
  feed.stop();
  return { d, id };
}

type Row = { time: number; open: number; high: number; low: number; close: number; volume: number };

function stored(d: DB, id: number, period: string, from: number): Row[] {
  return (
    d
      .prepare(
        `SELECT time, open, high, low, close, volume FROM candles
         WHERE instrument_id = ? AND period = ? AND time >= ? ORDER BY time`,
      )
      .all(id, period, from) as Row[]
  ).map((r) => ({ ...r, time: Number(r.time) }));
}

// A day ahead of the history a store may hold, on a whole hour: its minutes are this test's own.
const hourAhead = () => bucketStart("60min", Date.now()) + 24 * 3_600_000;

describe("candle flush", () => {
  it("writes every candle changed since the last flush once, more than one statement's rows", () => {
    const { d, id } = market();
    const book = new CandleBook(d);
    book.load(id);
    const m0 = hourAhead();
    const minutes = ROWS_PER_STATEMENT * 2 + 37;
    // One tick a minute: each minute's candle closes with the next (and is still written).
    for (let k = 0; k < minutes; k++) book.apply(id, 1 + k / 10_000, 2, m0 + k * 60_000 + 1_000);
    book.flush();
    const ones = stored(d, id, "1min", m0);
    expect(ones).toHaveLength(minutes);
    expect(ones[0]).toEqual({ time: m0, open: 1, high: 1, low: 1, close: 1, volume: 2 });
    const last = 1 + (minutes - 1) / 10_000;
    expect(ones.at(-1)).toEqual({
      time: m0 + (minutes - 1) * 60_000,
      open: last,
      high: last,
      low: last,
      close: last,
      volume: 2,
    });
    // The longer periods hold the same ticks: every five minutes' candle, its volume their sum.
    const fives = stored(d, id, "5min", m0);
    expect(fives).toHaveLength(Math.ceil(minutes / 5));
    expect(fives[0]).toMatchObject({ time: m0, open: 1, close: 1.0004, volume: 10 });
  });

  it("replaces a stored candle with the book's at the next flush, leaving the others as they were", () => {
    const { d, id } = market();
    const book = new CandleBook(d);
    book.load(id);
    const m0 = hourAhead();
    book.apply(id, 1.5, 1, m0 + 1_000);
    book.apply(id, 1.4, 1, m0 + 61_000);
    book.flush();
    // The second minute moves on; the first is closed and unchanged.
    book.apply(id, 1.7, 3, m0 + 62_000);
    book.apply(id, 1.3, 1, m0 + 63_000);
    book.flush();
    expect(stored(d, id, "1min", m0)).toEqual([
      { time: m0, open: 1.5, high: 1.5, low: 1.5, close: 1.5, volume: 1 },
      { time: m0 + 60_000, open: 1.4, high: 1.7, low: 1.3, close: 1.3, volume: 5 },
    ]);
    expect(stored(d, id, "60min", m0)).toEqual([
      { time: m0, open: 1.5, high: 1.7, low: 1.3, close: 1.3, volume: 6 },
    ]);
  });

  it("hands flushLater's write to the writer, one at a time, taking what changed until it runs", async () => {
    const { d, id } = market();
    const book = new CandleBook(d);
    book.load(id);
    const m0 = hourAhead();
    const handed: (() => void)[] = [];
    let refuse = false;
    book.writeVia((write) => {
      if (refuse) return Promise.resolve();
      handed.push(write);
      return Promise.resolve();
    });
    book.apply(id, 1.5, 1, m0 + 1_000);
    book.flushLater();
    book.apply(id, 1.6, 1, m0 + 61_000);
    book.flushLater(); // joins the write waiting
    expect(handed).toHaveLength(1);
    expect(stored(d, id, "1min", m0)).toEqual([]);
    handed[0]();
    expect(stored(d, id, "1min", m0).map((r) => r.close)).toEqual([1.5, 1.6]);
    // A write refused without running (the sequencer stopped) lets a later flush hand one again.
    book.apply(id, 1.7, 1, m0 + 62_000);
    refuse = true;
    book.flushLater();
    await Promise.resolve();
    refuse = false;
    book.flushLater();
    expect(handed).toHaveLength(2);
    // flush() writes at once, writer or not (the manual feed's prices, the simulator's stop).
    book.flush();
    expect(stored(d, id, "1min", m0).map((r) => r.close)).toEqual([1.5, 1.7]);
    handed[1](); // nothing changed since: writes nothing
    expect(stored(d, id, "1min", m0).map((r) => r.close)).toEqual([1.5, 1.7]);
  });
});
