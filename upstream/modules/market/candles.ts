/**
 * Candles of every period of PERIODS (1min to 1mon), aggregated from ticks and stored in the
 * `candles` table (time = candle start in ms, UTC; a day starts at 00:00 UTC, a week on Monday
 * 00:00 UTC, a month on its first day: contract/constants.ts periodStart).
 *
 * CandleBook keeps the forming candle of every instrument and period in memory, applies each tick
 * to all of them, and writes the candles that changed with `flush()` in one transaction (each
 * changed candle once, by multi-row upserts; never one write per tick per period). The simulator
 * flushes every few seconds; readers merge the in-memory forming candle (`last`) over the stored
 * ones.
 */
import { PERIOD_MS, PERIODS, isPeriod, periodStart, type Period } from "@contract/constants";
import type { DB } from "../../platform/db.js";
import { newestCandle, newestCandles, pruneCandlesBeyond, upsertCandles } from "./candles-store.js";
import { instrumentIds } from "./store.js";

export { PERIOD_MS, PERIODS, isPeriod, type Period };

/** The start of the candle of `period` holding time `t` (contract/constants.ts periodStart). */
export const bucketStart = periodStart;

export type { Candle } from "./candles-store.js";
import type { Candle } from "./candles-store.js";

export interface FormingCandle extends Candle {
  period: Period;
}

export class CandleBook {
  /** instrument id -> candles in PERIODS order (undefined until the first candle exists). */
  private readonly forming = new Map<number, (Candle | undefined)[]>();
  /**
   * instrument id -> the candle each period closed last, in PERIODS order: its final close is held
   * here until its stored copy is certain to have it (it is written at the next flush).
   */
  private readonly closed = new Map<number, (Candle | undefined)[]>();
  private readonly lastTick = new Map<number, number>();
  private readonly dirty = new Map<string, { id: number; period: Period; c: Candle }>();
  /** Runs flushLater()'s write (writeVia); none: at once. */
  private writer: ((write: () => void) => Promise<void>) | null = null;
  /** A write handed to `writer` and not yet run: later flushes join it. */
  private writeQueued = false;

  /**
   * `persist: false` keeps the candles in memory only (a standby node mirroring the leader's
   * market, which writes them): flush() then forgets what changed instead of writing it.
   */
  constructor(
    private readonly db: DB,
    private readonly o: { persist: boolean } = { persist: true },
  ) {}

  /** Loads the latest stored candle of every period of an instrument (it continues if still forming). */
  load(id: number): void {
    const row: (Candle | undefined)[] = PERIODS.map((p) => {
      const c = newestCandle(this.db, { instrumentId: id, period: p });
      return c ? { ...c } : undefined;
    });
    this.forming.set(id, row);
  }

  /** Applies one trade price (with its volume) at time t to every period's forming candle. */
  apply(id: number, price: number, volume: number, t: number): void {
    // A tick older than the instrument's last one (out of order) changes no candle.
    if (t < (this.lastTick.get(id) ?? -Infinity)) return;
    this.lastTick.set(id, t);
    let row = this.forming.get(id);
    if (!row) {
      row = PERIODS.map(() => undefined);
      this.forming.set(id, row);
    }
    for (let i = 0; i < PERIODS.length; i++) {
      const period = PERIODS[i];
      const start = bucketStart(period, t);
      let c = row[i];
      if (c && start < c.time) continue; // older than the stored candle (clock moved back): ignored
      if (!c || start > c.time) {
        if (c) {
          let closedRow = this.closed.get(id);
          if (!closedRow) this.closed.set(id, (closedRow = PERIODS.map(() => undefined)));
          closedRow[i] = c;
        }
        c = { time: start, open: price, high: price, low: price, close: price, volume: 0 };
        row[i] = c;
      }
      if (price > c.high) c.high = price;
      if (price < c.low) c.low = price;
      c.close = price;
      c.volume += volume;
      // Keyed by the candle's start too: a candle that just closed is still written at the next flush.
      this.dirty.set(`${id}|${period}|${c.time}`, { id, period, c });
    }
  }

  /** The latest candle of each period (the forming one while its period runs), in PERIODS order. */
  current(id: number): FormingCandle[] {
    const row = this.forming.get(id);
    if (!row) return [];
    const out: FormingCandle[] = [];
    row.forEach((c, i) => {
      if (c) out.push({ period: PERIODS[i], ...c });
    });
    return out;
  }

  /** The latest candle of one period. */
  last(id: number, period: Period): Candle | undefined {
    return this.forming.get(id)?.[PERIODS.indexOf(period)];
  }

  /** The candles of one period the book holds in memory (the one closed last, the latest), by time. */
  held(id: number, period: Period): Candle[] {
    const i = PERIODS.indexOf(period);
    const out: Candle[] = [];
    const before = this.closed.get(id)?.[i];
    const latest = this.forming.get(id)?.[i];
    if (before) out.push(before);
    if (latest && latest !== before) out.push(latest);
    return out;
  }

  /**
   * Hands the writes of flushLater() to `run` (the leader's sequencer: a command of its own,
   * written with its batch), so that the simulator's flush every few seconds does not hold the
   * event loop: on PostgreSQL a transaction outside a batch is a round trip per statement and a
   * commit, about 15 ms every five seconds. `run` settles once the write ran or was refused (and
   * reports its failure itself).
   */
  writeVia(run: (write: () => void) => Promise<void>): void {
    this.writer = run;
  }

  /**
   * Writes every candle changed since the last write, at once, in one transaction of a few
   * multi-row statements (upsertCandles): a reader of the store sees them when it returns.
   */
  flush(): void {
    if (this.dirty.size === 0) return;
    const items = [...this.dirty.values()];
    this.dirty.clear();
    if (!this.o.persist) return;
    const candles = items.map(({ id, period, c }) => ({
      instrumentId: id,
      period,
      time: c.time,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume: round2(c.volume),
    }));
    this.db.transaction(() => upsertCandles(this.db, candles))();
  }

  /**
   * As flush(), through the writer when there is one (writeVia): one write waits at a time and
   * takes, when it runs, every candle changed until then. For the simulator's periodic flush,
   * whose readers merge the forming candles held here (last) over the stored ones.
   */
  flushLater(): void {
    if (!this.writer) return this.flush();
    if (this.dirty.size === 0 || this.writeQueued) return;
    this.writeQueued = true;
    let ran = false;
    void this.writer(() => {
      ran = true;
      this.writeQueued = false;
      this.flush();
    }).finally(() => {
      // Refused without running (the sequencer stopped): a later flush hands its write again.
      if (!ran) this.writeQueued = false;
    });
  }
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Reads up to `limit` stored candles of one period, ascending by time. */
export function readCandles(db: DB, id: number, period: Period, limit: number): Candle[] {
  return newestCandles(db, { instrumentId: id, period, limit }).reverse();
}

/**
 * Retention, per period: how many of the newest candles of each instrument are kept (null: all).
 * The API serves at most 300, so the store stays small however long it runs; 2,000 4-hour candles
 * are about 16 months of a 24-hour market. Days, weeks and months are all kept (a few hundred rows
 * a year per instrument).
 */
export const CANDLE_RETENTION: Readonly<Record<Period, number | null>> = {
  "1min": 2_000,
  "5min": 2_000,
  "15min": 2_000,
  "30min": 2_000,
  "60min": 2_000,
  "4hour": 2_000,
  "1day": null,
  "1week": null,
  "1mon": null,
};

/** Deletes, per instrument, the candles of each period beyond its retention. */
export function pruneCandles(
  db: DB,
  retention: Readonly<Record<Period, number | null>> = CANDLE_RETENTION,
): number {
  const ids = instrumentIds(db);
  let n = 0;
  db.transaction(() => {
    for (const id of ids)
      for (const p of PERIODS) {
        const keep = retention[p];
        if (keep !== null) n += pruneCandlesBeyond(db, { instrumentId: id, period: p, keep });
      }
  })();
  return n;
}

/**
 * A sparkline's points at time `nowMs`: the closes of the `count - 1` latest candles that ended
 * before the period of `nowMs` began, oldest first, then the current price (the close of the candle
 * forming now, or the last close when none forms yet, as on a closed market).
 *
 * Holds: everything but the last point changes only when a candle ends (when `nowMs` enters another
 * period), never with a tick, a flush or a market's first tick of a period. `stored` are candles as
 * read from the table (any order); `held` the book's in-memory copies, which win over them.
 */
export function sparklinePoints(
  stored: readonly { time: number; close: number }[],
  held: readonly { time: number; close: number }[],
  period: Period,
  nowMs: number,
  count: number,
): number[] {
  const current = bucketStart(period, nowMs);
  const closeAt = new Map<number, number>();
  for (const c of stored) closeAt.set(c.time, c.close);
  for (const c of held) closeAt.set(c.time, c.close);
  const times = [...closeAt.keys()].sort((a, b) => a - b);
  const ended = times.filter((t) => t < current).slice(-(count - 1));
  const points = ended.map((t) => closeAt.get(t)!);
  const formingTime = times.find((t) => t >= current);
  const live = formingTime !== undefined ? closeAt.get(formingTime)! : points[points.length - 1];
  if (live !== undefined) points.push(live);
  return points;
}
