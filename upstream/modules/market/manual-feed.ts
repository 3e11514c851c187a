/**
 * A PriceFeed whose prices are set by hand: tests (and the order engine's tests) drive prices with
 * `set(code, price)`, which records the tick on the same candle path as the simulator and fires
 * onTick synchronously. Same interface, same quotes, same candles: only the source of prices differs.
 *
 * By default every market is open (tests must not depend on the weekday); pass
 * `{ alwaysOpen: false }` for the real market hours, and `setOpen(code, false)` closes one market.
 */
import type { DB } from "../../platform/db.js";
import type { Quote } from "./feed.js";
import { ensureMarket } from "./history.js";
import { roundTo } from "./instruments.js";
import { MarketCore, type CarriedQuote, type MarketFeed } from "./market-core.js";

export interface ManualFeed extends MarketFeed {
  /**
   * Sets the price of an instrument (rounded to its PricePrecision) at time `at` (default now) and
   * fires onTick with its quote. Throws on an unknown code or a price that is not positive.
   */
  set(codeOrId: string | number, price: number, opts?: { at?: number; volume?: number }): Quote;
  /** Forces a market open (true) or closed (false); null returns it to the default rule. */
  setOpen(codeOrId: string | number, open: boolean | null): void;
}

export interface ManualFeedOptions {
  /** Default true: every market is open unless setOpen(code, false). */
  alwaysOpen?: boolean;
  /** Also generate price history on first use (default false: tests stay fast). */
  history?: boolean;
  seed?: number;
  /** Live quotes to start from where newer than the store's (MarketCore's `carried`). */
  carried?: readonly CarriedQuote[];
  /**
   * Default false: a price's candles are written inside `set`, so a test that reads the store, or
   * asks the node, right after a price sees them, and the bookings the tick queued are the first
   * commands after it. true: they are handed to the writer the caller gives the candle book
   * (`book.writeVia`, a leader's sequencer), as the simulator's ticks write theirs, so that a
   * tick does not wait for the store (bench:copy times a tick as a leader runs it).
   */
  candlesLater?: boolean;
}

export function createManualFeed(db: DB, opts: ManualFeedOptions = {}): ManualFeed {
  ensureMarket(db, opts.seed ?? 1, Date.now(), { history: opts.history ?? false });
  const core = new MarketCore(db, opts.alwaysOpen ?? true, { carried: opts.carried });
  const forced = new Map<number, boolean>();

  function must(codeOrId: string | number) {
    const inst = core.find(codeOrId);
    if (!inst) throw new Error(`unknown instrument ${codeOrId}`);
    return inst;
  }

  return {
    ...core.readers(),
    isOpen(codeOrId, at = Date.now()) {
      const inst = core.find(codeOrId);
      if (!inst) return false;
      return forced.get(inst.id) ?? core.isOpen(inst, at);
    },
    set(codeOrId, price, o = {}) {
      const inst = must(codeOrId);
      if (!(Number.isFinite(price) && price > 0)) throw new Error(`invalid price ${price}`);
      const q = core.record(
        inst,
        roundTo(price, inst.price_precision),
        o.volume ?? 1,
        o.at ?? Date.now(),
      );
      if (opts.candlesLater) core.book.flushLater();
      else core.book.flush();
      core.emit([q]);
      return q;
    },
    setOpen(codeOrId, open) {
      const inst = must(codeOrId);
      if (open === null) forced.delete(inst.id);
      else forced.set(inst.id, open);
    },
    start() {},
    stop() {
      core.flushOnStop();
    },
  };
}
