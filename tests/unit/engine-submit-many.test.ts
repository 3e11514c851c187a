/**
 * Many market orders at once (Engine.submitMarketMany, copy trading's mirroring): the same orders,
 * fees, ledger rows, balances, memory and refusals as the same orders placed one by one, and a
 * failure of the group leaves store and memory as they were.
 */
import * as api from "@contract/api/trading";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DomainError } from "../../upstream/platform/errors.js";
import { orderRequestOf } from "../../upstream/modules/trading/requests.js";
import type { MarketItem, OrderState, Placed } from "../../upstream/modules/trading/engine.js";
import { fieldsBy, rig, type Rig } from "./engine-helpers.js";
import { SUBMIT_SLICE } from "../../upstream/modules/trading/submit.js";

const rigs: Rig[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const r of rigs.splice(0)) r.close();
});

function newRig(): Rig {
  const r = rig();
  rigs.push(r);
  return r;
}

/** A market order request as the submit route reads it. */
function market(r: Rig, f: Record<string, unknown>) {
  return orderRequestOf(
    fieldsBy(api.submit.body, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 1,
      multiple: 100,
      ...f,
    }),
  );
}

/**
 * The same book on a fresh rig: users in the same order (the same ids), one of them holding a
 * position at a loss, one at the order cap, one nearly out of money. Returns the batch's items.
 */
function scene(r: Rig): MarketItem[] {
  r.setting("trade.max_orders", "2");
  r.feed.set("EURUSD", 1.1);
  r.feed.set("GBPUSD", 1.3);
  const rich = r.user(10_000);
  const holder = r.user(2_000);
  const capped = r.user(10_000);
  const poor = r.user(5);
  const stops = r.user(1_000);
  const wrongInst = r.user(1_000);
  const tiny = r.user(1_000);
  const sellTp = r.user(1_000);
  const loaded = r.user(1_000);
  const atLoss = r.user(400);
  // Orders with the same terms as another item's (tiny's, rich's): the batch decides their
  // terms once, and each is still checked and placed as its own.
  const tinyTwin = r.user(1_000);
  const richTwin = r.user(10_000);
  // Held positions: floating profit moves free margin (the exact check, not only the fast path).
  r.engine.core.submit(holder, market(r, { cont: "0.5" }));
  r.engine.core.submit(capped, market(r, {}));
  r.engine.core.submit(capped, market(r, { type: 2 }));
  r.engine.core.submit(atLoss, market(r, { cont: "0.3" }));
  r.feed.set("EURUSD", 1.0985);
  void loaded;
  return [
    { userId: rich, req: market(r, { cont: "1.5", target_profit_price: "1.2" }) },
    { userId: holder, req: market(r, { cont: "0.4", type: 2 }) },
    { userId: capped, req: market(r, {}) },
    { userId: poor, req: market(r, { cont: "1" }) },
    { userId: stops, req: market(r, { stop_loss_price: "1.2" }) },
    { userId: wrongInst, req: market(r, { forex_id: 99_999 }) },
    { userId: tiny, req: market(r, { cont: "0.001" }) },
    {
      userId: sellTp,
      req: market(r, { type: 2, forex_id: r.id("GBPUSD"), stop_loss_price: "1.4" }),
    },
    { userId: tinyTwin, req: market(r, { cont: "0.001" }) },
    { userId: richTwin, req: market(r, { cont: "1.5", target_profit_price: "1.2" }) },
    { userId: 987_654, req: market(r, {}) },
    { userId: atLoss, req: market(r, { cont: "0.2" }) },
  ];
}

/** An answer without what differs between two runs (the clock). */
function norm(v: Placed): unknown {
  if (v instanceof DomainError) return { refused: v.key, params: v.params };
  const s: Partial<OrderState> = { ...v };
  delete s.createdAt;
  return s;
}

/** What the store and memory hold for these users, times left out. */
function state(r: Rig, users: number[]) {
  const orders = r.db
    .prepare(
      `SELECT id, user_id, instrument_id, order_type, status, lots, units, leverage, origin_price,
         open_price, take_profit, stop_loss, margin_micro, fee_micro FROM orders ORDER BY id`,
    )
    .all();
  const ledger = r.db
    .prepare(
      "SELECT id, user_id, amount_micro, balance_after_micro, kind, ref FROM ledger ORDER BY id",
    )
    .all();
  const accounts = users.map((u) => {
    let figures: unknown = "none";
    try {
      figures = r.engine.core.accountValues(u);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
    }
    return {
      figures,
      held: r.engine.core.heldEquityMicro(u),
      open: r.engine.core.openPositionIds(u),
      ledgerSum: r.ledgerSum(u),
    };
  });
  return { orders, ledger, accounts, stats: r.engine.stats() };
}

/** A state without which accounts memory holds (loading one is a cache fill, not a change). */
function withoutLoaded(s: ReturnType<typeof state>) {
  return {
    ...s,
    accounts: s.accounts.map((a) => ({ ...a, held: "?" })),
    stats: { ...s.stats, accounts: "?" },
  };
}

describe.each([
  ["fee per order (trade_fee_type 0)", "0"],
  ["fee per lot (trade_fee_type 1)", "1"],
])("submitMarketMany, %s", (_name, feeType) => {
  it("places, charges and refuses exactly as the same orders one by one", () => {
    const one = newRig();
    const many = newRig();
    one.setting("trade_fee_type", feeType);
    many.setting("trade_fee_type", feeType);
    const itemsOne = scene(one);
    const itemsMany = scene(many);
    const users = itemsOne.map((it) => it.userId);
    expect(itemsMany.map((it) => it.userId)).toEqual(users);
    const before = state(many, users);
    expect(state(one, users)).toEqual(before);

    const byOne: Placed[] = itemsOne.map((it) => {
      try {
        return one.engine.core.submit(it.userId, it.req);
      } catch (e) {
        if (e instanceof DomainError) return e;
        throw e;
      }
    });
    const events: number[] = [];
    many.engine.core.events.on("orderPlaced", (e) => {
      expect(many.db.inTransaction).toBe(false);
      events.push(e.orderId);
    });
    let seen: readonly Placed[] = [];
    const byMany = many.engine.core.submitMarketMany(itemsMany, (placed) => {
      expect(many.db.inTransaction).toBe(true);
      seen = placed;
    });

    expect(byMany.map(norm)).toEqual(byOne.map(norm));
    expect(seen.map(norm)).toEqual(byOne.map(norm));
    // The scene refuses and accepts some of each kind.
    expect(byOne.map((v) => (v instanceof DomainError ? v.key : "placed"))).toEqual([
      "placed",
      "placed",
      "too_many_orders",
      "insufficient_margin",
      "sl_buy",
      "instrument_not_found",
      expect.any(String),
      "placed",
      expect.any(String),
      "placed",
      "not_found",
      "insufficient_margin",
    ]);
    // The twins' answers are their own (their order ids), on the same terms as the first's.
    const [tinyAt, tinyTwinAt, richTwinAt] = [6, 8, 9];
    expect(norm(byMany[tinyTwinAt])).toEqual(norm(byMany[tinyAt]));
    const [rich, richTwin] = [byMany[0], byMany[richTwinAt]] as OrderState[];
    expect(richTwin.id).not.toBe(rich.id);
    expect({ ...richTwin, id: 0, createdAt: 0 }).toEqual({ ...rich, id: 0, createdAt: 0 });
    expect(state(many, users)).toEqual(state(one, users));
    expect(state(many, users)).not.toEqual(before);
    const placedIds = byMany.filter((v): v is OrderState => !(v instanceof DomainError));
    expect(events).toEqual(placedIds.map((v) => v.id));
    // The ledger equals the balance for every account.
    for (const u of users.slice(0, -2)) expect(many.ledgerSum(u)).toBe(many.balance(u));
  });
});

describe("submitMarketMany, all or nothing", () => {
  it("a failure inside the group leaves the store and memory as they were, and emits nothing", () => {
    const r = newRig();
    const items = scene(r);
    const users = items.map((it) => it.userId);
    const before = state(r, users);
    let events = 0;
    r.engine.core.events.on("orderPlaced", () => events++);
    expect(() =>
      r.engine.core.submitMarketMany(items, () => {
        throw new Error("the caller's row failed");
      }),
    ).toThrow("the caller's row failed");
    // Accounts loaded into memory stay (a cache of the store, holding the stored balance); all else
    // is as it was.
    const after = state(r, users);
    expect(withoutLoaded(after)).toEqual(withoutLoaded(before));
    for (const a of after.accounts)
      if (a.held !== null) expect(a.held).toBe((a.figures as { equityMicro: number }).equityMicro);
    expect(events).toBe(0);
    expect(r.db.inTransaction).toBe(false);
    // And the same batch then goes through.
    const placed = r.engine.core.submitMarketMany(items);
    expect(placed.filter((v) => !(v instanceof DomainError))).toHaveLength(4);
    expect(events).toBe(4);
  });

  it("refuses two orders of one user in a batch", () => {
    const r = newRig();
    r.feed.set("EURUSD", 1.1);
    const u = r.user(1_000);
    expect(() =>
      r.engine.core.submitMarketMany([
        { userId: u, req: market(r, {}) },
        { userId: u, req: market(r, {}) },
      ]),
    ).toThrow(/one order per user/);
    expect(r.engine.core.openPositionIds(u)).toEqual([]);
  });

  it("more orders than one statement carries (several slices) match one by one", () => {
    // The clock stands still: building and placing a thousand orders twice may take longer than
    // market.stale_after_s on a loaded machine, and the quote's age is not what this compares.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-25T12:00:00Z") });
    const one = newRig();
    const many = newRig();
    const build = (r: Rig) => {
      r.feed.set("EURUSD", 1.1);
      return Array.from({ length: 1_003 }, (_, i) => ({
        userId: r.user(i % 7 === 0 ? 1 : 1_000),
        req: market(r, { cont: i % 2 ? "0.1" : "0.2" }),
      }));
    };
    const a = build(one);
    const b = build(many);
    const byOne = a.map((it) => {
      try {
        return one.engine.core.submit(it.userId, it.req);
      } catch (e) {
        if (e instanceof DomainError) return e;
        throw e;
      }
    });
    // Decided and stored a slice at a time (as a batch that goes to the store in parts is): the
    // caller's rows follow each slice's answers.
    const slices: { from: number; placed: readonly Placed[] }[] = [];
    const byMany = many.engine.core.submitMarketMany(
      b,
      (placed, from) => slices.push({ from, placed }),
      SUBMIT_SLICE,
    );
    expect(byMany.map(norm)).toEqual(byOne.map(norm));
    expect(slices.map((x) => [x.from, x.placed.length])).toEqual([
      [0, SUBMIT_SLICE],
      [SUBMIT_SLICE, 1_003 - SUBMIT_SLICE],
    ]);
    expect(slices.flatMap((x) => x.placed).map(norm)).toEqual(byOne.map(norm));
    const users = a.map((it) => it.userId);
    expect(state(many, users)).toEqual(state(one, users));
    // Where the batch does not go to the store in parts (SQLite), the items go as one slice.
    const whole = newRig();
    const calls: number[] = [];
    const byWhole = whole.engine.core.submitMarketMany(build(whole), (placed, from) =>
      calls.push(from, placed.length),
    );
    expect(calls).toEqual([0, 1_003]);
    expect(byWhole.map(norm)).toEqual(byOne.map(norm));
  }, 120_000);

  it("a failure in a later slice undoes the slices before it too, store and memory", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-25T12:00:00Z") });
    const r = newRig();
    r.feed.set("EURUSD", 1.1);
    const items = Array.from({ length: SUBMIT_SLICE + 3 }, () => ({
      userId: r.user(1_000),
      req: market(r, { cont: "0.1" }),
    }));
    const users = items.map((it) => it.userId);
    const before = state(r, users);
    let events = 0;
    r.engine.core.events.on("orderPlaced", () => events++);
    expect(() =>
      r.engine.core.submitMarketMany(
        items,
        (_placed, from) => {
          if (from > 0) throw new Error("the caller's row of the second slice failed");
        },
        SUBMIT_SLICE,
      ),
    ).toThrow("second slice");
    expect(withoutLoaded(state(r, users))).toEqual(withoutLoaded(before));
    expect(events).toBe(0);
    expect(r.db.inTransaction).toBe(false);
  }, 120_000);
});
