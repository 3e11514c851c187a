/**
 * What one tick books (upstream/modules/trading/ticks.ts onTick, settle; booking.ts activate,
 * stopOut): a tick of several instruments at once, activation at exactly the free margin, fills
 * without a fee, positions whose quote currency cannot be valued, stop-out at exactly the stop-out
 * level, a balance changed by another module, a booking the store refuses, and an engine that
 * stopped; and the equity floors a tick reports (copy trading's stop-loss).
 */
import { refuseUpdates } from "../support/test-store.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rig, type Rig } from "./engine-helpers.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import type { Quote } from "../../upstream/modules/market/feed.js";

let r: Rig | undefined;
afterEach(() => {
  r?.close();
  r = undefined;
  vi.restoreAllMocks();
});

const M = 1_000_000;

const order = (r: Rig, u: number, extra: Record<string, unknown> = {}) =>
  r.engine.submit(u, {
    type: 1,
    cont: "0.1",
    forex_id: r.id("EURUSD"),
    status: 1,
    multiple: 100,
    ...extra,
  });

/** A quote of `code` at `price` now, as a feed hands the engine a batch of changed quotes. */
const quote = (r: Rig, code: string, price: number): Quote => ({
  ...r.feed.quote(code)!,
  price,
  time: Date.now(),
});

describe("a tick of several instruments", () => {
  it("fills what each price reaches, oldest first within an instrument, and skips instruments without orders", () => {
    r = rig();
    const u = r.user(100_000);
    r.feed.set("EURUSD", 1.1);
    r.feed.set("GBPUSD", 1.3);
    const a = order(r, u, { status: 0, target_price: "1.09" });
    // On GBPUSD the older order has the higher target: the index holds it second.
    const b = order(r, u, { status: 0, target_price: "1.26", forex_id: r.id("GBPUSD") });
    const c = order(r, u, { status: 0, target_price: "1.25", forex_id: r.id("GBPUSD") });
    const t = order(r, u, { forex_id: r.id("GBPUSD"), target_profit_price: "1.35" });
    const seen: string[] = [];
    r.engine.core.events.on("orderActivated", (e) => seen.push(`${e.orderId}@${e.price}`));
    r.engine.core.events.on("positionsClosed", (e) => seen.push(`closed ${e.orderIds}`));
    r.engine.core.onTick([
      quote(r, "XAUUSD", 2400), // no order on gold
      quote(r, "EURUSD", 1.085),
      quote(r, "GBPUSD", 1.24),
    ]);
    expect(seen).toEqual([`${a.Id}@1.085`, `${b.Id}@1.24`, `${c.Id}@1.24`]);
    expect(r.engine.stats()).toMatchObject({ open: 4, pending: 0 });
    r.engine.core.onTick([quote(r, "XAUUSD", 2401), quote(r, "GBPUSD", 1.36)]);
    expect(seen.at(-1)).toBe(`closed ${t.Id}`);
  });
});

describe("activation", () => {
  it("fills when free margin is exactly margin and fee, and books the fee against the order", () => {
    r = rig();
    // 0.1 lot at 1.09, 1:100: margin 109, fee 0.218.
    const u = r.user(109.218);
    r.feed.set("EURUSD", 1.1);
    const p = order(r, u, { status: 0, target_price: "1.09" });
    r.feed.set("EURUSD", 1.09);
    expect(r.engine.listOrders(u, 1, 1).data[0]).toMatchObject({ Id: p.Id, CautionMoney: 109 });
    expect(r.engine.core.accountValues(u).freeMarginMicro).toBe(0);
    expect(r.ledger(u).at(-1)).toMatchObject({ kind: "fee", amount_micro: -218_000 });
  });

  it("cancels an order free margin cannot cover a micro-USD short, announced with its reason", () => {
    r = rig();
    const u = r.user(109.217999);
    r.feed.set("EURUSD", 1.1);
    const p = order(r, u, { status: 0, target_price: "1.09" });
    const cancelled: string[] = [];
    r.engine.core.events.on("orderCancelled", (e) =>
      cancelled.push(`${e.userId} ${e.orderId} ${e.reason}`),
    );
    r.feed.set("EURUSD", 1.09);
    expect(cancelled).toEqual([`${u} ${p.Id} insufficient_margin`]);
    expect(r.engine.stats()).toMatchObject({ open: 0, pending: 0 });
    expect(r.engine.core.accountValues(u)).toMatchObject({ usedMarginMicro: 0 });
    expect(r.ledger(u)).toHaveLength(1);
    // The order is gone from memory too: the next tick reaching its target does nothing.
    r.feed.set("EURUSD", 1.08);
    expect(r.engine.stats()).toMatchObject({ open: 0, pending: 0 });
  });

  it("an instrument without a fee books no fee row, on a market order or a fill", () => {
    r = rig();
    r.db.prepare("UPDATE instruments SET fee_rate = '0' WHERE code = 'EURUSD'").run();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    expect(order(r, u).TradeFee).toBe(0);
    order(r, u, { status: 0, target_price: "1.09" });
    r.feed.set("EURUSD", 1.09);
    expect(r.engine.stats().open).toBe(2);
    expect(r.ledger(u).map((l) => l.kind)).toEqual(["deposit"]);
  });
});

describe("a quote currency the feed cannot value", () => {
  it("leaves the positions in it unvalued and unmarked, and their pending orders unfilled", () => {
    r = rig();
    const u = r.user(100_000);
    r.feed.set("GBPUSD", 1.25);
    r.feed.set("EURGBP", 0.85);
    const o = order(r, u, { forex_id: r.id("EURGBP") });
    const p = order(r, u, { forex_id: r.id("EURGBP"), status: 0, target_price: "0.84" });
    r.feed.set("EURGBP", 0.86); // +0.01 GBP x 10000 = 100 GBP = 125 USD
    expect(r.engine.hotFloating(u)).toBe(125);
    expect(r.engine.core.accountValues(u).floatingMicro).toBe(125 * M);
    // The operator re-quotes the instrument in a currency no instrument prices.
    r.db.prepare("UPDATE instruments SET quote_currency = 'SEK' WHERE code = 'EURGBP'").run();
    r.engine.reloadSettings();
    expect(r.engine.core.accountValues(u).floatingMicro).toBe(0);
    expect(r.engine.core.snapshot(u).positions).toEqual([
      { id: o.Id, price: 0.86, profitMicro: 0, stopLoss: 0 },
    ]);
    r.feed.set("EURGBP", 0.83); // would reach the buy limit, and move the position
    expect(r.engine.hotFloating(u)).toBe(125);
    expect(r.engine.stats()).toMatchObject({ open: 1, pending: 1 });
    expect(r.engine.listOrders(u, 0, 1).data.map((x) => x.Id)).toEqual([p.Id]);
  });
});

describe("stop-out", () => {
  it("closes at exactly the stop-out level, though the float figures put it a hair above", () => {
    r = rig();
    // Balance 116 after the fee; at 1.0939 the buy loses 61: equity 55 of 110 used = 50 % exactly
    // (in floats 50.00000000000006 %).
    const u = r.user(116.22);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u);
    r.feed.set("EURUSD", 1.094); // equity 56: 50.9 %
    expect(r.engine.stats().open).toBe(1);
    r.feed.set("EURUSD", 1.0939);
    expect(r.engine.listOrders(u, 3, 1).data[0]).toMatchObject({
      Id: o.Id,
      CloseReason: "stop_out",
      FactProfits: -61,
    });
  });

  it("counts a balance changed by another module at the next tick", () => {
    r = rig();
    const u = r.user(200.22);
    r.feed.set("EURUSD", 1.1);
    order(r, u); // balance 200, used 110
    r.feed.set("EURUSD", 1.09); // -100: equity 100, level 90.9 %
    // A withdrawal takes 50 from the balance: equity 50, level 45.5 % at the same price.
    moneyOf(r.db).hold({ userId: u, amountMicro: 50 * M, ref: "draw:1" });
    expect(r.engine.stats().open).toBe(1);
    r.feed.set("EURUSD", 1.09);
    expect(r.engine.stats().open).toBe(0);
    expect(r.engine.listOrders(u, 3, 1).data[0]).toMatchObject({ CloseReason: "stop_out" });
  });
});

describe("a booking the store refuses", () => {
  it("leaves the position open and marked at the tick's price", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u, { target_profit_price: "1.11" });
    refuseUpdates(r.db, {
      name: "refuse_close",
      table: "orders",
      column: "status",
      condition: `NEW.id = ${o.Id} AND NEW.status = 3`,
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    r.feed.set("EURUSD", 1.1125);
    expect(r.engine.stats().open).toBe(1);
    expect(r.engine.hotFloating(u)).toBe(125);
    expect(r.engine.core.accountValues(u)).toMatchObject({
      floatingMicro: 125 * M,
      usedMarginMicro: 110 * M,
    });
  });
});

describe("an engine that stopped", () => {
  it("follows neither the feed nor the balances any more; detaching the feed alone stops the ticks", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    order(r, u, { target_profit_price: "1.2" });
    const core = r.engine.core;
    core.takeChanged(u);
    core.setFeed(null);
    r.feed.set("EURUSD", 1.21);
    expect(core.stats().open).toBe(1);
    core.setFeed(r.feed);
    // Attached again, the position is marked at 1.21: its account changed.
    expect(core.hotFloating(u)).toBe(1100);
    expect(core.takeChanged(u)).toBe(true);
    core.stop();
    r.feed.set("EURUSD", 1.22);
    expect(core.stats().open).toBe(1);
    moneyOf(r.db).post({ userId: u, amountMicro: 1, kind: "deposit" });
    expect(core.takeChanged(u)).toBe(false);
  });
});

describe("equity floors", () => {
  it("a tick tells the accounts it moved to or near their floor, and no others", () => {
    r = rig();
    const near = r.user(1_000);
    const far = r.user(1_000);
    const other = r.user(1_000);
    r.feed.set("EURUSD", 1.1);
    r.feed.set("GBPUSD", 1.3);
    // Set before the account holds a position (not yet in memory): it takes the floor when it is.
    r.engine.core.setEquityFloor(near, 900 * M);
    order(r, near);
    order(r, far);
    order(r, other, { forex_id: r.id("GBPUSD") });
    r.engine.core.setEquityFloor(far, 100 * M);
    // Above its equity already, but only a tick of its own instrument moves it.
    r.engine.core.setEquityFloor(other, 10_000 * M);
    const heard: number[][] = [];
    r.engine.core.onEquityFloor((ids) => heard.push([...ids]));

    r.feed.set("EURUSD", 1.095); // 0.1 lot: about 50 USD down, still clearly above 900
    expect(heard).toEqual([]);
    r.feed.set("EURUSD", 1.09); // about 100 USD down: at or below 900
    expect(heard).toEqual([[near]]);
    r.feed.set("GBPUSD", 1.3001);
    expect(heard).toEqual([[near], [other]]);

    r.engine.core.setEquityFloor(near, null);
    r.engine.core.setEquityFloor(other, null);
    r.feed.set("EURUSD", 1.085);
    r.feed.set("GBPUSD", 1.3002);
    expect(heard).toEqual([[near], [other]]);
    expect(r.engine.core.clearlyAboveMicro(far, 100 * M)).toBe(true);
    expect(r.engine.core.clearlyAboveMicro(near, 900 * M)).toBe(false);
  });

  it("refuses a floor that is not in whole micro-USD", () => {
    r = rig();
    expect(() => r!.engine.core.setEquityFloor(r!.user(10), 1.5)).toThrow(/whole micro-USD/);
  });
});
