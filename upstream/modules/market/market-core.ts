/**
 * What the simulator and the manual feed share: the MarketFeed interface, and MarketCore with the
 * instruments, the candle book, the last prices, quote building and the tick listeners.
 */
import type { DB } from "../../platform/db.js";
import type { PriceFeed, Quote } from "./feed.js";
import { CandleBook } from "./candles.js";
import { loadInstruments, type InstrumentRow } from "./instruments.js";
import { alwaysOpenReader, sessionOpen } from "./hours.js";

/** A PriceFeed that also keeps candles: the market API reads forming candles from `book`. */
export interface MarketFeed extends PriceFeed {
  readonly book: CandleBook;
  /** Enabled instruments in display order. */
  instruments(): InstrumentRow[];
  instrument(codeOrId: string | number): InstrumentRow | undefined;
}

/** A live quote handed to a new market: its instrument, last price and the tick's time (ms). */
export interface CarriedQuote {
  id: number;
  price: number;
  time: number;
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

  /**
   * `carried`: quotes a node already saw live (a standby's mirror when it takes over), used in
   * place of the store's last candle where they are newer: the store keeps a price with its
   * candle's start, up to a minute before the tick, which the stale rule would refuse until the
   * feed's next tick.
   */
  constructor(
    db: DB,
    configAlwaysOpen: boolean,
    o: { persistCandles?: boolean; carried?: readonly CarriedQuote[] } = {},
  ) {
    this.book = new CandleBook(db, { persist: o.persistCandles ?? true });
    this.list = loadInstruments(db);
    this.alwaysOpen = alwaysOpenReader(db, configAlwaysOpen);
    for (const inst of this.list) {
      this.byId.set(inst.id, inst);
      this.byCode.set(inst.code.toUpperCase(), inst);
      this.book.load(inst.id);
      const last = this.book.last(inst.id, "1min");
      this.prices.set(
        inst.id,
        last ? { price: last.close, time: last.time } : { price: inst.base_price, time: 0 },
      );
    }
    for (const q of o.carried ?? []) {
      const held = this.prices.get(q.id);
      if (held && q.price > 0 && q.time > held.time)
        this.prices.set(q.id, { price: q.price, time: q.time });
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

  /** The read side of a MarketFeed over this core; each feed adds its own isOpen, start and stop. */
  readers(): Pick<MarketFeed, "book" | "instruments" | "instrument" | "quote" | "all" | "onTick"> {
    return {
      book: this.book,
      instruments: () => this.list,
      instrument: (c) => this.find(c),
      quote: (codeOrId) => {
        const inst = this.find(codeOrId);
        return inst ? this.quote(inst) : undefined;
      },
      all: () => this.list.map((i) => this.quote(i)),
      onTick: (l) => this.subscribe(l),
    };
  }

  /** Writes the forming candles on stop; quiet when the store is already closed. */
  flushOnStop(): void {
    try {
      this.book.flush();
    } catch {
      // the store may already be closed
    }
  }
}
