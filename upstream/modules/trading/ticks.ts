/**
 * The tick: marks to market only the instruments that ticked (book.ts, no allocation per position),
 * collecting take-profit / stop-loss hits and the pending orders each price reaches, then books
 * them, and the stop-out of every account the tick touched, as one booking group (one commit).
 * When the group fails it rolls back whole and each booking is retried in its own transaction.
 *
 * Where the engine has a scheduler (the leader's sequencer, EngineCore.schedule), what a tick
 * reached is booked as a command of the next batch, like any user's command: the store is never
 * written around the sequencer, and a tick that closes many stops does not hold the event loop on
 * it. What the tick collected is kept by value (Reached) until then, and each booking checks again
 * that its order is still in the state the tick saw (a command before it may have closed it).
 */
import assert from "node:assert/strict";
import type { Quote } from "../market/feed.js";
import { MICRO } from "../money/decimal.js";
import { clearlyAboveFloor, type Account, type Book, type Pos, type StopHits } from "./book.js";
import { activate, closePosition, stopOut } from "./booking.js";
import type { EngineCore } from "./core.js";
import { ST_OPEN, ST_PENDING, pendingReached, type CloseReason } from "./orders.js";
import { marginLevelAtOrBelow } from "./risk.js";

export class Ticks {
  /** Take-profit / stop-loss hits of the tick (collected in the loop, booked after it). */
  private readonly hits: StopHits = { pos: [], price: [], reason: [] };
  /** Pending orders the tick reached, oldest first per instrument, and the price that reached each. */
  private readonly actPos: Pos[] = [];
  private readonly actPrice: number[] = [];
  /** Stops the tick's trailing pass newly flagged for the next flush (Book.sld). */
  private moved = 0;
  /** A flush of the moved stops is queued on the scheduler and has not run yet. */
  private flushQueued = false;
  /** Hear the accounts a tick moved to or near their equity floor (Engine.onEquityFloor). */
  private readonly floorListeners = new Set<(userIds: readonly number[]) => void>();
  /** The user ids of the tick's accounts at or near their floor (scratch: emptied each tick). */
  private readonly nearFloor: number[] = [];

  constructor(
    private readonly core: EngineCore,
    private readonly flush: () => void,
  ) {}

  /** Marks to market the instruments that ticked, then books TP/SL, pending activations and stop-outs. */
  onTick(changed: Quote[]): void {
    try {
      this.mark(changed);
      if (this.moved > 0) this.keepMoved();
      // Most ticks book nothing: no transaction then.
      const stopOutPct = this.core.settings().stopOutPct;
      if (this.hits.pos.length > 0 || this.actPos.length > 0 || this.anyAtStopOut(stopOutPct)) {
        const reached = this.reached();
        const schedule = this.core.schedule;
        if (schedule) schedule(() => this.bookAll(reached));
        else this.bookAll(reached);
      }
      if (this.floorListeners.size > 0) this.reportFloors();
    } finally {
      this.clear();
    }
  }

  /**
   * Queues the write of the stops the trailing pass moved (flagged in their books) once on the
   * scheduler: its batch writes every stop moved until it runs. Without one, writes them at once.
   */
  private keepMoved(): void {
    const schedule = this.core.schedule;
    if (!schedule) return this.flush();
    if (this.flushQueued) return;
    this.flushQueued = true;
    schedule(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  /** What the tick reached, by value: its scratch lists are emptied for the next tick. */
  private reached(): Reached {
    const { list, touchedList, touchedN } = this.core.held.accts;
    const touched: Account[] = [];
    for (let k = 0; k < touchedN; k++) touched.push(list[touchedList[k]]);
    return {
      hitPos: [...this.hits.pos],
      hitPrice: [...this.hits.price],
      hitReason: [...this.hits.reason],
      actPos: [...this.actPos],
      actPrice: [...this.actPrice],
      touched,
    };
  }

  /**
   * Marks every open position to the feed's current prices, booking nothing (the next tick of each
   * instrument books what its price reaches): each account's hot-path floating figure is then the
   * sum of its positions at the feed's prices, also for positions loaded before the feed.
   */
  markToFeed(): void {
    const { held, pricing } = this.core;
    const accts = held.accts;
    let tn = accts.touchedN;
    for (const book of held.books.values()) {
      if (book.n === 0) continue;
      const price = pricing.price(book.inst);
      const rate = pricing.usdRateF(book.inst);
      if (price !== null && price > 0 && Number.isFinite(rate))
        tn = book.mark(price, rate, accts, tn);
    }
    accts.touchedN = tn;
    this.clearTouched();
  }

  /** The hot loop over the instruments that ticked: marks, scans stops, collects reached orders. */
  private mark(changed: Quote[]): void {
    const { held, pricing } = this.core;
    const accts = held.accts;
    let tn = accts.touchedN;
    for (let k = 0; k < changed.length; k++) {
      const q = changed[k];
      const book = held.books.get(q.id);
      if (!book) continue;
      const p = q.price;
      if (!(p > 0)) continue;
      if (book.n > 0) {
        const rate = pricing.usdRateF(book.inst);
        if (Number.isFinite(rate)) {
          accts.touchedN = tn = book.mark(p, rate, accts, tn);
          if (book.trails > 0) this.moved += book.trailStops(p);
          if (book.mayHitStops(p)) book.scanStops(p, this.hits);
        }
      }
      this.collectReached(book, p);
    }
  }

  /** Only the pending orders `price` reaches are visited (book.ts PendingIndex); oldest first. */
  private collectReached(book: Book, price: number): void {
    const start = this.actPos.length;
    const reached = book.collectReached(price, this.actPos);
    if (reached > 1) sortById(this.actPos, start);
    for (let i = 0; i < reached; i++) {
      const p = this.actPos[start + i];
      assert(pendingReached(p.pendingKind!, p.originPrice, price));
      this.actPrice.push(price);
    }
  }

  /** Books what a tick reached as one group; when it fails, each booking on its own. */
  private bookAll(r: Reached): void {
    // The level as set when the booking runs (an operator may have changed it since the tick).
    const stopOutPct = this.core.settings().stopOutPct;
    try {
      this.core.tx.atomically(() => this.settle(r, stopOutPct, false));
    } catch (err) {
      // The group rolled back as a whole (store and memory); each booking then gets its own
      // transaction, so one failing order cannot hold back the others.
      this.core.log.error({ err }, "tick bookings rolled back as a group; booking them one by one");
      this.settle(r, stopOutPct, true);
    }
  }

  /**
   * Books what the tick reached, in order: take-profit / stop-loss closes at the tick's price,
   * pending orders activated at it, then stop-out of every account the tick touched. Grouped
   * (`isolated` false): inside the caller's one transaction, the first failure aborts the group.
   * Isolated: each booking in its own transaction, a failure logged and the rest booked.
   */
  private settle(r: Reached, stopOutPct: number, isolated: boolean): void {
    const core = this.core;
    // The accounts the tick touched, then those its bookings touched: each checked for stop-out.
    const touched = new Set(r.touched);
    const book = (what: string, ref: object, fn: () => void): void => {
      if (!isolated) return fn();
      try {
        core.tx.atomically(fn);
      } catch (err) {
        core.log.error({ err, ...ref }, `${what} failed`);
      }
    };
    for (let i = 0; i < r.hitPos.length; i++) {
      const pos = r.hitPos[i];
      if (pos.status !== ST_OPEN || pos.slot < 0) continue;
      // Like a pending order, a stop reached while its market is closed waits for an open tick.
      if (core.pricing.feed && !core.pricing.feed.isOpen(pos.inst.id)) continue;
      book("TP/SL close", { order: pos.id }, () => {
        closePosition(core, pos, r.hitPrice[i], r.hitReason[i]);
        touched.add(pos.acc);
        core.held.markDirty(pos.acc);
      });
    }
    for (let i = 0; i < r.actPos.length; i++) {
      const pos = r.actPos[i];
      if (pos.status !== ST_PENDING || pos.slot < 0) continue;
      book("pending activation", { order: pos.id }, () => {
        activate(core, pos, r.actPrice[i]);
        touched.add(pos.acc);
        core.held.markDirty(pos.acc);
      });
    }
    for (const a of touched) {
      if (this.atStopOut(a, stopOutPct))
        book("stop-out", { user: a.userId }, () => stopOut(core, a, stopOutPct));
    }
  }

  /** True when an account the tick touched is at or below the stop-out level (float figures). */
  private anyAtStopOut(stopOutPct: number): boolean {
    // The hot loop of every tick (one pass over the accounts it touched): what it reads is held
    // in locals, the test is atStopOut's, and nothing is allocated per account (no boxed level).
    const { touchedList, float, balanceMicro, usedMarginMicro, touchedN } = this.core.held.accts;
    const limit = lookLimitPct(stopOutPct);
    for (let k = 0; k < touchedN; k++) {
      const ai = touchedList[k];
      const equity = balanceMicro[ai] / MICRO + float[ai];
      if (marginLevelAtOrBelow(equity, usedMarginMicro[ai] / MICRO, limit)) return true;
    }
    return false;
  }

  /**
   * Tells the floor listeners the accounts this tick left at or near their equity floor by the
   * float figures (their exact check is the listener's). Only the accounts the tick touched can
   * have moved: between ticks an account's equity moves only by its own commands, which check it.
   * Nothing is allocated unless one is near.
   */
  private reportFloors(): void {
    const { touchedList, touchedN, float, balanceMicro, floorMicro, list } = this.core.held.accts;
    const near = this.nearFloor;
    for (let k = 0; k < touchedN; k++) {
      const ai = touchedList[k];
      const floor = floorMicro[ai];
      if (floor !== -Infinity && !clearlyAboveFloor(balanceMicro[ai], float[ai], floor))
        near.push(list[ai].userId);
    }
    if (near.length === 0) return;
    const userIds = near.slice();
    near.length = 0;
    for (const fn of this.floorListeners) fn(userIds);
  }

  /** Hears, after each tick, the accounts it left at or near their equity floor (user ids). */
  onEquityFloor(fn: (userIds: readonly number[]) => void): () => void {
    this.floorListeners.add(fn);
    return () => this.floorListeners.delete(fn);
  }

  /** The float margin level decides whether to look; the exact figures decide what to close. */
  private atStopOut(a: Account, stopOutPct: number): boolean {
    const equity = a.balanceMicro / MICRO + this.core.held.accts.float[a.idx];
    return marginLevelAtOrBelow(equity, a.usedMarginMicro / MICRO, lookLimitPct(stopOutPct));
  }

  /** Empties the tick's scratch lists for the next tick. */
  private clear(): void {
    const hits = this.hits;
    hits.pos.length = 0;
    hits.price.length = 0;
    hits.reason.length = 0;
    this.actPos.length = 0;
    this.actPrice.length = 0;
    this.moved = 0;
    this.clearTouched();
  }

  private clearTouched(): void {
    const accts = this.core.held.accts;
    for (let k = 0; k < accts.touchedN; k++) accts.touched[accts.touchedList[k]] = 0;
    accts.touchedN = 0;
  }
}

/**
 * What one tick reached, kept by value until it is booked: TP/SL hits with the price and reason
 * of each, pending orders with the price that reached each, and the accounts the tick marked.
 */
interface Reached {
  hitPos: Pos[];
  hitPrice: number[];
  hitReason: CloseReason[];
  actPos: Pos[];
  actPrice: number[];
  touched: Account[];
}

/** Sorts a[from..] by order id in place (the reached pending orders of one book: few). */
function sortById(a: Pos[], from: number): void {
  const tail = a.slice(from).sort((x, y) => x.id - y.id);
  for (let i = 0; i < tail.length; i++) a[from + i] = tail[i];
}

/**
 * The level below which the float figures send a tick to look closer: the stop-out level plus a
 * millionth of a percent, so an account exactly at its level in exact money, whose float level
 * rounds a hair above it, is still looked at (the exact figures then decide).
 */
function lookLimitPct(stopOutPct: number): number {
  return stopOutPct + 1e-6;
}
