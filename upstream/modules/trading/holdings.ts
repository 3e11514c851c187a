/**
 * What the engine holds in memory: per instrument its Book (book.ts), the loaded accounts
 * (accounts.ts) and every live order by id. Each change goes through a method here that keeps the
 * three in step and records its inverse (Transactions.undoable), so a booking group that fails
 * leaves memory as it found it. A lifecycle move (fill, close, cancel) asserts its transition.
 */
import assert from "node:assert/strict";
import { type Account, AccountTable, Book, type Pos, aggregate } from "./book.js";
import type { Pricing } from "./pricing.js";
import {
  BUY,
  ST_CANCELLED,
  ST_CLOSED,
  ST_OPEN,
  ST_PENDING,
  type InstrumentSpec,
} from "./orders.js";
import { assertOpenAmounts, assertPrice, assertTransition } from "./invariants.js";
import type { Dec } from "../money/decimal.js";

export class Holdings {
  readonly books = new Map<number, Book>();
  /** Loaded accounts, with the hot path's per-account typed arrays. */
  readonly accts = new AccountTable();
  /** Every pending order and open position in memory, by id. */
  readonly orders = new Map<number, Pos>();
  /** Pending orders with an expiry: the expiry sweep reads only these. */
  readonly expiring = new Set<Pos>();

  constructor(
    private readonly pricing: Pricing,
    private readonly undoable: (step: () => void) => void,
  ) {}

  book(inst: InstrumentSpec): Book {
    let b = this.books.get(inst.id);
    if (!b) this.books.set(inst.id, (b = new Book(inst)));
    return b;
  }

  /** A live order entering memory (a new one, or one loaded from the store) as its status says. */
  enter(p: Pos): void {
    assert(!this.orders.has(p.id), `order ${p.id} held twice`);
    if (p.status === ST_OPEN) this.addOpen(p);
    else if (p.status === ST_PENDING) this.addPending(p);
    else assert.fail(`order ${p.id} of status ${p.status} is not live`);
  }

  /** A pending order filled at `price`: it leaves the pending index and opens with its amounts. */
  fill(p: Pos, price: number, marginMicro: number, feeMicro: number, at: number): void {
    assertTransition(p.id, p.status, ST_OPEN);
    assertPrice(price, `fill of order ${p.id}`);
    assertOpenAmounts(marginMicro, feeMicro);
    this.removePending(p);
    const was = {
      status: p.status,
      openPrice: p.openPrice,
      margin: p.marginMicro,
      fee: p.feeMicro,
      openedAt: p.openedAt,
    };
    this.undoable(() => {
      p.status = was.status;
      p.openPrice = was.openPrice;
      p.marginMicro = was.margin;
      p.feeMicro = was.fee;
      p.openedAt = was.openedAt;
    });
    p.openedAt = at;
    p.openPrice = price;
    p.marginMicro = marginMicro;
    p.feeMicro = feeMicro;
    this.addOpen(p);
  }

  /** An open position closed: it leaves its book and account. */
  close(p: Pos): void {
    assertTransition(p.id, p.status, ST_CLOSED);
    this.removeOpen(p);
    this.setStatus(p, ST_CLOSED);
  }

  /** A pending order cancelled: it leaves the pending index. */
  cancel(p: Pos): void {
    assertTransition(p.id, p.status, ST_CANCELLED);
    this.removePending(p);
    this.setStatus(p, ST_CANCELLED);
  }

  /** New take-profit / stop-loss of a live order (0: not set). */
  setStops(p: Pos, tp: number, sl: number): void {
    p.tp = tp;
    p.sl = sl;
    if (p.status === ST_OPEN) p.book.setStops(p, tp, sl);
    this.accts.dirty[p.acc.idx] = 1;
  }

  /** New trailing stop and break-even of a live order (0: not set). */
  setTrail(p: Pos, trail: number, act: number, be: number): void {
    p.trail = trail;
    p.trailAct = act;
    p.breakEven = be;
    if (p.status === ST_OPEN) p.book.setTrail(p, trail, act, be);
    this.accts.dirty[p.acc.idx] = 1;
  }

  /**
   * An open position made smaller by a partial close: it leaves its book and account with its
   * old size and enters again with the new lots, units, margin and fee (undoable as a whole).
   */
  resize(p: Pos, to: { lots: Dec; units: Dec; marginMicro: number; feeMicro: number }): void {
    assertOpenAmounts(to.marginMicro, to.feeMicro);
    assert(to.lots.gt(0) && to.lots.lt(p.lots), `order ${p.id} resized to ${to.lots.toString()}`);
    this.removeOpen(p);
    const was = { lots: p.lots, units: p.units, margin: p.marginMicro, fee: p.feeMicro };
    this.undoable(() => {
      p.lots = was.lots;
      p.units = was.units;
      p.marginMicro = was.margin;
      p.feeMicro = was.fee;
    });
    p.lots = to.lots;
    p.units = to.units;
    p.marginMicro = to.marginMicro;
    p.feeMicro = to.feeMicro;
    this.addOpen(p);
  }

  /** Marks the account's push due. */
  markDirty(a: Account): void {
    this.accts.dirty[a.idx] = 1;
  }

  /** Number of open positions, pending orders and loaded accounts. */
  stats(): { open: number; pending: number; accounts: number } {
    let open = 0;
    let pending = 0;
    for (const b of this.books.values()) {
      open += b.n;
      pending += b.pendingCount;
    }
    return { open, pending, accounts: this.accts.list.length };
  }

  private setStatus(p: Pos, status: number): void {
    const was = p.status;
    this.undoable(() => (p.status = was));
    p.status = status;
  }

  /** Adds an open position, marked at the current price when there is one. */
  private addOpen(p: Pos): void {
    assertOpenAmounts(p.marginMicro, p.feeMicro);
    assertPrice(p.openPrice, `open position ${p.id}`);
    p.status = ST_OPEN;
    const price = this.pricing.price(p.inst);
    const rate = this.pricing.usdRateF(p.inst);
    const profit =
      price === null || !Number.isFinite(rate)
        ? 0
        : (p.orderType === BUY ? price - p.openPrice : p.openPrice - price) *
          p.units.toNumber() *
          rate;
    p.book.add(p, profit);
    p.acc.positions.add(p);
    p.acc.usedMarginMicro += p.marginMicro;
    aggregate(p, 1);
    this.orders.set(p.id, p);
    this.accts.moveFloat(p.acc, profit);
    this.undoable(() => this.removeOpen(p));
  }

  private removeOpen(p: Pos): void {
    assert(
      p.status === ST_OPEN && p.slot >= 0,
      `order ${p.id} is not an open position in the book`,
    );
    const profit = p.book.profit[p.slot];
    p.book.remove(p);
    p.acc.positions.delete(p);
    p.acc.usedMarginMicro -= p.marginMicro;
    assert(p.acc.usedMarginMicro >= 0, `used margin of user ${p.userId} negative`);
    aggregate(p, -1);
    this.orders.delete(p.id);
    this.accts.moveFloat(p.acc, -profit);
    this.undoable(() => this.addOpen(p));
  }

  private addPending(p: Pos): void {
    p.book.addPending(p);
    p.acc.pendings.add(p);
    this.orders.set(p.id, p);
    if (p.expiresAt !== null) this.expiring.add(p);
    this.accts.dirty[p.acc.idx] = 1;
    this.undoable(() => this.removePending(p));
  }

  private removePending(p: Pos): void {
    p.book.removePending(p);
    p.acc.pendings.delete(p);
    this.orders.delete(p.id);
    this.expiring.delete(p);
    this.accts.dirty[p.acc.idx] = 1;
    this.undoable(() => this.addPending(p));
  }
}
