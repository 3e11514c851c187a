/**
 * The in-memory book of one instrument: its open positions in parallel typed arrays (the hot path of
 * a tick reads them with no allocation) and its pending orders in a list; plus Pos, one open position
 * or pending order as the engine holds it.
 */
import type { Dec } from "../money/decimal.js";
import { BUY, type CloseReason, type InstrumentSpec, type PendingKind } from "./orders.js";
import type { Account, AccountTable } from "./accounts.js";

/** An open position or pending order in memory. */
export interface Pos {
  id: number;
  userId: number;
  acc: Account;
  inst: InstrumentSpec;
  book: Book;
  orderType: number;
  status: number;
  pendingKind: PendingKind | null;
  lots: Dec;
  units: Dec;
  leverage: number;
  originPrice: number;
  openPrice: number;
  tp: number;
  sl: number;
  marginMicro: number;
  feeMicro: number;
  /** Index in the book's position arrays (open) or pending list (pending). */
  slot: number;
}

/** Positions whose take-profit or stop-loss a tick reached, with that price and which stop. */
export interface StopHits {
  pos: Pos[];
  price: number[];
  reason: CloseReason[];
}

/**
 * Per-instrument book: open positions in parallel typed arrays (account slot, signed units, open
 * price, TP, SL, last marked profit), pending orders in a list. Removal swaps the last row in.
 */
export class Book {
  n = 0;
  /** Positions with a TP or SL set: the stop scan of a tick is skipped while there are none. */
  stops = 0;
  pos: Pos[] = [];
  acc = new Int32Array(64);
  /** Units, positive for a buy, negative for a sell. */
  su = new Float64Array(64);
  open = new Float64Array(64);
  tp = new Float64Array(64);
  sl = new Float64Array(64);
  profit = new Float64Array(64);
  pending: Pos[] = [];
  constructor(public inst: InstrumentSpec) {}

  private grow(): void {
    const cap = this.acc.length * 2;
    const g = <T extends Int32Array | Float64Array>(a: T, C: new (n: number) => T): T => {
      const b = new C(cap);
      b.set(a);
      return b;
    };
    this.acc = g(this.acc, Int32Array);
    this.su = g(this.su, Float64Array);
    this.open = g(this.open, Float64Array);
    this.tp = g(this.tp, Float64Array);
    this.sl = g(this.sl, Float64Array);
    this.profit = g(this.profit, Float64Array);
  }

  /**
   * Trigger bounds over the book's stops: the lowest buy TP, highest buy SL, highest sell TP and
   * lowest sell SL. A tick whose price crosses none of them cannot hit any stop, so the per-position
   * scan runs only when one may trigger. Recomputed lazily after a removal or an edit.
   */
  private buyTpMin = Infinity;
  private buySlMax = -Infinity;
  private sellTpMax = -Infinity;
  private sellSlMin = Infinity;
  private boundsStale = false;

  private widen(su: number, tp: number, sl: number): void {
    if (su > 0) {
      if (tp > 0 && tp < this.buyTpMin) this.buyTpMin = tp;
      if (sl > 0 && sl > this.buySlMax) this.buySlMax = sl;
    } else {
      if (tp > 0 && tp > this.sellTpMax) this.sellTpMax = tp;
      if (sl > 0 && sl < this.sellSlMin) this.sellSlMin = sl;
    }
  }

  /** True when `p` may trigger a stop of this book (then scan it). */
  mayHitStops(p: number): boolean {
    if (this.stops === 0) return false;
    if (this.boundsStale) {
      this.buyTpMin = this.sellSlMin = Infinity;
      this.buySlMax = this.sellTpMax = -Infinity;
      for (let i = 0; i < this.n; i++) this.widen(this.su[i], this.tp[i], this.sl[i]);
      this.boundsStale = false;
    }
    return p >= this.buyTpMin || p <= this.buySlMax || p <= this.sellTpMax || p >= this.sellSlMin;
  }

  add(p: Pos, profit: number): void {
    if (this.n === this.acc.length) this.grow();
    const i = this.n++;
    this.pos[i] = p;
    this.acc[i] = p.acc.idx;
    this.su[i] = p.orderType === BUY ? p.units.toNumber() : -p.units.toNumber();
    this.open[i] = p.openPrice;
    this.tp[i] = p.tp;
    this.sl[i] = p.sl;
    this.profit[i] = profit;
    if (p.tp > 0 || p.sl > 0) {
      this.stops++;
      this.widen(this.su[i], p.tp, p.sl);
    }
    p.slot = i;
  }

  setStops(p: Pos, tp: number, sl: number): void {
    const had = this.tp[p.slot] > 0 || this.sl[p.slot] > 0;
    this.tp[p.slot] = tp;
    this.sl[p.slot] = sl;
    this.stops += (tp > 0 || sl > 0 ? 1 : 0) - (had ? 1 : 0);
    this.boundsStale = true;
  }

  remove(p: Pos): void {
    const i = p.slot;
    if (this.tp[i] > 0 || this.sl[i] > 0) {
      this.stops--;
      this.boundsStale = true;
    }
    const last = --this.n;
    if (i !== last) {
      const q = this.pos[last];
      this.pos[i] = q;
      this.acc[i] = this.acc[last];
      this.su[i] = this.su[last];
      this.open[i] = this.open[last];
      this.tp[i] = this.tp[last];
      this.sl[i] = this.sl[last];
      this.profit[i] = this.profit[last];
      q.slot = i;
    }
    this.pos.length = this.n;
    p.slot = -1;
  }

  /**
   * The hot loop: marks every position at price `p` (USD rate `rate`), moving each account's float
   * accumulator by the change and listing the accounts touched (from index `tn`; returns the new
   * count). No allocation.
   */
  mark(p: number, rate: number, accts: AccountTable, tn: number): number {
    const acc = this.acc,
      su = this.su,
      open = this.open,
      profit = this.profit,
      n = this.n;
    const accFloat = accts.float,
      touched = accts.touched,
      touchedList = accts.touchedList,
      dirty = accts.dirty;
    for (let i = 0; i < n; i++) {
      const pr = (p - open[i]) * su[i] * rate;
      const ai = acc[i];
      accFloat[ai] += pr - profit[i];
      profit[i] = pr;
      if (touched[ai] === 0) {
        touched[ai] = 1;
        touchedList[tn++] = ai;
        dirty[ai] = 1;
      }
    }
    return tn;
  }

  /** Collects into `hits` the positions whose take-profit or stop-loss `p` reaches. */
  scanStops(p: number, hits: StopHits): void {
    const su = this.su,
      tp = this.tp,
      sl = this.sl,
      n = this.n;
    for (let i = 0; i < n; i++) {
      const t = tp[i];
      const s = sl[i];
      if (t === 0 && s === 0) continue;
      const reason =
        su[i] > 0
          ? t > 0 && p >= t
            ? "take_profit"
            : s > 0 && p <= s
              ? "stop_loss"
              : null
          : t > 0 && p <= t
            ? "take_profit"
            : s > 0 && p >= s
              ? "stop_loss"
              : null;
      if (reason !== null) {
        hits.pos.push(this.pos[i]);
        hits.price.push(p);
        hits.reason.push(reason);
      }
    }
  }

  addPending(p: Pos): void {
    p.slot = this.pending.length;
    this.pending.push(p);
  }

  removePending(p: Pos): void {
    const i = p.slot;
    const last = this.pending.pop()!;
    if (last !== p) {
      this.pending[i] = last;
      last.slot = i;
    }
    p.slot = -1;
  }
}
