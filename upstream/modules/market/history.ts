/**
 * Deterministic price history for the simulator's first start: for every instrument without candles,
 * a geometric random walk is generated backwards from `now` (ending at the instrument's base price)
 * from the seed, over open market time only, in three resolutions:
 * - 1-minute steps for the last FINE_MINUTES open minutes (1min, 5min, 15min candles: >= 240 each);
 * - 30-minute steps before that until >= MIN_CANDLES 60min candles exist (30min, 60min candles);
 * - one step per trading day before that until >= MIN_CANDLES daily candles exist.
 * Only the newest KEEP candles of each period are stored. Everything is computed in memory and
 * written in one transaction.
 */
import type { DB } from "../../platform/db.js";
import { PERIODS, bucketStart, type Candle, type Period } from "./candles.js";
import { loadInstruments, roundTo, seedInstruments, type InstrumentRow } from "./instruments.js";
import { sessionOpen } from "./hours.js";
import { hasCandles, insertCandlesIfMissing } from "./candles-store.js";

export const FINE_MINUTES = 3_600;
export const MIN_CANDLES = 260;
export const KEEP = 500;
const MIN = 60_000;
const SLOT = 30 * MIN;
const DAY = 86_400_000;

// ---- seeded randomness ----------------------------------------------------------------------------

/** 32-bit hash of a string (cyrb53's mixing), used to derive independent streams from one seed. */
export function hash32(s: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal. */
  gauss(): number;
}

/** A small, fast seeded generator (mulberry32) with Box-Muller normals. */
export function createRng(seed: number, ...stream: string[]): Rng {
  let a = hash32(`${seed}:${stream.join(":")}`) || 1;
  let spare: number | null = null;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    gauss() {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      let u = 0;
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
  };
}

// ---- market parameters ----------------------------------------------------------------------------

/** Open minutes in a year per session: the time over which the yearly volatility accrues. */
export function openMinutesPerYear(session: string): number {
  if (session === "crypto") return 525_600;
  if (session === "us_stock") return 390 * 252;
  return 5 * 1440 * 52;
}

/** Trading days (days with an open session) in a year per session. */
function tradingDaysPerYear(session: string): number {
  if (session === "crypto") return 365;
  if (session === "us_stock") return 252;
  return 6 * 52; // Monday to Friday, plus Sunday evening
}

/** True when the session is open at some time of the UTC day starting at `dayStart`. */
function tradingDay(session: string, dayStart: number): boolean {
  return [12, 15, 22].some((h) => sessionOpen(session, dayStart + h * 3_600_000));
}

/** Volatility of one minute of open market (log-return standard deviation). */
export function sigmaPerMinute(inst: Pick<InstrumentRow, "volatility" | "session">): number {
  return inst.volatility / Math.sqrt(openMinutesPerYear(inst.session));
}

/** Typical traded volume (lots) per open minute, by category. */
export function volumePerMinute(inst: Pick<InstrumentRow, "category_id">): number {
  return (
    ({ 1: 150, 2: 60, 3: 90, 4: 70, 5: 40, 6: 25, 7: 30 } as Record<number, number>)[
      inst.category_id
    ] ?? 50
  );
}

// ---- generation -----------------------------------------------------------------------------------

/** Resolution of a generated bar: 1 minute, 30 minutes or a whole day. */
type Res = 0 | 1 | 2;
interface Bar extends Candle {
  res: Res;
}

function makeBar(
  rng: Rng,
  t: number,
  closeRaw: number,
  sigma: number,
  precision: number,
  volume: number,
  res: Res,
): { bar: Bar; openRaw: number } {
  const openRaw = closeRaw * Math.exp(sigma * rng.gauss());
  const hiRaw = Math.max(openRaw, closeRaw) * Math.exp(Math.abs(rng.gauss()) * sigma * 0.6);
  const loRaw = Math.min(openRaw, closeRaw) * Math.exp(-Math.abs(rng.gauss()) * sigma * 0.6);
  const open = roundTo(openRaw, precision);
  const close = roundTo(closeRaw, precision);
  const high = Math.max(roundTo(hiRaw, precision), open, close);
  const low = Math.min(roundTo(loRaw, precision), open, close);
  const vol = Math.round(volume * Math.exp(0.5 * rng.gauss() - 0.125) * 100) / 100;
  return { bar: { time: t, open, high, low, close, volume: vol, res }, openRaw };
}

/** Bars (ascending) of one instrument's generated history, ending before the minute of `now`. */
export function generateBars(inst: InstrumentRow, seed: number, now: number): Bar[] {
  const rng = createRng(seed, inst.code, "history");
  const sMin = sigmaPerMinute(inst);
  const s30 = sMin * Math.sqrt(30);
  const minutesPerDay = openMinutesPerYear(inst.session) / tradingDaysPerYear(inst.session);
  const sDay = sMin * Math.sqrt(minutesPerDay);
  const vMin = volumePerMinute(inst);
  const bars: Bar[] = [];
  let p = inst.base_price;
  const push = (t: number, sigma: number, volume: number, res: Res) => {
    const { bar, openRaw } = makeBar(rng, t, p, sigma, inst.price_precision, volume, res);
    bars.push(bar);
    p = openRaw;
  };
  // 1. One-minute steps.
  let t = Math.floor(now / MIN) * MIN - MIN;
  for (let n = 0; n < FINE_MINUTES; t -= MIN) {
    if (!sessionOpen(inst.session, t)) continue;
    push(t, sMin, vMin, 0);
    n++;
  }
  // 2. Thirty-minute steps until enough hours exist (the partly covered slot is left to the minutes).
  const hours = new Set<number>();
  for (const b of bars) hours.add(Math.floor(b.time / 3_600_000));
  let s = Math.floor((t + MIN) / SLOT) * SLOT - SLOT;
  for (let guard = 0; hours.size < MIN_CANDLES && guard < 400 * 48; guard++, s -= SLOT) {
    if (!sessionOpen(inst.session, s)) continue;
    push(s, s30, vMin * 30, 1);
    hours.add(Math.floor(s / 3_600_000));
  }
  // 3. Daily steps until enough days exist (the partly covered day is left to the finer steps).
  const days = new Set<number>();
  for (const b of bars) days.add(Math.floor(b.time / DAY));
  let d = Math.floor((s + SLOT) / DAY) * DAY - DAY;
  for (let guard = 0; days.size < MIN_CANDLES && guard < 800; guard++, d -= DAY) {
    if (!tradingDay(inst.session, d)) continue;
    push(d, sDay, vMin * minutesPerDay, 2);
    days.add(Math.floor(d / DAY));
  }
  return bars.reverse();
}

/**
 * Aggregates ascending bars into candles of a period (bars must not be longer than the period): the
 * first open, the highest high, the lowest low, the last close and the summed volume of the bars
 * starting in each candle.
 */
export function aggregate(bars: Candle[], period: Period): Candle[] {
  const out: Candle[] = [];
  let cur: Candle | undefined;
  for (const b of bars) {
    const start = bucketStart(period, b.time);
    if (!cur || cur.time !== start) {
      cur = {
        time: start,
        open: b.open,
        high: b.high,
        low: b.low,
        close: b.close,
        volume: b.volume,
      };
      out.push(cur);
    } else {
      if (b.high > cur.high) cur.high = b.high;
      if (b.low < cur.low) cur.low = b.low;
      cur.close = b.close;
      cur.volume += b.volume;
    }
  }
  for (const c of out) c.volume = Math.round(c.volume * 100) / 100;
  return out;
}

/** The generated bars a period is made of: minutes under 30 minutes, days from a day up. */
const SOURCE: Readonly<Record<Period, Res>> = {
  "1min": 0,
  "5min": 0,
  "15min": 0,
  "30min": 1,
  "60min": 1,
  "4hour": 1,
  "1day": 2,
  "1week": 2,
  "1mon": 2,
};

/** Candles of every period for one instrument's generated history (newest KEEP each). */
export function historyCandles(
  inst: InstrumentRow,
  seed: number,
  now: number,
): Record<Period, Candle[]> {
  const bars = generateBars(inst, seed, now);
  const out = {} as Record<Period, Candle[]>;
  for (const period of PERIODS) {
    const res = SOURCE[period];
    out[period] = aggregate(
      bars.filter((b) => b.res <= res),
      period,
    ).slice(-KEEP);
  }
  return out;
}

/**
 * Generates and stores history for every enabled instrument that has no candle yet (idempotent).
 * Returns the number of instruments it generated.
 */
export function generateHistory(
  db: DB,
  seed: number,
  now: number,
  instruments: InstrumentRow[] = loadInstruments(db),
): number {
  const todo = instruments.filter((i) => !hasCandles(db, { instrumentId: i.id }));
  if (todo.length === 0) return 0;
  const all = todo.map((inst) => ({ inst, candles: historyCandles(inst, seed, now) }));
  db.transaction(() => {
    for (const { inst, candles } of all) {
      // In primary-key order (period text sorts 15min, 1day, 1min, ...): appends instead of page splits.
      for (const period of [...PERIODS].sort())
        insertCandlesIfMissing(db, { instrumentId: inst.id, period, candles: candles[period] });
    }
  })();
  return todo.length;
}

/** First-start preparation of the market: default instruments, then history where missing. */
export function ensureMarket(
  db: DB,
  seed: number,
  now: number = Date.now(),
  opts: { history?: boolean } = {},
): { added: number; generated: number; ms: number } {
  const t0 = performance.now();
  const added = seedInstruments(db);
  const generated = opts.history === false ? 0 : generateHistory(db, seed, now);
  return { added, generated, ms: Math.round(performance.now() - t0) };
}
