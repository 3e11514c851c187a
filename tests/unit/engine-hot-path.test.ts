/**
 * The hot path of a tick (book.ts): marking every open position of a book to the market moves each
 * account's floating profit by exactly the change, lists each account touched once, and keeps
 * doing so past the book's first 64 rows and after rows are removed (the last row swapped in).
 * The floating profit it keeps is what the account's stop-out check and pushes read.
 */
import { describe, expect, it } from "vitest";
import {
  type Account,
  AccountTable,
  Book,
  type Pos,
  type StopHits,
} from "../../upstream/modules/trading/book.js";
import type { InstrumentSpec } from "../../upstream/modules/trading/orders.js";
import { dec } from "../../upstream/modules/money/decimal.js";
import { Pricing } from "../../upstream/modules/trading/pricing.js";
import type { PriceFeed } from "../../upstream/modules/market/feed.js";

const inst = { id: 1 } as InstrumentSpec;

function position(
  id: number,
  acc: Account,
  book: Book,
  side: 1 | 2,
  open: number,
  units: number,
  tp = 0,
  sl = 0,
): Pos {
  return {
    id,
    userId: acc.userId,
    acc,
    inst,
    book,
    orderType: side,
    status: 1,
    pendingKind: null,
    lots: dec(units / 1000),
    units: dec(units),
    leverage: 100,
    originPrice: open,
    openPrice: open,
    tp,
    sl,
    marginMicro: 1,
    feeMicro: 0,
    createdAt: 0,
    openedAt: 0,
    trail: 0,
    trailAct: 0,
    breakEven: 0,
    expiresAt: null,
    slDirty: false,
    slot: -1,
  };
}

/** Floating profit of an account's positions at `price` and `rate`, by the rule. */
const floating = (ps: Pos[], price: number, rate: number) =>
  ps.reduce(
    (s, p) =>
      s +
      (p.orderType === 1 ? price - p.openPrice : p.openPrice - price) * p.units.toNumber() * rate,
    0,
  );

describe("marking a book to the market", () => {
  it("moves each account's floating profit by the change, past 64 rows and after removals", () => {
    const accts = new AccountTable();
    const idle = accts.add(9, 0); // slot 0: an account without a position in this book
    const a = accts.add(1, 0);
    const b = accts.add(2, 0);
    const book = new Book(inst);
    const held = new Map<Account, Pos[]>([
      [a, []],
      [b, []],
    ]);
    for (let i = 1; i <= 70; i++) {
      const acc = i % 3 === 0 ? b : a;
      const p = position(i, acc, book, i % 2 === 0 ? 1 : 2, 1 + i / 1000, 100 * i);
      book.add(p, 0);
      acc.positions.add(p);
      held.get(acc)!.push(p);
    }
    expect(book.n).toBe(70);
    expect(book.acc.length).toBeGreaterThanOrEqual(70);

    const tick = (price: number, rate: number) => {
      const n = book.mark(price, rate, accts, 0);
      for (let k = 0; k < n; k++) accts.touched[accts.touchedList[k]] = 0;
      return n;
    };
    // Two accounts touched, each listed once; the idle one is not.
    expect(tick(1.05, 1)).toBe(2);
    expect(accts.dirty[idle.idx]).toBe(0);
    expect(accts.float[a.idx]).toBeCloseTo(floating(held.get(a)!, 1.05, 1), 6);
    expect(accts.float[b.idx]).toBeCloseTo(floating(held.get(b)!, 1.05, 1), 6);
    expect(accts.dirty[a.idx]).toBe(1);
    // A second tick moves them by the change only (no double counting), at the new USD rate.
    tick(1.02, 0.5);
    expect(accts.float[a.idx]).toBeCloseTo(floating(held.get(a)!, 1.02, 0.5), 6);
    expect(accts.float[b.idx]).toBeCloseTo(floating(held.get(b)!, 1.02, 0.5), 6);

    // Remove rows from the start, the middle and the end: the last row takes each freed slot.
    for (const id of [1, 35, 70, 2]) {
      const list = held.get(id % 3 === 0 ? b : a)!;
      const p = list.find((x) => x.id === id)!;
      book.remove(p);
      p.acc.positions.delete(p);
      expect(p.slot).toBe(-1);
      list.splice(list.indexOf(p), 1);
    }
    expect(book.n).toBe(66);
    accts.refloat(a);
    accts.refloat(b);
    expect(accts.float[a.idx]).toBeCloseTo(floating(held.get(a)!, 1.02, 0.5), 6);
    expect(tick(1.1, 1)).toBe(2);
    expect(accts.float[idle.idx]).toBe(0);
    expect(accts.float[a.idx]).toBeCloseTo(floating(held.get(a)!, 1.1, 1), 6);
    expect(accts.float[b.idx]).toBeCloseTo(floating(held.get(b)!, 1.1, 1), 6);
    // Every position is still at its slot.
    for (const p of [...held.get(a)!, ...held.get(b)!]) expect(book.pos[p.slot]).toBe(p);
  });

  it("opening and closing positions moves the account's floating profit by theirs, back to exactly 0", () => {
    const accts = new AccountTable();
    const a = accts.add(1, 0);
    const book = new Book(inst);
    const open: Pos[] = [];
    const join = (p: Pos, profit: number) => {
      book.add(p, profit);
      a.positions.add(p);
      accts.moveFloat(a, profit);
      open.push(p);
    };
    const leave = (p: Pos) => {
      const profit = book.profit[p.slot];
      book.remove(p);
      a.positions.delete(p);
      accts.moveFloat(a, -profit);
      open.splice(open.indexOf(p), 1);
    };
    // Past the small-account bound (summed again) into the large one (moved in O(1)).
    for (let i = 1; i <= 200; i++)
      join(position(i, a, book, i % 2 === 0 ? 1 : 2, 1 + i / 1000, 1000 + i), (i % 7) - 3.25);
    const exact = () => open.reduce((sum, p) => sum + book.profit[p.slot], 0);
    expect(accts.float[a.idx]).toBeCloseTo(exact(), 9);
    book.mark(1.2, 0.9, accts, 0);
    for (const p of [...open].filter((_, k) => k % 3 === 0)) leave(p);
    expect(accts.float[a.idx]).toBeCloseTo(exact(), 9);
    for (const p of [...open]) leave(p);
    expect(accts.float[a.idx]).toBe(0);
    expect(accts.dirty[a.idx]).toBe(1);
  });

  it("a removed row's stops leave with it; the row swapped in keeps its own", () => {
    const accts = new AccountTable();
    const a = accts.add(1, 0);
    const book = new Book(inst);
    const first = position(1, a, book, 1, 1.1, 1000, 1.2, 0);
    const last = position(2, a, book, 2, 1.1, 1000, 0, 1.15);
    book.add(first, 0);
    book.add(last, 0);
    expect(book.stops).toBe(2);
    book.remove(first);
    expect(book.stops).toBe(1);
    expect(last.slot).toBe(0);
    const hits: StopHits = { pos: [], price: [], reason: [] };
    expect(book.mayHitStops(1.2)).toBe(true);
    book.scanStops(1.2, hits);
    expect(hits).toEqual({ pos: [last], price: [1.2], reason: ["stop_loss"] });
    // Stops cleared: nothing to scan; set again: found again.
    book.setStops(last, 0, 0);
    expect(book.stops).toBe(0);
    expect(book.mayHitStops(1.2)).toBe(false);
    book.setStops(last, 1.05, 0);
    expect(book.stops).toBe(1);
    expect(book.mayHitStops(1.06)).toBe(false);
    expect(book.mayHitStops(1.05)).toBe(true);
    book.remove(last);
    expect(book.stops).toBe(0);
    expect(book.n).toBe(0);
  });

  it("the stop bounds of each side: a buy's TP and SL, a sell's TP and SL, each reached at equality", () => {
    const accts = new AccountTable();
    const a = accts.add(1, 0);
    const cases: [1 | 2, number, number, number, number][] = [
      // side, tp, sl, a price that reaches nothing, the price that reaches one
      [1, 1.2, 0, 1.1999, 1.2],
      [1, 0, 1.0, 1.0001, 1.0],
      [2, 1.0, 0, 1.0001, 1.0],
      [2, 0, 1.2, 1.1999, 1.2],
    ];
    for (const [side, tp, sl, far, at] of cases) {
      const book = new Book(inst);
      book.add(position(1, a, book, side, 1.1, 1000, tp, sl), 0);
      expect(book.mayHitStops(far), `${side} ${tp} ${sl}`).toBe(false);
      expect(book.mayHitStops(at), `${side} ${tp} ${sl}`).toBe(true);
    }
  });
});

describe("stop bounds", () => {
  it("keep the nearest stop of each side, whichever position came first", () => {
    const accts = new AccountTable();
    const a = accts.add(1, 0);
    const cases: [1 | 2, [number, number], [number, number], number][] = [
      // side, first position's [tp, sl], second's, a price only the first position's stop reaches
      [1, [1.2, 0], [1.3, 0], 1.25],
      [1, [0, 1.0], [0, 0.9], 0.95],
      [2, [1.0, 0], [0.9, 0], 0.95],
      [2, [0, 1.2], [0, 1.3], 1.25],
    ];
    for (const [side, [tp1, sl1], [tp2, sl2], price] of cases) {
      const book = new Book(inst);
      const first = position(1, a, book, side, 1.1, 1000, tp1, sl1);
      book.add(first, 0);
      book.add(position(2, a, book, side, 1.1, 1000, tp2, sl2), 0);
      const what = `${side} ${tp1}/${sl1} then ${tp2}/${sl2} at ${price}`;
      expect(book.mayHitStops(price), what).toBe(true);
      const hits: StopHits = { pos: [], price: [], reason: [] };
      book.scanStops(price, hits);
      expect(hits.pos, what).toEqual([first]);
      // Recomputed after an edit, the bounds are the same.
      book.setStops(first, tp1, sl1);
      expect(book.mayHitStops(price), what).toBe(true);
    }
  });
});

describe("prices as the engine reads them", () => {
  /** A feed answering the given prices (a price of 0 is what a broken source might send). */
  const feedOf = (prices: Record<string, number>) =>
    ({
      quote: (code: string | number) =>
        prices[String(code)] === undefined
          ? undefined
          : { id: 0, code: String(code), price: prices[String(code)], time: 0 },
    }) as unknown as PriceFeed;
  const jpy = { id: "USDJPY", quoteCurrency: "JPY" } as unknown as InstrumentSpec;
  const usd = { id: "EURUSD", quoteCurrency: "USD" } as unknown as InstrumentSpec;

  it("a quote without a positive price is no price, and values nothing", () => {
    const p = new Pricing();
    p.feed = feedOf({ EURUSD: 0, USDJPY: 0 });
    expect(p.price(usd)).toBeNull();
    expect(p.usdRate(jpy)).toBeNull();
    expect(p.usdRateF(jpy)).toBeNaN();
    p.feed = feedOf({ EURUSD: 1.1, USDJPY: 125 });
    expect(p.price(usd)).toBe(1.1);
    expect(p.usdRate(jpy)?.mul(125).toNumber()).toBe(1);
    expect(p.usdRateF(jpy)).toBe(1 / 125);
    expect(p.usdRateF(usd)).toBe(1);
    expect(p.usdRate(usd)?.toNumber()).toBe(1);
  });

  it("without a feed: no price, no rate", () => {
    const p = new Pricing();
    expect(p.price(usd)).toBeNull();
    expect(p.usdRate(jpy)).toBeNull();
    expect(p.usdRateF(jpy)).toBeNaN();
    expect(p.usdRateF(usd)).toBe(1);
  });
});
