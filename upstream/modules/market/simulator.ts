/**
 * The market simulator, the default PriceFeed: a seeded geometric random walk per instrument with its
 * yearly volatility, one step per open instrument every `tickMs`. Closed instruments do not tick.
 * Each tick is applied to the candles of every period (stored every few seconds in one transaction) and
 * the quotes carry the day's open, high, low, volume and change from the day's candle.
 *
 * On first start it seeds the default instruments and generates their history (history.ts).
 */
import type { DB } from "../../platform/db.js";
import type { Quote } from "./feed.js";
import { pruneCandles } from "./candles.js";
import { ensureMarket, createRng, sigmaPerMinute, volumePerMinute, type Rng } from "./history.js";
import { roundTo, type InstrumentRow } from "./instruments.js";
import { sessionOpen } from "./hours.js";
import { MarketCore, type CarriedQuote, type MarketFeed } from "./market-core.js";

export interface SimulatorOptions {
  seed: number;
  tickMs: number;
  marketAlwaysOpen: boolean;
  /** When false, start() does not run the timer; tickOnce() still works. */
  simulate: boolean;
  /** Live quotes to start from where newer than the store's (MarketCore's `carried`). */
  carried?: readonly CarriedQuote[];
}

export interface Simulator extends MarketFeed {
  /** Runs one tick at `now` (default the clock) and returns the quotes that changed. */
  tickOnce(now?: number): Quote[];
  /** Milliseconds the first-start preparation (seed + history) took. */
  readonly startupMs: number;
}

const FLUSH_MS = 5_000;
const PRUNE_MS = 3_600_000;

interface State {
  inst: InstrumentRow;
  raw: number;
  time: number;
  rng: Rng;
  sigmaTick: number;
  volTick: number;
}

export function createSimulator(db: DB, opts: SimulatorOptions): Simulator {
  const prep = ensureMarket(db, opts.seed);
  const core = new MarketCore(db, opts.marketAlwaysOpen, { carried: opts.carried });
  const tickMs = Math.max(10, opts.tickMs);
  const states = new Map<number, State>();
  for (const inst of core.list) {
    const p = core.prices.get(inst.id)!;
    states.set(inst.id, {
      inst,
      raw: p.price,
      time: p.time,
      rng: createRng(opts.seed, inst.code, "live"),
      sigmaTick: sigmaPerMinute(inst) * Math.sqrt(tickMs / 60_000),
      volTick: volumePerMinute(inst) * (tickMs / 60_000),
    });
  }
  let timer: NodeJS.Timeout | null = null;
  // Candles are written every FLUSH_MS of tick time (and on stop), not on every tick: each flush
  // rewrites one page per instrument and period, and the API reads the forming candles from memory.
  let lastFlush = -Infinity;
  let lastPrune = Date.now();

  function tickOnce(now: number = Date.now()): Quote[] {
    const changed: Quote[] = [];
    const always = core.alwaysOpen();
    for (const st of states.values()) {
      if (!always && !sessionOpen(st.inst.session, now)) continue;
      st.raw *= Math.exp(st.sigmaTick * st.rng.gauss());
      const price = roundTo(st.raw, st.inst.price_precision);
      const volume = Math.round(st.volTick * Math.exp(0.6 * st.rng.gauss() - 0.18) * 100) / 100;
      changed.push(core.record(st.inst, price, volume, now));
    }
    if (now - lastFlush >= FLUSH_MS || now < lastFlush) {
      core.book.flushLater();
      lastFlush = now;
    }
    if (now - lastPrune >= PRUNE_MS || now < lastPrune) {
      pruneCandles(db);
      lastPrune = now;
    }
    core.emit(changed);
    return changed;
  }

  return {
    ...core.readers(),
    startupMs: prep.ms,
    isOpen(codeOrId, at = Date.now()) {
      const inst = core.find(codeOrId);
      return inst ? core.isOpen(inst, at) : false;
    },
    tickOnce,
    start() {
      if (timer || !opts.simulate) return;
      timer = setInterval(() => {
        try {
          tickOnce();
        } catch (err) {
          console.error("simulator tick failed", err);
        }
      }, tickMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      core.flushOnStop();
    },
  };
}
