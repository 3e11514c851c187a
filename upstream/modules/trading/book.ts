/**
 * What the engine holds in memory, in one file because each part refers to the others: the trading
 * accounts (each Account with its open positions, pending orders and exact per-instrument
 * aggregates, and per account slot the hot path's typed arrays: float floating profit,
 * touched-by-this-tick flags and list, dirty-for-push flags); the book of one instrument (its open
 * positions in parallel typed arrays, which a tick reads with no allocation, and its pending orders
 * indexed by trigger price); and Pos, one open position or pending order.
 */
import assert from "node:assert/strict";
import { dec, type Dec } from "../money/decimal.js";
import { BUY, ST_OPEN, type CloseReason, type InstrumentSpec, type PendingKind } from "./orders.js";

/**
 * A trading account in memory. Its balance and used margin (integer micro-USD, exact in a double up
 * to 2^53) are kept in the AccountTable's typed arrays at the account's slot, read and written through
 * these accessors: the tick's stop-out look reads them for thousands of accounts from two contiguous
 * arrays instead of two objects per account scattered over the heap.
 */
export class Account {
  /**
   * The locked balance (withdrawals under review): read from the store the first time it is asked
   * for, then kept current by the money service's announcements (undefined until then).
   */
  lockMicro: number | undefined = undefined;
  readonly positions = new Set<Pos>();
  readonly pendings = new Set<Pos>();
  /** Per instrument held: sum of signed units and of signed units x open price (exact), for the exact floating profit. */
  readonly agg = new Map<
    number,
    { inst: InstrumentSpec; netUnits: Dec; netCost: Dec; count: number }
  >();

  constructor(
    readonly userId: number,
    /** Slot in the typed arrays of the AccountTable. */
    readonly idx: number,
    private readonly table: AccountTable,
  ) {}

  get balanceMicro(): number {
    return this.table.balanceMicro[this.idx];
  }
  set balanceMicro(v: number) {
    assert(Number.isSafeInteger(v), `balance of user ${this.userId} not whole micro-USD: ${v}`);
    this.table.balanceMicro[this.idx] = v;
  }
  get usedMarginMicro(): number {
    return this.table.usedMarginMicro[this.idx];
  }
  set usedMarginMicro(v: number) {
    assert(Number.isSafeInteger(v), `used margin of user ${this.userId} not whole micro-USD: ${v}`);
    this.table.usedMarginMicro[this.idx] = v;
  }
}

/**
 * The safety band around a figure computed from the hot path's float floating profit: 1 USD plus
 * 1 % of the floating profit (micro-USD), far above float error and cross-rate drift between
 * ticks. A float figure beyond the band decides a check at once; within it, the exact figure does.
 */
export function floatBandMicro(floatingMicro: number): number {
  return 1e6 + Math.abs(floatingMicro) * 0.01;
}

/**
 * True when an equity of `balanceMicro` plus a float floating profit of `floatUsd` (the account's
 * AccountTable.float) is above `floorMicro` by the float band: clearly above, no exact figure
 * needed. Otherwise the caller decides with the exact equity.
 */
export function clearlyAboveFloor(
  balanceMicro: number,
  floatUsd: number,
  floorMicro: number,
): boolean {
  const floatingMicro = floatUsd * 1e6;
  return balanceMicro + floatingMicro - floatBandMicro(floatingMicro) > floorMicro;
}

/**
 * Fast path of a free-margin check: true when free margin computed from the hot path's float
 * floating profit (`floatUsd`, the account's AccountTable.float) exceeds `needMicro` by the float
 * band. Otherwise the caller decides with the exact figure, so the outcome is always the exact
 * rule's.
 */
export function clearlyAffordable(
  a: Account,
  floatUsd: number,
  balanceMicro: number,
  needMicro: number,
): boolean {
  if (a.positions.size === 0) return balanceMicro >= needMicro;
  const floatingMicro = floatUsd * 1e6;
  return (
    balanceMicro + floatingMicro - a.usedMarginMicro - floatBandMicro(floatingMicro) >= needMicro
  );
}

export class AccountTable {
  readonly byUser = new Map<number, Account>();
  readonly list: Account[] = [];

  /** Per account slot: floating profit (float USD) of the hot path. */
  float = new Float64Array(256);
  /** Per account slot: 1 while the slot is listed in touchedList for the current tick. */
  touched = new Uint8Array(256);
  touchedList = new Int32Array(256);
  touchedN = 0;
  /** Per account slot: 1 when the FOREX_TRADE push of the account is due. */
  dirty = new Uint8Array(256);
  /** Per account slot: balance and used margin, integer micro-USD (Account's accessors). */
  balanceMicro = new Float64Array(256);
  usedMarginMicro = new Float64Array(256);
  /**
   * Per account slot: the equity floor, integer micro-USD, that a tick reports the account near or
   * below (Ticks, Engine.onEquityFloor); -Infinity where the account has none.
   */
  floorMicro = new Float64Array(256).fill(-Infinity);
  /** The floors by user, also of accounts not held yet: a slot takes its floor when it is added. */
  private readonly floors = new Map<number, number>();

  get(userId: number): Account | undefined {
    return this.byUser.get(userId);
  }

  /** Adds the account of a user with its current balance, growing the slot arrays when full. */
  add(userId: number, balanceMicro: number): Account {
    const idx = this.list.length;
    if (idx >= this.float.length) this.grow();
    const a = new Account(userId, idx, this);
    a.balanceMicro = balanceMicro;
    a.usedMarginMicro = 0;
    this.floorMicro[idx] = this.floors.get(userId) ?? -Infinity;
    this.byUser.set(userId, a);
    this.list.push(a);
    return a;
  }

  private grow(): void {
    const cap = this.float.length * 2;
    const f = new Float64Array(cap);
    f.set(this.float);
    this.float = f;
    const t = new Uint8Array(cap);
    t.set(this.touched);
    this.touched = t;
    const tl = new Int32Array(cap);
    tl.set(this.touchedList);
    this.touchedList = tl;
    const d = new Uint8Array(cap);
    d.set(this.dirty);
    this.dirty = d;
    const b = new Float64Array(cap);
    b.set(this.balanceMicro);
    this.balanceMicro = b;
    const u = new Float64Array(cap);
    u.set(this.usedMarginMicro);
    this.usedMarginMicro = u;
    const fl = new Float64Array(cap).fill(-Infinity);
    fl.set(this.floorMicro);
    this.floorMicro = fl;
  }

  /** Sets the equity floor of `userId`'s account (integer micro-USD), or clears it (null). */
  setFloor(userId: number, floorMicro: number | null): void {
    assert(floorMicro === null || Number.isSafeInteger(floorMicro), "a floor in whole micro-USD");
    if (floorMicro === null) this.floors.delete(userId);
    else this.floors.set(userId, floorMicro);
    const a = this.byUser.get(userId);
    if (a) this.floorMicro[a.idx] = floorMicro ?? -Infinity;
  }

  /** Lists the account as touched by the current tick (stop-out check) and marks its push due. */
  markTouched(a: Account): void {
    if (this.touched[a.idx] === 0) {
      this.touched[a.idx] = 1;
      this.touchedList[this.touchedN++] = a.idx;
    }
    this.dirty[a.idx] = 1;
  }

  /**
   * A position with last marked profit `profit` (USD) joined (or, negative, left) the account:
   * its float accumulator moves by it. An account of at most REFLOAT_UP_TO positions is summed
   * again instead (no drift, and an account left with none has exactly 0); a larger one moves
   * in O(1), as a tick moves it: recomputing on every order made opening the n-th position cost
   * n (0.9 s of a 10 s bench with a thousand positions per account).
   */
  moveFloat(a: Account, profit: number): void {
    if (a.positions.size <= REFLOAT_UP_TO) return this.refloat(a);
    this.float[a.idx] += profit;
    this.dirty[a.idx] = 1;
  }

  /** Recomputes an account's float accumulator from its positions' last marked profits (no drift). */
  refloat(a: Account): void {
    let s = 0;
    for (const p of a.positions) s += p.book.profit[p.slot];
    this.float[a.idx] = s;
    this.dirty[a.idx] = 1;
  }
}

/** Accounts with at most this many open positions have their float summed again on each change. */
const REFLOAT_UP_TO = 32;

/** Adds (sign 1) or removes (sign -1) an open position to or from its account's exact aggregates. */
export function aggregate(p: Pos, sign: 1 | -1): void {
  const signed = p.orderType === BUY ? p.units : p.units.neg();
  const du = sign === 1 ? signed : signed.neg();
  const dc = du.mul(dec(p.openPrice));
  const g = p.acc.agg.get(p.inst.id);
  if (!g) {
    p.acc.agg.set(p.inst.id, { inst: p.inst, netUnits: du, netCost: dc, count: 1 });
    return;
  }
  g.count += sign;
  if (g.count === 0) p.acc.agg.delete(p.inst.id);
  else {
    g.netUnits = g.netUnits.plus(du);
    g.netCost = g.netCost.plus(dc);
  }
}

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
  /** When the order was placed (epoch ms): its answers need no read of the store. */
  createdAt: number;
  /** When the position opened (epoch ms); 0 while pending. */
  openedAt: number;
  /** Trailing stop and break-even (model.ts Trail): price distances, 0 not set. */
  trail: number;
  trailAct: number;
  breakEven: number;
  /** A pending order's expiry (epoch ms); null: until cancelled. */
  expiresAt: number | null;
  /**
   * Its stop was moved by a tick (trailing, break-even) and is not yet written to the store. While
   * the position is in its book, the book holds this flag and the stop (Book.sld, Book.sl: the tick
   * writes only those); the Pos takes them back when it leaves the book (Book.remove) or when the
   * moved stops are written (Book.clearMovedStops). Read the stop with stopLossOf.
   */
  slDirty: boolean;
  /** Index in the book's position arrays (open); 0 while indexed as pending; -1 when in neither. */
  slot: number;
}

/**
 * A position's stop after a tick at `price` by its trailing stop and break-even (docs/trading-rules.md
 * "Trailing stops and break-even"): the stop only ever moves in the position's favour, to the entry
 * once the profit reaches `be`, and to `trail` behind the price once the profit reaches `act` (at
 * once when 0), rounded to the instrument's decimals (`scale` = 10^precision). Returns `sl` when it
 * does not move. `buy` is the position's side; 0 for a distance means not set. Plain numbers in and
 * out: the tick calls it for every trailing position (a closure or an object here cost 60 times
 * as much).
 */
export function trailedStop(
  buy: boolean,
  price: number,
  open: number,
  sl: number,
  trail: number,
  act: number,
  be: number,
  scale: number,
): number {
  let next = sl;
  // The profit distance in whole points: a float difference of two prices is not exact.
  const gain = Math.round((buy ? price - open : open - price) * scale);
  if (be > 0 && gain >= Math.round(be * scale) && (next === 0 || (buy ? next < open : next > open)))
    next = open;
  if (trail > 0 && (act === 0 || gain >= Math.round(act * scale))) {
    const c = Math.round((buy ? price - trail : price + trail) * scale) / scale;
    if (c > 0 && (next === 0 || (buy ? c > next : c < next))) next = c;
  }
  return next;
}

/**
 * An order's stop loss now (0: none): an open position's from its book, where the tick moves a
 * trailing stop; otherwise the order's own.
 */
export function stopLossOf(p: Pos): number {
  return p.status === ST_OPEN && p.slot >= 0 ? p.book.sl[p.slot] : p.sl;
}

/** Positions whose take-profit or stop-loss a tick reached, with that price and which stop. */
export interface StopHits {
  pos: Pos[];
  price: number[];
  reason: CloseReason[];
}

/** True for the pending kinds a rising price reaches (price >= target): buy stop, sell limit. */
export function reachedRising(kind: PendingKind): boolean {
  return kind === "buy_stop" || kind === "sell_limit";
}

/**
 * Pending orders of one trigger direction sorted by (target price, id). Invariant: `items` is
 * strictly increasing by that key, so the orders a price reaches are one contiguous run at an end
 * (a prefix when rising, a suffix when falling), found by binary search.
 */
export class PendingIndex {
  readonly items: Pos[] = [];

  /** First index whose key is >= (price, id). */
  private lowerBound(price: number, id: number): number {
    const a = this.items;
    let lo = 0,
      hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = a[mid];
      if (m.originPrice < price || (m.originPrice === price && m.id < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(p: Pos): void {
    const i = this.lowerBound(p.originPrice, p.id);
    assert(this.items[i] !== p, `pending order ${p.id} indexed twice`);
    this.items.splice(i, 0, p);
  }

  remove(p: Pos): void {
    const i = this.lowerBound(p.originPrice, p.id);
    assert(this.items[i] === p, `pending order ${p.id} missing from its index`);
    this.items.splice(i, 1);
  }

  /** Number of orders with target <= price (the run a rising price reaches: targets at or below it). */
  countAtOrBelow(price: number): number {
    return this.lowerBound(price, Infinity);
  }

  /** Index of the first order with target >= price (the run a falling price reaches starts there). */
  firstAtOrAbove(price: number): number {
    return this.lowerBound(price, -Infinity);
  }
}

/**
 * Per-instrument book: open positions in parallel typed arrays (account slot, signed units, open
 * price, TP, SL, last marked profit), pending orders in two price indexes by trigger direction.
 * Removal of a position swaps the last row in.
 */
export class Book {
  n = 0;
  /** Positions with a TP or SL set: the stop scan of a tick is skipped while there are none. */
  stops = 0;
  /** Positions with a trailing stop or break-even: the trailing pass of a tick is skipped while none. */
  trails = 0;
  /**
   * The highest price every buy's trailing stop and break-even has been moved at, and the lowest
   * for the sells'. A stop's next place only rises with the price for a buy (falls for a sell), so
   * a tick at or below buyPeak cannot move any buy's stop, nor one at or above sellTrough any
   * sell's: the trailing pass then skips that side. Forgotten (reset) when a position with a
   * trailing stop or break-even enters, or one's settings or stop change by hand.
   */
  private buyPeak = -Infinity;
  private sellTrough = Infinity;

  /** Every trailing position is to be looked at by the next tick (see buyPeak). */
  private forgetPeaks(): void {
    this.buyPeak = -Infinity;
    this.sellTrough = Infinity;
  }
  pos: Pos[] = [];
  acc = new Int32Array(64);
  /** Units, positive for a buy, negative for a sell. */
  su = new Float64Array(64);
  open = new Float64Array(64);
  tp = new Float64Array(64);
  sl = new Float64Array(64);
  profit = new Float64Array(64);
  /** Trailing distance, its activation and break-even distance (0: not set). */
  trail = new Float64Array(64);
  trailAct = new Float64Array(64);
  be = new Float64Array(64);
  /** 1 where a tick moved the stop and the store does not have it yet (Pos.slDirty); how many. */
  sld = new Uint8Array(64);
  movedStops = 0;
  /** Pending orders reached when the price rises to their target (buy stop, sell limit). */
  readonly rising = new PendingIndex();
  /** Pending orders reached when the price falls to their target (buy limit, sell stop). */
  readonly falling = new PendingIndex();
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
    this.trail = g(this.trail, Float64Array);
    this.trailAct = g(this.trailAct, Float64Array);
    this.be = g(this.be, Float64Array);
    const d = new Uint8Array(cap);
    d.set(this.sld);
    this.sld = d;
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
    this.trail[i] = p.trail;
    this.trailAct[i] = p.trailAct;
    this.be[i] = p.breakEven;
    // A stop moved and not yet written stays so (a partial close takes a position out and back).
    this.sld[i] = p.slDirty ? 1 : 0;
    if (p.slDirty) {
      this.movedStops++;
      p.slDirty = false;
    }
    if (p.trail > 0 || p.breakEven > 0) {
      this.trails++;
      this.forgetPeaks();
    }
    if (p.tp > 0 || p.sl > 0) {
      this.stops++;
      this.widen(this.su[i], p.tp, p.sl);
    }
    p.slot = i;
  }

  /** New trailing stop and break-even of an open position (0: not set). */
  setTrail(p: Pos, trail: number, act: number, be: number): void {
    const i = p.slot;
    const had = this.trail[i] > 0 || this.be[i] > 0;
    this.trail[i] = trail;
    this.trailAct[i] = act;
    this.be[i] = be;
    this.trails += (trail > 0 || be > 0 ? 1 : 0) - (had ? 1 : 0);
    this.forgetPeaks();
  }

  /**
   * The trailing pass of a tick at price `p`: moves each trailing or break-even stop the price
   * carries in its position's favour (trailedStop) in the book's arrays only, flagging it for the
   * store's next write (sld); returns how many stops were newly flagged. Positions without either
   * are skipped on one comparison.
   */
  trailStops(p: number): number {
    // Everything the loop reads or writes is a local: a property read first met on a rare path
    // (a stop set for the first time) would deoptimise the loop each time it is met. Nothing here
    // reads a Pos: the moved positions' objects, scattered over the heap, cost a cache miss each.
    const su = this.su,
      open = this.open,
      sl = this.sl,
      tp = this.tp,
      trail = this.trail,
      act = this.trailAct,
      be = this.be,
      sld = this.sld,
      n = this.n;
    const up = p > this.buyPeak;
    const down = p < this.sellTrough;
    if (!up && !down) return 0;
    const scale = 10 ** this.inst.precision;
    let added = 0;
    let flagged = 0;
    let buySlMax = this.buySlMax;
    let sellSlMin = this.sellSlMin;
    for (let i = 0; i < n; i++) {
      if (trail[i] === 0 && be[i] === 0) continue;
      const buy = su[i] > 0;
      if (buy ? !up : !down) continue;
      const was = sl[i];
      const next = trailedStop(buy, p, open[i], was, trail[i], act[i], be[i], scale);
      if (next === was) continue;
      sl[i] = next;
      if (was === 0 && tp[i] === 0) added++;
      // The stop bounds widen as widen() widens them (a moved stop is only ever nearer the price).
      if (buy) {
        if (next > buySlMax) buySlMax = next;
      } else if (next < sellSlMin) sellSlMin = next;
      // Flagged once until the store takes it, however many ticks move it meanwhile.
      if (sld[i] === 0) {
        sld[i] = 1;
        flagged++;
      }
    }
    this.stops += added;
    this.movedStops += flagged;
    this.buySlMax = buySlMax;
    this.sellSlMin = sellSlMin;
    if (up) this.buyPeak = p;
    if (down) this.sellTrough = p;
    return flagged;
  }

  /** Appends the flagged moved stops (sld) to `out`, as the store writes them. */
  collectMovedStops(out: { id: number; stopLoss: number }[]): void {
    if (this.movedStops === 0) return;
    for (let i = 0; i < this.n; i++)
      if (this.sld[i] === 1) out.push({ id: this.pos[i].id, stopLoss: this.sl[i] });
  }

  /** The store has the moved stops: each Pos takes its stop, and the flags are cleared. */
  clearMovedStops(): void {
    if (this.movedStops === 0) return;
    for (let i = 0; i < this.n; i++)
      if (this.sld[i] === 1) {
        this.pos[i].sl = this.sl[i];
        this.sld[i] = 0;
      }
    this.movedStops = 0;
  }

  setStops(p: Pos, tp: number, sl: number): void {
    const had = this.tp[p.slot] > 0 || this.sl[p.slot] > 0;
    this.tp[p.slot] = tp;
    this.sl[p.slot] = sl;
    this.stops += (tp > 0 || sl > 0 ? 1 : 0) - (had ? 1 : 0);
    this.boundsStale = true;
    // A stop set by hand is where a trailing stop continues from.
    if (this.trail[p.slot] > 0 || this.be[p.slot] > 0) this.forgetPeaks();
  }

  remove(p: Pos): void {
    const i = p.slot;
    if (this.tp[i] > 0 || this.sl[i] > 0) {
      this.stops--;
      this.boundsStale = true;
    }
    if (this.trail[i] > 0 || this.be[i] > 0) this.trails--;
    // The Pos leaves with its stop as the book holds it, and the flag of a stop not yet written.
    p.sl = this.sl[i];
    if (this.sld[i] === 1) {
      p.slDirty = true;
      this.movedStops--;
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
      this.trail[i] = this.trail[last];
      this.trailAct[i] = this.trailAct[last];
      this.be[i] = this.be[last];
      this.sld[i] = this.sld[last];
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
        // A stop that trails is the trailing stop's, wherever it stands now.
        const r = reason === "stop_loss" && this.trail[i] > 0 ? "trailing_stop" : reason;
        hits.pos.push(this.pos[i]);
        hits.price.push(p);
        hits.reason.push(r);
      }
    }
  }

  get pendingCount(): number {
    return this.rising.items.length + this.falling.items.length;
  }

  addPending(p: Pos): void {
    assert(p.pendingKind !== null && p.slot === -1, `order ${p.id} is not a free pending order`);
    (reachedRising(p.pendingKind) ? this.rising : this.falling).add(p);
    p.slot = 0;
  }

  removePending(p: Pos): void {
    assert(p.pendingKind !== null && p.slot === 0, `order ${p.id} is not an indexed pending order`);
    (reachedRising(p.pendingKind) ? this.rising : this.falling).remove(p);
    p.slot = -1;
  }

  /**
   * Appends to `out` the pending orders `price` reaches (pendingReached of orders.ts), visiting only
   * those: the rising index's prefix with target <= price, the falling index's suffix with target
   * >= price. Returns how many were appended.
   */
  collectReached(price: number, out: Pos[]): number {
    const start = out.length;
    const up = this.rising.items;
    const nUp = this.rising.countAtOrBelow(price);
    for (let i = 0; i < nUp; i++) out.push(up[i]);
    const down = this.falling.items;
    for (let i = this.falling.firstAtOrAbove(price); i < down.length; i++) out.push(down[i]);
    return out.length - start;
  }
}
