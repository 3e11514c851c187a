/**
 * The market simulator, the default PriceFeed: a seeded geometric random walk per instrument with its
 * yearly volatility, one step per open instrument every `tickMs`. Closed instruments do not tick.
 * Each tick is applied to the candles of every period (stored every few seconds in one transaction) and
 * the quotes carry the day's open, high, low, volume and change from the day's candle.
 *
 * On first start it seeds the default instruments and generates their history (upstream/engine/history.ts).
 */
import type { DB } from "../store/db.js";
import type { PriceFeed, Quote } from "./feed.js";
import { CandleBook, pruneCandles } from "./candles.js";
import { ensureMarket, createRng, sigmaPerMinute, volumePerMinute, type Rng } from "./history.js";
import { loadInstruments, roundTo, type InstrumentRow } from "./instruments.js";
import { alwaysOpenReader, sessionOpen } from "./market-hours.js";

/** A PriceFeed that also keeps candles: the market API reads forming candles from `book`. */
export interface MarketFeed extends PriceFeed {
  readonly book: CandleBook;
  /** Enabled instruments in display order. */
  instruments(): InstrumentRow[];
  instrument(codeOrId: string | number): InstrumentRow | undefined;
}

export interface SimulatorOptions {
  seed: number;
  tickMs: number;
  marketAlwaysOpen: boolean;
  /** When false, start() does not run the timer; tickOnce() still works. */
  simulate: boolean;
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

/** Shared by the simulator and the manual feed: instruments, candle book and quote building. */
export class MarketCore {
  readonly book: CandleBook;
  readonly list: InstrumentRow[];
  readonly byId = new Map<number, InstrumentRow>();
  readonly byCode = new Map<string, InstrumentRow>();
  readonly prices = new Map<number, { price: number; time: number }>();
  readonly listeners = new Set<(changed: Quote[]) => void>();
  readonly alwaysOpen: () => boolean;

  constructor(db: DB, configAlwaysOpen: boolean) {
    this.book = new CandleBook(db);
    this.list = loadInstruments(db);
    this.alwaysOpen = alwaysOpenReader(db, configAlwaysOpen);
    for (const inst of this.list) {
      this.byId.set(inst.id, inst);
      this.byCode.set(inst.code.toUpperCase(), inst);
      this.book.load(inst.id);
      const last = this.book.last(inst.id, "1min");
      this.prices.set(inst.id, last ? { price: last.close, time: last.time } : { price: inst.base_price, time: 0 });
    }
  }

  find(codeOrId: string | number): InstrumentRow | undefined {
    if (typeof codeOrId === "number") return this.byId.get(codeOrId);
    const s = String(codeOrId).trim();
    if (/^\d+$/.test(s)) return this.byId.get(Number(s));
    return this.byCode.get(s.toUpperCase());
  }

  isOpen(inst: InstrumentRow, at: number): boolean {
    return this.alwaysOpen() || sessionOpen(inst.session, at);
  }

  quote(inst: InstrumentRow): Quote {
    const p = this.prices.get(inst.id)!;
    const day = this.book.last(inst.id, "1day");
    const open = day?.open ?? p.price;
    const change = open > 0 ? Math.round(((p.price - open) / open) * 10000) / 100 : 0;
    return {
      id: inst.id,
      code: inst.code,
      price: p.price,
      open,
      high: day ? Math.max(day.high, p.price) : p.price,
      low: day ? Math.min(day.low, p.price) : p.price,
      volume: day ? Math.round(day.volume * 100) / 100 : 0,
      change,
      time: p.time,
    };
  }

  /** Records a trade price: candles of every period, then the last price. */
  record(inst: InstrumentRow, price: number, volume: number, time: number): Quote {
    this.book.apply(inst.id, price, volume, time);
    this.prices.set(inst.id, { price, time });
    return this.quote(inst);
  }

  emit(changed: Quote[]): void {
    if (changed.length === 0) return;
    for (const l of this.listeners) {
      try {
        l(changed);
      } catch (err) {
        // A failing consumer must not stop the market; it is reported and the others still run.
        console.error("price feed listener failed", err);
      }
    }
  }

  subscribe(listener: (changed: Quote[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function createSimulator(db: DB, opts: SimulatorOptions): Simulator {
  const prep = ensureMarket(db, opts.seed);
  const core = new MarketCore(db, opts.marketAlwaysOpen);
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
      core.book.flush();
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
    book: core.book,
    startupMs: prep.ms,
    instruments: () => core.list,
    instrument: (c) => core.find(c),
    quote(codeOrId) {
      const inst = core.find(codeOrId);
      return inst ? core.quote(inst) : undefined;
    },
    all: () => core.list.map((i) => core.quote(i)),
    onTick: (l) => core.subscribe(l),
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
      try {
        core.book.flush();
      } catch {
        // the store may already be closed
      }
    },
  };
}
