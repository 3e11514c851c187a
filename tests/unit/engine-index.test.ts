/**
 * Property: the price index of pending orders (book.ts PendingIndex) and the bounded stop scan
 * trigger exactly the orders a brute-force scan over every order triggers, over random books,
 * random additions and removals, and random price paths; and the engine, driven through its
 * feed, activates exactly the pending orders a brute-force scan says each tick reaches.
 * PROPERTY_SEED replays a run (the seed is printed).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  type Account,
  Book,
  type Pos,
  type StopHits,
} from "../../upstream/modules/trading/book.js";
import {
  pendingReached,
  type InstrumentSpec,
  type PendingKind,
} from "../../upstream/modules/trading/orders.js";
import { dec } from "../../upstream/modules/money/decimal.js";
import { rig } from "./engine-helpers.js";
import { runSeed } from "../support/lane.js";

const SEED = runSeed(20261102);

const KINDS: PendingKind[] = ["buy_limit", "buy_stop", "sell_limit", "sell_stop"];
/** Prices on a coarse grid so that ties (price equal to a target, equal targets) are frequent. */
const price = fc.integer({ min: 90, max: 110 }).map((x) => x / 100);

const acc = { idx: 0 } as Account;
const inst = { id: 1 } as InstrumentSpec;

function pending(id: number, kind: PendingKind, target: number, book: Book): Pos {
  return {
    id,
    userId: 1,
    acc,
    inst,
    book,
    orderType: kind.startsWith("buy") ? 1 : 2,
    status: 0,
    pendingKind: kind,
    lots: dec(1),
    units: dec(1),
    leverage: 1,
    originPrice: target,
    openPrice: 0,
    tp: 0,
    sl: 0,
    marginMicro: 0,
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

function position(id: number, side: 1 | 2, tp: number, sl: number, book: Book): Pos {
  return {
    ...pending(id, "buy_limit", 0, book),
    orderType: side,
    status: 1,
    pendingKind: null,
    openPrice: 1,
    tp,
    sl,
  };
}

const bookOp = fc.oneof(
  fc.record({
    k: fc.constant("add" as const),
    kind: fc.constantFrom(...KINDS),
    target: price,
  }),
  fc.record({
    k: fc.constant("open" as const),
    side: fc.constantFrom(1 as const, 2 as const),
    tp: fc.option(price, { nil: 0 }),
    sl: fc.option(price, { nil: 0 }),
  }),
  fc.record({ k: fc.constant("remove" as const), pick: fc.nat() }),
  fc.record({ k: fc.constant("close" as const), pick: fc.nat() }),
  fc.record({
    k: fc.constant("stops" as const),
    pick: fc.nat(),
    tp: fc.option(price, { nil: 0 }),
    sl: fc.option(price, { nil: 0 }),
  }),
  fc.record({ k: fc.constant("tick" as const), price }),
);

/** The stop a price hits for a position, by the rule of trading-rules.md, or null. */
function stopHit(p: Pos, px: number): string | null {
  if (p.orderType === 1) {
    if (p.tp > 0 && px >= p.tp) return "take_profit";
    if (p.sl > 0 && px <= p.sl) return "stop_loss";
  } else {
    if (p.tp > 0 && px <= p.tp) return "take_profit";
    if (p.sl > 0 && px >= p.sl) return "stop_loss";
  }
  return null;
}

describe("pending order index", () => {
  it("triggers exactly what a brute-force scan triggers (book level)", () => {
    console.log(
      `engine index seed ${SEED} (replay: PROPERTY_SEED=${SEED} npx vitest run ${__filename})`,
    );
    let reachedSeen = 0;
    let stopsSeen = 0;
    fc.assert(
      fc.property(fc.array(bookOp, { minLength: 30, maxLength: 120 }), (ops) => {
        const book = new Book(inst);
        const pend: Pos[] = [];
        const open: Pos[] = [];
        let id = 0;
        for (const o of ops) {
          if (o.k === "add") {
            const p = pending(++id, o.kind, o.target, book);
            book.addPending(p);
            pend.push(p);
          } else if (o.k === "open") {
            const p = position(++id, o.side, o.tp, o.sl, book);
            book.add(p, 0);
            open.push(p);
          } else if (o.k === "remove" && pend.length) {
            const [p] = pend.splice(o.pick % pend.length, 1);
            book.removePending(p);
          } else if (o.k === "close" && open.length) {
            const [p] = open.splice(o.pick % open.length, 1);
            book.remove(p);
          } else if (o.k === "stops" && open.length) {
            const p = open[o.pick % open.length];
            p.tp = o.tp;
            p.sl = o.sl;
            book.setStops(p, o.tp, o.sl);
          } else if (o.k === "tick") {
            const got: Pos[] = [];
            book.collectReached(o.price, got);
            const want = pend.filter((p) => pendingReached(p.pendingKind!, p.originPrice, o.price));
            const ids = (a: Pos[]) => a.map((p) => p.id).sort((x, y) => x - y);
            expect(ids(got)).toEqual(ids(want));
            reachedSeen += want.length;
            const hits: StopHits = { pos: [], price: [], reason: [] };
            if (book.mayHitStops(o.price)) book.scanStops(o.price, hits);
            const gotStops = hits.pos.map((p, i) => `${p.id}:${hits.reason[i]}`).sort();
            const wantStops = open
              .map((p) => [p.id, stopHit(p, o.price)] as const)
              .filter(([, r]) => r !== null)
              .map(([i, r]) => `${i}:${r}`)
              .sort();
            expect(gotStops).toEqual(wantStops);
            stopsSeen += wantStops.length;
          }
          expect(book.pendingCount).toBe(pend.length);
          expect(book.n).toBe(open.length);
        }
      }),
      { numRuns: 300, seed: SEED },
    );
    // The runs did trigger orders of both kinds (thousands of each on any seed).
    expect({ reachedSeen: reachedSeen > 300, stopsSeen: stopsSeen > 300 }).toEqual({
      reachedSeen: true,
      stopsSeen: true,
    });
    console.log(`engine index: ${reachedSeen} pending orders reached, ${stopsSeen} stops hit`);
  });

  it("the engine activates exactly the pending orders each tick reaches (engine level)", () => {
    const order = fc.record({
      kind: fc.constantFrom(...KINDS),
      off: fc.integer({ min: 1, max: 40 }),
    });
    let activated = 0;
    fc.assert(
      fc.property(
        fc.array(order, { minLength: 1, maxLength: 15 }),
        fc.array(fc.integer({ min: -40, max: 40 }), { minLength: 1, maxLength: 15 }),
        (orders, moves) => {
          const r = rig();
          try {
            const u = r.user(1_000_000);
            let px = r.feed.set("EURUSD", 1.1).price;
            const fired: number[] = [];
            r.engine.core.events.on("orderActivated", (e) => fired.push(e.orderId));
            r.engine.core.events.on("orderCancelled", (e) => fired.push(e.orderId));
            const live = new Map<number, { kind: PendingKind; target: number }>();
            for (const o of orders) {
              // The kind follows the side and the target's place against the market.
              const above = o.kind === "buy_stop" || o.kind === "sell_limit";
              const target = Number((px + (above ? 1 : -1) * o.off * 0.0005).toFixed(5));
              const v = r.engine.submit(u, {
                type: o.kind.startsWith("buy") ? 1 : 2,
                cont: "0.01",
                forex_id: r.id("EURUSD"),
                status: 0,
                target_price: target.toFixed(5),
                multiple: 100,
              });
              expect(v.PendingType).toBe(o.kind);
              live.set(v.Id, { kind: o.kind, target });
            }
            for (const m of moves) {
              px = Math.max(0.5, Number((px + m * 0.0005).toFixed(5)));
              const want = [...live]
                .filter(([, o]) => pendingReached(o.kind, o.target, px))
                .map(([id]) => id)
                .sort((a, b) => a - b);
              fired.length = 0;
              r.feed.set("EURUSD", px);
              expect([...fired].sort((a, b) => a - b)).toEqual(want);
              for (const id of want) live.delete(id);
              activated += want.length;
              expect(r.engine.stats().pending).toBe(live.size);
            }
          } finally {
            r.close();
          }
        },
      ),
      { numRuns: 25, seed: SEED },
    );
    expect(activated).toBeGreaterThan(20);
  }, 120_000);
});
