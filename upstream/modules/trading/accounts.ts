/**
 * The trading accounts the engine holds in memory: each Account with its open positions, pending
 * orders and exact per-instrument aggregates, and per account slot the hot path's typed arrays
 * (float floating profit, touched-by-this-tick flags and list, dirty-for-push flags).
 */
import { dec, type Dec } from "../money/decimal.js";
import { BUY, type InstrumentSpec } from "./orders.js";
import type { Pos } from "./book.js";

export interface Account {
  userId: number;
  /** Slot in the typed arrays of the AccountTable. */
  idx: number;
  balanceMicro: number;
  usedMarginMicro: number;
  positions: Set<Pos>;
  pendings: Set<Pos>;
  /** Per instrument held: sum of signed units and of signed units x open price (exact), for the exact floating profit. */
  agg: Map<number, { inst: InstrumentSpec; netUnits: Dec; netCost: Dec; count: number }>;
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

  get(userId: number): Account | undefined {
    return this.byUser.get(userId);
  }

  /** Adds the account of a user with its current balance, growing the slot arrays when full. */
  add(userId: number, balanceMicro: number): Account {
    const idx = this.list.length;
    if (idx >= this.float.length) this.grow();
    const a: Account = {
      userId,
      idx,
      balanceMicro,
      usedMarginMicro: 0,
      positions: new Set(),
      pendings: new Set(),
      agg: new Map(),
    };
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
  }

  /** Lists the account as touched by the current tick (stop-out check) and marks its push due. */
  markTouched(a: Account): void {
    if (this.touched[a.idx] === 0) {
      this.touched[a.idx] = 1;
      this.touchedList[this.touchedN++] = a.idx;
    }
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
