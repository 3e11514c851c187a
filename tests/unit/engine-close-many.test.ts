/**
 * Many positions closed at once (Engine.closeMany, copy trading's mirrored close): the same orders,
 * ledger rows, balances, memory, answers and events as the same positions closed one by one,
 * negative balance protection included, and a failure of the group leaves store and memory as
 * they were.
 */
import * as api from "@contract/api/trading";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DomainError } from "../../upstream/platform/errors.js";
import { orderRequestOf } from "../../upstream/modules/trading/requests.js";
import type { CloseItem, Closed, OrderState } from "../../upstream/modules/trading/engine.js";
import { fieldsBy, rig, type Rig } from "./engine-helpers.js";

const REASON = "copy_provider_closed" as const;

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

/** Places an order as the submit route reads it; returns its id. */
function place(r: Rig, userId: number, f: Record<string, unknown>): number {
  const req = orderRequestOf(
    fieldsBy(api.submit.body, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 1,
      multiple: 200,
      ...f,
    }),
  );
  return r.engine.core.submit(userId, req).id;
}

/**
 * The same book on a fresh rig (the same ids): a winner, a position at 0 profit, a loss that
 * wipes out its account's last position (protection), an account closing both of its positions
 * in the batch (protection on the second), one keeping a position open, and refusals (a pending
 * order, someone else's, none such, one already closed, the same position twice). Returns the
 * batch's items and its users.
 */
function scene(r: Rig): { items: CloseItem[]; users: number[] } {
  r.setting("risk.stop_out_pct", "-100000"); // no stop-out: the batch closes
  r.feed.set("EURUSD", 1.1);
  r.feed.set("USDJPY", 150);
  r.feed.set("GBPUSD", 1.3);
  const winner = r.user(1_000);
  const flat = r.user(1_000);
  const wiped = r.user(200);
  const both = r.user(300);
  const keeper = r.user(300);
  const other = r.user(1_000);
  const w = place(r, winner, { type: 2 });
  const f = place(r, flat, { forex_id: r.id("GBPUSD") });
  const x = place(r, wiped, {});
  const b1 = place(r, both, {});
  const b2 = place(r, both, { forex_id: r.id("USDJPY"), cont: "0.01" });
  const k1 = place(r, keeper, {});
  place(r, keeper, { forex_id: r.id("USDJPY"), cont: "0.01" });
  const pending = place(r, other, { status: 0, target_price: "1.0" });
  const done = place(r, other, {});
  r.engine.core.close(other, done);
  r.feed.set("EURUSD", 1.05); // -500 for 0.1 lots bought
  const items = [
    { userId: winner, id: w },
    { userId: both, id: b1 },
    { userId: flat, id: f },
    { userId: other, id: pending },
    { userId: wiped, id: x },
    { userId: other, id: w },
    { userId: keeper, id: k1 },
    { userId: both, id: b2 },
    { userId: other, id: 999_999 },
    { userId: other, id: done },
    { userId: winner, id: w },
  ];
  return { items, users: [winner, flat, wiped, both, keeper, other] };
}

/** An answer without what differs between two runs (the clock). */
function norm(v: Closed): unknown {
  if (v instanceof DomainError) return { refused: v.key, params: v.params };
  const s: Partial<OrderState> = { ...v };
  delete s.createdAt;
  delete s.closedAt;
  return s;
}

/** What the store and memory hold for these users, times left out; the ledger user by user. */
function state(r: Rig, users: number[]) {
  const orders = r.db
    .prepare(
      `SELECT id, user_id, instrument_id, order_type, status, lots, units, leverage, origin_price,
         open_price, close_price, take_profit, stop_loss, margin_micro, fee_micro, profit_micro,
         close_reason, closed_at IS NULL AS open FROM orders ORDER BY id`,
    )
    .all();
  const accounts = users.map((u) => ({
    figures: r.engine.core.accountValues(u),
    held: r.engine.core.heldEquityMicro(u),
    open: r.engine.core.openPositionIds(u),
    ledger: r.ledger(u),
    ledgerSum: r.ledgerSum(u),
    balance: r.balance(u),
  }));
  return { orders, accounts, stats: r.engine.stats() };
}

/** Every closed position an event announced: [user, order, reason], sorted. */
function closings(r: Rig): { list: [number, number, string][]; inTx: boolean[] } {
  const list: [number, number, string][] = [];
  const inTx: boolean[] = [];
  r.engine.core.events.on("positionsClosed", (e) => {
    inTx.push(r.db.inTransaction);
    for (const id of e.orderIds) list.push([e.userId, id, e.reason]);
  });
  return { list, inTx };
}

const sorted = (xs: [number, number, string][]) =>
  [...xs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

describe("closeMany", () => {
  it("closes, books, protects and refuses exactly as the same positions closed one by one", () => {
    const one = newRig();
    const many = newRig();
    const a = scene(one);
    const b = scene(many);
    expect(b).toEqual(a);
    const before = state(many, b.users);
    expect(state(one, a.users)).toEqual(before);
    const evOne = closings(one);
    const evMany = closings(many);

    const byOne: Closed[] = a.items.map((it) => {
      try {
        return one.engine.core.close(it.userId, it.id, null, REASON);
      } catch (e) {
        if (e instanceof DomainError) return e;
        throw e;
      }
    });
    let seen: readonly Closed[] = [];
    const byMany = many.engine.core.closeMany(b.items, REASON, (closed) => {
      expect(many.db.inTransaction).toBe(true);
      seen = closed;
    });

    expect(byMany.map(norm)).toEqual(byOne.map(norm));
    expect(seen.map(norm)).toEqual(byOne.map(norm));
    expect(byOne.map((v) => (v instanceof DomainError ? v.key : "closed"))).toEqual([
      "closed",
      "closed",
      "closed",
      "order_not_open",
      "closed",
      "order_not_found",
      "closed",
      "closed",
      "order_not_found",
      "order_not_open",
      "order_not_open",
    ]);
    const after = state(many, b.users);
    expect(after).toEqual(state(one, a.users));
    expect(after).not.toEqual(before);
    // What the scene is for: a 0 profit books no row, protection on the last position only.
    const [winner, flat, wiped, both, keeper] = b.users;
    const kinds = (u: number) => many.ledger(u).map((l) => l.kind);
    expect(kinds(winner)).toEqual(["deposit", "fee", "realised_profit"]);
    expect(kinds(flat)).toEqual(["deposit", "fee"]);
    expect(kinds(wiped)).toEqual(["deposit", "fee", "realised_profit", "protection"]);
    // Its second position (USDJPY, unmoved) closes at 0 profit: protection on the stored balance.
    expect(kinds(both)).toEqual(["deposit", "fee", "fee", "realised_profit", "protection"]);
    expect(kinds(keeper)).toEqual(["deposit", "fee", "fee", "realised_profit"]);
    expect(many.balance(keeper)).toBeLessThan(0);
    for (const u of [wiped, both]) expect(many.balance(u)).toBe(0);
    for (const u of b.users) expect(many.ledgerSum(u)).toBe(many.balance(u));
    // The same positions announced, once each, after the commit; one event per account.
    expect(sorted(evMany.list)).toEqual(sorted(evOne.list));
    expect(evMany.inTx.every((t) => !t)).toBe(true);
    expect(evMany.inTx).toHaveLength(5);
  });

  it("a failure inside the group leaves the store and memory as they were, and emits nothing", () => {
    const r = newRig();
    const { items, users } = scene(r);
    const before = state(r, users);
    const ev = closings(r);
    expect(() =>
      r.engine.core.closeMany(items, REASON, () => {
        throw new Error("the caller's row failed");
      }),
    ).toThrow("the caller's row failed");
    expect(state(r, users)).toEqual(before);
    expect(ev.list).toEqual([]);
    expect(r.db.inTransaction).toBe(false);
    // And the same batch then goes through.
    const closed = r.engine.core.closeMany(items, REASON);
    expect(closed.filter((v) => !(v instanceof DomainError))).toHaveLength(6);
    expect(ev.list).toHaveLength(6);
  });

  it("more positions than one statement carries (several slices) match one by one", () => {
    // The clock stands still: building and placing a thousand orders twice may take longer than
    // market.stale_after_s on a loaded machine, and the quote's age is not what this compares.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-25T12:00:00Z") });
    const one = newRig();
    const many = newRig();
    const build = (r: Rig) => {
      r.setting("risk.stop_out_pct", "-100000");
      r.feed.set("EURUSD", 1.1);
      const items = Array.from({ length: 520 }, (_, i) => {
        const userId = r.user(i % 7 === 0 ? 60 : 1_000);
        return { userId, id: place(r, userId, { type: i % 2 ? 2 : 1 }) };
      });
      r.feed.set("EURUSD", 1.07);
      return items;
    };
    const a = build(one);
    const b = build(many);
    const byOne = a.map((it) => one.engine.core.close(it.userId, it.id, null, REASON));
    const byMany = many.engine.core.closeMany(b, REASON);
    expect(byMany.map(norm)).toEqual(byOne.map(norm));
    const users = a.map((it) => it.userId);
    expect(state(many, users)).toEqual(state(one, users));
    expect(many.ledger(users[0]).at(-1)?.kind).toBe("protection");
  }, 120_000);
});
