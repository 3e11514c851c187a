/**
 * The engine against trading-rules.md where the clock, the market-hours calendar and the operator
 * settings decide: closing on a stale quote or a closed market, pending orders reached while the
 * market is closed, every risk and trade setting at a non-default value, and idempotency keys of
 * cancel, set_stop_price and demo reset. The clock is Date only (vi fake timers), so the calendar
 * of market/hours.ts is driven, not the forced market switch.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { refusal, rig, type Rig } from "./engine-helpers.js";
import { DomainError } from "../../upstream/platform/errors.js";

let r: Rig | undefined;
afterEach(() => {
  r?.close();
  r = undefined;
  vi.useRealTimers();
});

/** Sets the clock (Date only: timers and I/O stay real). */
function at(iso: string): number {
  const t = Date.parse(iso);
  vi.setSystemTime(t);
  return t;
}
function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}
function fakeClock(iso: string): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  at(iso);
}

const buy = (r: Rig, u: number, extra: Record<string, unknown> = {}) =>
  r.engine.submit(u, {
    type: 1,
    cont: "0.1",
    forex_id: r.id("EURUSD"),
    status: 1,
    multiple: 100,
    ...extra,
  });

/** The HTTP status of the DomainError a call refuses with. */
function statusOf(fn: () => unknown): number | "accepted" {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.status;
    throw e;
  }
  return "accepted";
}

describe("closing a position needs a fresh quote (market.stale_after_s)", () => {
  it("is refused once the last quote is older than the setting, and nothing changes", () => {
    fakeClock("2026-11-25T12:00:00Z"); // a Wednesday: forex open
    r = rig({ alwaysOpen: false });
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u);
    advance(31_000); // default 30 s: the quote is now stale
    const ledger = r.ledger(u).length;
    expect(refusal(() => r!.engine.close(u, o.Id))).toBe("quote_stale");
    expect(r.engine.stats().open).toBe(1);
    expect(r.ledger(u)).toHaveLength(ledger);
    expect(r.engine.listOrders(u, 1, 1).data.map((x) => x.Id)).toEqual([o.Id]);
    // A fresh tick makes it closable again.
    r.feed.set("EURUSD", 1.1);
    expect(r.engine.close(u, o.Id).Status).toBe(3);
  });

  it("a longer market.stale_after_s accepts the same quote age", () => {
    fakeClock("2026-11-25T12:00:00Z");
    r = rig({ alwaysOpen: false });
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u);
    advance(31_000);
    expect(refusal(() => r!.engine.close(u, o.Id))).toBe("quote_stale");
    r.setting("market.stale_after_s", "60");
    expect(r.engine.close(u, o.Id).Status).toBe(3);
  });

  it("a shorter market.stale_after_s refuses market orders and closes the default accepts", () => {
    fakeClock("2026-11-25T12:00:00Z");
    r = rig({ alwaysOpen: false });
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u);
    advance(6_000); // 6 s old: fresh under the default 30 s
    const o2 = buy(r, u);
    r.setting("market.stale_after_s", "5");
    expect(refusal(() => buy(r!, u))).toBe("quote_stale");
    expect(refusal(() => r!.engine.close(u, o.Id))).toBe("quote_stale");
    expect(r.engine.stats().open).toBe(2);
    r.setting("market.stale_after_s", "30");
    expect(r.engine.close(u, o2.Id).Status).toBe(3);
  });
});

describe("market hours by the calendar (hours.ts)", () => {
  it("closing a forex position is refused from Friday 21:00 UTC and accepted from Sunday 21:00", () => {
    fakeClock("2026-11-27T20:59:00Z"); // Friday, one minute before the forex week ends
    r = rig({ alwaysOpen: false });
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u);
    at("2026-11-27T21:00:00Z");
    r.feed.set("EURUSD", 1.1); // a fresh quote: only the calendar refuses
    expect(refusal(() => r!.engine.close(u, o.Id))).toBe("market_closed");
    expect(refusal(() => buy(r!, u))).toBe("market_closed");
    at("2026-11-28T12:00:00Z"); // Saturday
    r.feed.set("EURUSD", 1.1);
    expect(refusal(() => r!.engine.close(u, o.Id))).toBe("market_closed");
    expect(r.engine.stats().open).toBe(1);
    // Crypto trades through the weekend.
    r.feed.set("BTCUSD", 60000);
    const c = r.engine.submit(u, {
      type: 1,
      cont: "0.01",
      forex_id: r.id("BTCUSD"),
      status: 1,
      multiple: 10,
    });
    expect(r.engine.close(u, c.Id).Status).toBe(3);
    at("2026-11-29T21:00:00Z"); // Sunday 21:00: forex opens
    r.feed.set("EURUSD", 1.1);
    expect(r.engine.close(u, o.Id).Status).toBe(3);
    expect(r.balance(u)).toBe(r.ledgerSum(u));
  });

  it("market.always_open keeps the calendar's closed hours open", () => {
    fakeClock("2026-11-28T12:00:00Z"); // Saturday
    r = rig({ alwaysOpen: false });
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    expect(refusal(() => buy(r!, u))).toBe("market_closed");
    r.setting("market.always_open", "1");
    expect(buy(r, u).Status).toBe(1);
  });

  it("a pending order reached while the market is closed fills at the first open tick that reaches it", () => {
    fakeClock("2026-11-28T12:00:00Z"); // Saturday: forex closed
    r = rig({ alwaysOpen: false });
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const activated: number[] = [];
    r.engine.core.events.on("orderActivated", (e) => activated.push(e.price));
    const p = r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.09", // buy limit
      multiple: 100,
    });
    const ledger = r.ledger(u).length;
    r.feed.set("EURUSD", 1.085); // reached, but the market is closed
    r.feed.set("EURUSD", 1.084);
    expect(r.engine.stats()).toMatchObject({ open: 0, pending: 1 });
    expect(r.ledger(u)).toHaveLength(ledger);
    expect(activated).toEqual([]);
    at("2026-11-29T21:00:00Z"); // forex opens; the first tick is above the target: not reached
    r.feed.set("EURUSD", 1.095);
    expect(r.engine.stats()).toMatchObject({ open: 0, pending: 1 });
    r.feed.set("EURUSD", 1.0875); // reached while open: fills at this tick's price
    expect(activated).toEqual([1.0875]);
    const [o] = r.engine.listOrders(u, 1, 1).data;
    expect(o.Id).toBe(p.Id);
    expect(o.Price).toBe(1.0875);
    expect(r.engine.stats()).toMatchObject({ open: 1, pending: 0 });
    expect(r.balance(u)).toBe(r.ledgerSum(u));
  });

  it("a pending order reached on a closed market fills at the opening tick when that tick still reaches it", () => {
    fakeClock("2026-11-28T12:00:00Z");
    r = rig({ alwaysOpen: false });
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const p = r.engine.submit(u, {
      type: 2,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.11", // sell limit
      multiple: 100,
    });
    r.feed.set("EURUSD", 1.115);
    expect(r.engine.stats().pending).toBe(1);
    at("2026-11-29T21:00:00Z");
    r.feed.set("EURUSD", 1.118); // a gap above the target: filled at the tick's price
    const [o] = r.engine.listOrders(u, 1, 1).data;
    expect(o).toMatchObject({ Id: p.Id, Price: 1.118 });
  });
});

describe("take-profit and stop-loss by the calendar", () => {
  it("a stop reached while the market is closed closes at the first open tick that reaches it", () => {
    fakeClock("2026-11-27T20:00:00Z"); // Friday: forex open
    r = rig({ alwaysOpen: false });
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const tp = buy(r, u, { target_profit_price: "1.11" });
    const sl = buy(r, u, { stop_loss_price: "1.09" });
    at("2026-11-28T12:00:00Z"); // Saturday: closed
    r.feed.set("EURUSD", 1.115);
    r.feed.set("EURUSD", 1.085);
    expect(r.engine.stats().open).toBe(2);
    const ledger = r.ledger(u).length;
    at("2026-11-29T21:00:00Z"); // Sunday 21:00: open
    r.feed.set("EURUSD", 1.112);
    expect(r.engine.listOrders(u, 3, 1).data).toMatchObject([
      { Id: tp.Id, CloseReason: "take_profit", UpdatePrice: 1.112 },
    ]);
    r.feed.set("EURUSD", 1.0875);
    expect(r.engine.listOrders(u, 3, 1).data[0]).toMatchObject({
      Id: sl.Id,
      CloseReason: "stop_loss",
      UpdatePrice: 1.0875,
    });
    expect(r.ledger(u).length).toBe(ledger + 2);
    expect(r.balance(u)).toBe(r.ledgerSum(u));
  });
});

describe("settings at non-default values", () => {
  it("trade.max_lots caps the lots of market and pending orders", () => {
    r = rig();
    const u = r.user(1_000_000);
    r.feed.set("EURUSD", 1.1);
    expect(buy(r, u, { cont: "3" }).Status).toBe(1); // default 100
    r.setting("trade.max_lots", "2");
    expect(refusal(() => buy(r!, u, { cont: "3" }))).toBe("lots_max");
    expect(refusal(() => buy(r!, u, { cont: "2.01", status: 0, target_price: "1.05" }))).toBe(
      "lots_max",
    );
    expect(buy(r, u, { cont: "2" }).Status).toBe(1);
    expect(r.engine.stats().open).toBe(2);
  });

  it("risk.margin_call_pct sets the level that flags a margin call", () => {
    r = rig();
    const u = r.user(400);
    r.feed.set("EURUSD", 1.1);
    buy(r, u); // margin 110, fee 0.22
    r.feed.set("EURUSD", 1.08); // -200: equity 199.78, level 181.6 %
    expect(r.engine.accountValues(u).marginCall).toBe(false); // default 100 %
    r.setting("risk.margin_call_pct", "200");
    expect(r.engine.accountValues(u).marginCall).toBe(true);
    r.setting("risk.margin_call_pct", "180");
    expect(r.engine.accountValues(u).marginCall).toBe(false);
  });

  it("risk.stop_out_pct sets the level at which positions are closed", () => {
    r = rig();
    const u = r.user(400);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u);
    r.feed.set("EURUSD", 1.08); // level 181.6 %: above the default 50 %
    expect(r.engine.stats().open).toBe(1);
    r.setting("risk.stop_out_pct", "190");
    r.feed.set("EURUSD", 1.0801); // level 182.5 % <= 190 %: stop-out at this tick's price
    expect(r.engine.stats().open).toBe(0);
    const [h] = r.engine.listOrders(u, 3, 1).data;
    expect(h).toMatchObject({ Id: o.Id, CloseReason: "stop_out", UpdatePrice: 1.0801 });
    expect(r.balance(u)).toBe(r.ledgerSum(u));
  });

  it("trade.max_orders caps pending and open orders together", () => {
    r = rig();
    const u = r.user(100_000);
    r.feed.set("EURUSD", 1.1);
    r.setting("trade.max_orders", "2");
    buy(r, u);
    buy(r, u, { status: 0, target_price: "1.05" });
    expect(refusal(() => buy(r!, u))).toBe("too_many_orders");
    expect(refusal(() => buy(r!, u, { status: 0, target_price: "1.05" }))).toBe("too_many_orders");
    r.setting("trade.max_orders", "3");
    expect(buy(r, u).Status).toBe(1);
  });
});

describe("idempotency keys of cancel, set_stop_price and demo reset", () => {
  const pendingBuy = (r: Rig, u: number) =>
    buy(r, u, { status: 0, target_price: "1.05" }).Id as number;

  it("cancel: same key twice = one cancel and the same answer; per user; other body = 422", () => {
    r = rig();
    const a = r.user(10_000);
    const b = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const cancelled: number[] = [];
    r.engine.core.events.on("orderCancelled", (e) => cancelled.push(e.orderId));
    const pa = pendingBuy(r, a);
    const pa2 = pendingBuy(r, a);
    const pb = pendingBuy(r, b);
    const first = r.engine.cancel(a, pa, "k");
    expect(r.engine.cancel(a, pa, "k")).toEqual(first);
    expect(cancelled).toEqual([pa]);
    // User B's "k" is B's own key.
    expect(r.engine.cancel(b, pb, "k")).toMatchObject({ Id: pb, Status: 4 });
    expect(cancelled).toEqual([pa, pb]);
    // The same key on another order of A: 422, pa2 stays pending.
    expect(refusal(() => r!.engine.cancel(a, pa2, "k"))).toBe("idempotency_key_reused");
    expect(statusOf(() => r!.engine.cancel(a, pa2, "k"))).toBe(422);
    expect(r.engine.listOrders(a, 0, 1).data.map((o) => o.Id)).toEqual([pa2]);
    expect(cancelled).toEqual([pa, pb]);
  });

  it("set_stop_price: same key twice = one change and the same answer; per user; other body = 422", () => {
    r = rig();
    const a = r.user(10_000);
    const b = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const oa = buy(r, a).Id as number;
    const ob = buy(r, b).Id as number;
    const core = r.engine.core;
    const first = core.setStops(a, oa, 1.2, null, "ks");
    expect(core.setStops(a, oa, 1.2, null, "ks")).toEqual(first);
    expect(refusal(() => core.setStops(a, oa, 1.3, null, "ks"))).toBe("idempotency_key_reused");
    expect(statusOf(() => core.setStops(a, oa, 1.2, 1.0, "ks"))).toBe(422);
    const tpOf = (u: number) => r!.engine.listOrders(u, 1, 1).data[0].TargetProfitPrice;
    expect(tpOf(a)).toBe(1.2);
    expect(core.setStops(b, ob, 1.3, null, "ks").takeProfit).toBe(1.3);
    expect(tpOf(b)).toBe(1.3);
    expect(tpOf(a)).toBe(1.2);
    // Memory agrees with the store: 1.25 does not close A's position (TP 1.2 would), 1.2 does.
    r.feed.set("EURUSD", 1.2);
    expect(r.engine.listOrders(a, 3, 1).data[0]).toMatchObject({
      Id: oa,
      CloseReason: "take_profit",
    });
  });

  it("demo reset: same key twice = one reset and the same answer; per user; other request = 422", () => {
    r = rig();
    r.setting("demo.initial_balance", "5000");
    const a = r.user(5000, true);
    const b = r.user(5000, true);
    r.feed.set("EURUSD", 1.1);
    buy(r, a);
    const core = r.engine.core;
    const first = core.resetDemo(a, "kr");
    expect(first.balanceMicro).toBe(5_000_000_000);
    const after = buy(r, a).Id as number;
    const rows = r.ledger(a).length;
    expect(core.resetDemo(a, "kr")).toEqual(first);
    expect(r.ledger(a)).toHaveLength(rows);
    expect(r.engine.stats().open).toBe(1);
    // B's "kr" resets B.
    buy(r, b);
    expect(core.resetDemo(b, "kr").balanceMicro).toBe(5_000_000_000);
    expect(r.engine.listOrders(b, 1, 1).data).toEqual([]);
    // The same key on another request of A: 422, nothing changes.
    expect(statusOf(() => core.close(a, after, "kr"))).toBe(422);
    expect(statusOf(() => core.cancel(a, after, "kr"))).toBe(422);
    expect(r.engine.listOrders(a, 1, 1).data.map((o) => o.Id)).toEqual([after]);
    expect(r.ledger(a)).toHaveLength(rows);
    // And the reset's key used first elsewhere refuses the reset.
    core.close(a, after, "kc");
    const n = r.ledger(a).length;
    expect(statusOf(() => core.resetDemo(a, "kc"))).toBe(422);
    expect(r.ledger(a)).toHaveLength(n);
  });
});
