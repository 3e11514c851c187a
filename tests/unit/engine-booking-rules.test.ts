/**
 * The order engine's bookings at the edges of their rules (upstream/modules/trading/submit.ts,
 * commands.ts, booking.ts): free margin to the micro-USD (the float fast path never lets through
 * what the exact rule refuses), refusals of orders the engine cannot price, who may act on which
 * order, take-profit and stop-loss of pending orders, negative balance protection only on the last
 * position, the oldest pending order first, demo resets, and the figures and flags the pushes read.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { refusal, rig, wire, type Rig } from "./engine-helpers.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { Engine } from "../../upstream/modules/trading/engine.js";
import { reopenTestStore } from "../support/test-store.js";
import { createManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { dec } from "../../upstream/modules/money/decimal.js";

let r: Rig | undefined;
afterEach(() => {
  r?.close();
  r = undefined;
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

/** The DomainError a call refuses with: key, code and message parameters. */
function refused(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { key: e.key, code: e.code, params: e.params };
    throw e;
  }
  return "accepted";
}

describe("free margin of a new order", () => {
  // A buy of 0.1 lot EURUSD at 1.1, 1:100: margin 110, fee 0.22 (0.2 % of the margin).
  it("with a position open, refuses an order 0.50 USD beyond free margin and shows both figures", () => {
    r = rig();
    const u = r.user(219.94);
    r.feed.set("EURUSD", 1.1);
    order(r, u); // balance 219.72, used 110: free 109.72
    expect(refused(() => order(r!, u))).toEqual({
      key: "insufficient_margin",
      code: 0,
      params: { need: "110.22", free: "109.72" },
    });
    expect(r.engine.stats().open).toBe(1);
  });

  it("accepts an order that needs exactly the free margin, and none a micro-USD more", () => {
    r = rig();
    const u = r.user(220.44);
    r.feed.set("EURUSD", 1.1);
    order(r, u); // free 110.22: exactly margin + fee of the same order again
    expect(order(r, u).Status).toBe(1);
    expect(r.engine.core.accountValues(u).freeMarginMicro).toBe(0);

    const v = r.user(220.44 - 0.000001);
    order(r, v);
    expect(refused(() => order(r!, v))).toMatchObject({ key: "insufficient_margin" });
  });

  it("counts the floating profit of open positions, exactly", () => {
    r = rig();
    const u = r.user(200);
    r.feed.set("EURUSD", 1.1);
    order(r, u); // balance 199.78, used 110: free 89.78
    expect(refused(() => order(r!, u))).toMatchObject({ key: "insufficient_margin" });
    r.feed.set("EURUSD", 1.10205); // +0.00205 x 10000 = +20.50: free 110.28
    // The next order at 1.10205 needs 110.205 + 0.22041 = 110.42541: still refused...
    expect(refused(() => order(r!, u))).toMatchObject({
      key: "insufficient_margin",
      params: { need: "110.43", free: "110.28" },
    });
    r.feed.set("EURUSD", 1.1022); // +22: free 111.78 >= 110.4409
    expect(order(r, u).Status).toBe(1);
  });

  it("without a position, the balance must cover margin and fee together", () => {
    r = rig();
    const u = r.user(110.1); // margin 110 and fee 0.22: 0.12 short
    r.feed.set("EURUSD", 1.1);
    expect(refused(() => order(r!, u))).toEqual({
      key: "insufficient_margin",
      code: 0,
      params: { need: "110.22", free: "110.10" },
    });
  });

  it("with a large floating profit, an order 2 USD beyond free margin is still refused", () => {
    r = rig();
    // Balance 1002.283 after the first fee; at 1.15 the buy gains 500: free 1392.283.
    const u = r.user(1002.503);
    r.feed.set("EURUSD", 1.1);
    order(r, u);
    r.feed.set("EURUSD", 1.15);
    expect(r.engine.core.accountValues(u).freeMarginMicro).toBe(1_392_283_000);
    // 2.42 lots at 1.15, 1:200: margin 1391.5, fee 2.783: 1394.283 in all.
    expect(refused(() => order(r!, u, { cont: "2.42", multiple: 200 }))).toEqual({
      key: "insufficient_margin",
      code: 0,
      params: { need: "1394.28", free: "1392.28" },
    });
    expect(order(r, u, { cont: "2.41", multiple: 200 }).Status).toBe(1);
  });

  it("shows a free margin below zero as 0.00", () => {
    r = rig();
    const u = r.user(150);
    r.feed.set("EURUSD", 1.1);
    order(r, u); // free 39.78
    r.feed.set("EURUSD", 1.095); // -50: equity 99.78, used 110: free -10.22 (level 90.7 %)
    expect(r.engine.core.accountValues(u).freeMarginMicro).toBe(-10_220_000);
    expect(refused(() => order(r!, u, { cont: "0.01" }))).toEqual({
      key: "insufficient_margin",
      code: 0,
      params: { need: "10.97", free: "0.00" },
    });
  });
});

describe("orders the engine cannot take", () => {
  it("are refused for an unknown or disabled instrument, a missing target, no quote or no USD rate", () => {
    r = rig();
    const u = r.user(100_000);
    r.feed.set("EURUSD", 1.1);
    expect(refusal(() => order(r!, u, { forex_id: 999_999 }))).toBe("instrument_not_found");
    // No instrument at all is the field's refusal, by submit's schema, before the engine.
    expect(refusal(() => order(r!, u, { forex_id: "" }))).toBe("trade_invalid_field");
    expect(refusal(() => order(r!, u, { status: 0, target_price: "" }))).toBe(
      "target_price_required",
    );
    // GBPUSD's only quote is the one of its seed, of long ago: stale.
    expect(refusal(() => order(r!, u, { forex_id: r!.id("GBPUSD") }))).toBe("quote_stale");
    // EURGBP quoted in a currency the feed cannot value in USD: its margin cannot be booked.
    r.feed.set("GBPUSD", 1.25);
    r.feed.set("EURGBP", 0.85);
    r.db.prepare("UPDATE instruments SET quote_currency = 'SEK' WHERE code = 'EURGBP'").run();
    expect(refusal(() => order(r!, u, { forex_id: r!.id("EURGBP") }))).toBe("quote_stale");
    expect(
      refusal(() => order(r!, u, { forex_id: r!.id("EURGBP"), status: 0, target_price: "0.84" })),
    ).toBe("quote_stale");
    r.db.prepare("UPDATE instruments SET quote_currency = 'GBP' WHERE code = 'EURGBP'").run();
    r.engine.reloadSettings();
    expect(order(r, u, { forex_id: r.id("EURGBP") }).CautionMoney).toBe(106.25); // 85 GBP
    r.db.prepare("UPDATE instruments SET enabled = 0 WHERE code = 'EURUSD'").run();
    r.engine.reloadSettings();
    expect(refusal(() => order(r!, u))).toBe("instrument_not_found");
    expect(r.engine.stats().open).toBe(1);
  });
});

describe("who may act on an order", () => {
  it("an order id that is missing, unknown or another user's is not found; a closed one is not open", () => {
    r = rig();
    const a = r.user(1000);
    const b = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, a);
    r.engine.close(a, o.Id);
    const core = r.engine.core;
    for (const fn of [
      () => core.close(a, null),
      () => core.close(a, 999_999),
      () => core.close(b, o.Id),
      () => core.cancel(b, o.Id),
      () => core.setStops(b, o.Id, 1.2, null),
    ])
      expect(refused(fn)).toMatchObject({ key: "order_not_found", code: 404 });
    expect(refusal(() => core.close(a, o.Id))).toBe("order_not_open");
    expect(refusal(() => core.setStops(a, o.Id, 1.2, null))).toBe("order_not_open");
  });
});

describe("take-profit and stop-loss of pending orders", () => {
  it("are validated against the target price, not the market", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    // A buy limit at 1.05: TP 1.07 is above the target (though below the market).
    const p = order(r, u, { status: 0, target_price: "1.05", target_profit_price: "1.07" });
    expect(p).toMatchObject({ Status: 0, TargetProfitPrice: 1.07 });
    expect(
      refused(() => order(r!, u, { status: 0, target_price: "1.05", stop_loss_price: "1.06" })),
    ).toEqual({ key: "sl_buy", code: 0, params: { price: "1.05000" } });
    expect(r.engine.setStops(u, p.Id, "1.06", "1.04")).toMatchObject({
      TargetProfitPrice: 1.06,
      TargetLossPrice: 1.04,
    });
    expect(refusal(() => r!.engine.setStops(u, p.Id, "1.04", "0"))).toBe("tp_buy");
  });

  it("carry over to the position the order fills, which then closes at them", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const p = order(r, u, {
      status: 0,
      target_price: "1.09",
      target_profit_price: "1.095",
      stop_loss_price: "1.08",
    });
    r.feed.set("EURUSD", 1.089); // filled at 1.089
    expect(r.engine.listOrders(u, 1, 1).data[0]).toMatchObject({
      Id: p.Id,
      Price: 1.089,
      TargetProfitPrice: 1.095,
      TargetLossPrice: 1.08,
    });
    r.feed.set("EURUSD", 1.0951);
    expect(r.engine.listOrders(u, 3, 1).data[0]).toMatchObject({
      Id: p.Id,
      CloseReason: "take_profit",
      UpdatePrice: 1.0951,
      FactProfits: 61, // (1.0951 - 1.089) x 10000
    });
  });

  it("cleared stops of a position no longer close it; stops set later do", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u, { target_profit_price: "1.11", stop_loss_price: "1.09" });
    expect(r.engine.setStops(u, o.Id, "0", "")).toMatchObject({
      TargetProfitPrice: 0,
      TargetLossPrice: 0,
    });
    r.feed.set("EURUSD", 1.115);
    r.feed.set("EURUSD", 1.085);
    expect(r.engine.stats().open).toBe(1);
    r.engine.setStops(u, o.Id, "0", "1.08");
    r.feed.set("EURUSD", 1.09);
    expect(r.engine.stats().open).toBe(1);
    r.feed.set("EURUSD", 1.0799);
    expect(r.engine.listOrders(u, 3, 1).data[0]).toMatchObject({
      Id: o.Id,
      CloseReason: "stop_loss",
      UpdatePrice: 1.0799,
    });
  });
});

describe("closing", () => {
  it("a position closed at its open price books no profit row", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u);
    expect(r.engine.close(u, o.Id)).toMatchObject({ Status: 3, FactProfits: 0, UpdatePrice: 1.1 });
    expect(r.ledger(u).map((l) => l.kind)).toEqual(["deposit", "fee"]);
    expect(r.engine.accountValues(u)).toMatchObject({ balance: 999.78, all_caution_money: 0 });
  });

  it("negative balance protection waits for the account's last position", () => {
    r = rig();
    const u = r.user(300);
    r.feed.set("EURUSD", 1.1);
    r.feed.set("USDJPY", 150);
    const loser = order(r, u, { multiple: 200 }); // margin 55, fee 0.11
    const other = r.engine.submit(u, {
      type: 1,
      cont: "0.01",
      forex_id: r.id("USDJPY"),
      status: 1,
      multiple: 200,
    }); // margin 5, fee 0.01
    r.setting("risk.stop_out_pct", "-100000"); // no stop-out: the user closes
    r.feed.set("EURUSD", 1.05); // -500
    r.engine.close(u, loser.Id);
    expect(r.balance(u)).toBe(300 * M - 110_000 - 10_000 - 500 * M);
    expect(r.ledger(u).map((l) => l.kind)).not.toContain("protection");
    r.engine.close(u, other.Id);
    expect(r.ledger(u).at(-1)).toMatchObject({
      kind: "protection",
      amount_micro: 200_120_000,
      ref: `order:${other.Id}`,
      balance_after_micro: 0,
    });
    expect(r.engine.accountValues(u)).toMatchObject({ balance: 0, total: 0, can_use: 0 });
  });
});

describe("pending orders reached by one tick", () => {
  it("fill oldest first when free margin covers only one; the other is cancelled", () => {
    r = rig();
    const u = r.user(150);
    r.feed.set("EURUSD", 1.1);
    // The older order has the higher target: the price index holds it after the younger one.
    const older = order(r, u, { status: 0, target_price: "1.095" });
    const younger = order(r, u, { status: 0, target_price: "1.09" });
    r.feed.set("EURUSD", 1.085); // reaches both: one needs 108.5 + 0.217
    const open = r.engine.listOrders(u, 1, 1).data;
    expect(open.map((o) => [o.Id, o.Price])).toEqual([[older.Id, 1.085]]);
    expect(r.engine.listOrders(u, 3, 1).data[0]).toMatchObject({
      Id: younger.Id,
      Status: 4,
      CloseReason: "insufficient_margin",
    });
    expect(r.ledger(u).at(-1)).toMatchObject({
      kind: "fee",
      amount_micro: -217_000,
      ref: `order:${older.Id}`,
    });
  });

  it("a fill counts the floating profit of the account's other positions", () => {
    r = rig();
    const u = r.user(200);
    r.feed.set("EURUSD", 1.1);
    order(r, u); // balance 199.78, used 110
    const p = order(r, u, { status: 0, target_price: "1.12", type: 2 }); // sell limit
    // At 1.12 the buy gains 200: free 289.78 covers the sell's 112 + 0.224.
    r.feed.set("EURUSD", 1.12);
    expect(r.engine.listOrders(u, 1, 1).data.map((o) => o.Id)).toContain(p.Id);
    expect(r.engine.core.accountValues(u).usedMarginMicro).toBe(222 * M);
  });
});

describe("demo reset", () => {
  it("closes at the current price and cancels pending orders with reason demo_reset, announced after", () => {
    r = rig();
    r.setting("demo.initial_balance", "5000");
    const u = r.user(5000, true);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u);
    const p = order(r, u, { status: 0, target_price: "1.0" });
    r.feed.set("EURUSD", 1.102);
    const seen: string[] = [];
    r.engine.core.events.on("positionsClosed", (e) =>
      seen.push(`closed ${e.orderIds.join(",")} ${e.reason}`),
    );
    r.engine.core.events.on("orderCancelled", (e) =>
      seen.push(`cancelled ${e.orderId} ${e.reason}`),
    );
    const v = r.engine.core.resetDemo(u);
    expect(v).toMatchObject({ balanceMicro: 5000 * M, usedMarginMicro: 0, marginLevelPct: null });
    expect(seen).toEqual([`closed ${o.Id} demo_reset`, `cancelled ${p.Id} demo_reset`]);
    const history = r.engine.listOrders(u, 3, 1).data;
    expect(history.find((x) => x.Id === o.Id)).toMatchObject({
      Status: 3,
      CloseReason: "demo_reset",
      UpdatePrice: 1.102,
      FactProfits: 20,
    });
    expect(history.find((x) => x.Id === p.Id)).toMatchObject({
      Status: 4,
      CloseReason: "demo_reset",
    });
    expect(r.ledger(u).map((l) => [l.kind, l.amount_micro])).toEqual([
      ["demo_initial", 5000 * M],
      ["fee", -220_000],
      ["realised_profit", 20 * M],
      ["demo_reset", -19_780_000],
    ]);
  });

  it("books nothing for an account already at the initial balance; refuses unknown users", () => {
    r = rig();
    const u = r.user(10_000, true);
    const seen: unknown[] = [];
    r.engine.core.events.on("positionsClosed", (e) => seen.push(e));
    expect(r.engine.core.resetDemo(u)).toMatchObject({ balanceMicro: 10_000 * M });
    expect(r.ledger(u)).toHaveLength(1);
    expect(seen).toEqual([]);
    expect(refused(() => r!.engine.core.resetDemo(999_999))).toMatchObject({
      key: "not_found",
      code: 404,
    });
  });
});

describe("figures and flags the pushes read", () => {
  it("an account's figures before it ever traded, and unknown users", () => {
    r = rig();
    const u = r.user(250);
    expect(r.engine.core.accountValues(u)).toEqual({
      balanceMicro: 250 * M,
      lockMicro: 0,
      equityMicro: 250 * M,
      floatingMicro: 0,
      usedMarginMicro: 0,
      freeMarginMicro: 250 * M,
      marginLevelPct: null,
      marginCall: false,
    });
    expect(refused(() => r!.engine.core.accountValues(999_999))).toMatchObject({
      key: "not_found",
      code: 404,
    });
    expect(refused(() => r!.engine.core.listOrders(999_999, 1, 1))).toMatchObject({
      key: "not_found",
    });
    expect(r.engine.core.takeChanged(999_999)).toBe(false);
    expect(r.engine.hotFloating(999_999)).toBe(0);
  });

  it("the snapshot shows each open position at the current price with its exact profit", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    r.feed.set("USDJPY", 150);
    const e = order(r, u);
    const j = r.engine.submit(u, {
      type: 2,
      cont: "1",
      forex_id: r.id("USDJPY"),
      status: 1,
      multiple: 100,
    });
    r.feed.set("EURUSD", 1.1037);
    r.feed.set("USDJPY", 149.25);
    const s = r.engine.core.snapshot(u);
    const byId = new Map(s.positions.map((p) => [p.id, p]));
    expect(byId.get(e.Id)).toEqual({ id: e.Id, price: 1.1037, profitMicro: 37 * M, stopLoss: 0 });
    expect(byId.get(j.Id)).toEqual({
      id: j.Id,
      price: 149.25,
      profitMicro: 502_512_563,
      stopLoss: 0,
    });
    expect(s.figures.floatingMicro).toBe(37 * M + 502_512_563);
    expect(s.figures.usedMarginMicro).toBe(110 * M + 1000 * M);
    expect(r.engine.core.snapshot(r.user(5)).positions).toEqual([]);
  });

  it("flags an account changed by an order, a tick of its instrument, or a booking by another module", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    r.feed.set("GBPUSD", 1.3);
    const core = r.engine.core;
    order(r, u);
    expect(core.takeChanged(u)).toBe(true);
    expect(core.takeChanged(u)).toBe(false);
    r.feed.set("GBPUSD", 1.31); // not held
    expect(core.takeChanged(u)).toBe(false);
    r.feed.set("EURUSD", 1.101);
    expect(core.takeChanged(u)).toBe(true);
    expect(core.takeChanged(u)).toBe(false);
    moneyOf(r.db).post({ userId: u, amountMicro: 5 * M, kind: "deposit" });
    expect(core.takeChanged(u)).toBe(true);
    expect(core.accountValues(u).balanceMicro).toBe(1004_780_000);
  });

  it("after a restart the exact figures and the hot path are at the current price before any tick", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u);
    r.feed.set("EURUSD", 1.1025);
    expect(r.engine.hotFloating(u)).toBe(25);
    r.engine.stop();
    const db2 = reopenTestStore(r.file);
    const feed2 = createManualFeed(db2);
    feed2.set("EURUSD", 1.0975);
    const e2 = wire(new Engine({ db: db2, feed: feed2 }));
    try {
      expect(e2.core.accountValues(u)).toMatchObject({
        floatingMicro: -25 * M,
        usedMarginMicro: 110 * M,
        equityMicro: 9_999_780_000 - 25 * M,
      });
      expect(e2.listOrders(u, 1, 1)).toMatchObject({ all_fact_profits: -25 });
      expect(e2.hotFloating(u)).toBe(-25);
      feed2.set("EURUSD", 1.0975);
      expect(e2.hotFloating(u)).toBe(-25);
      feed2.set("EURUSD", 1.1005);
      expect(e2.hotFloating(u)).toBe(5);
      expect(e2.close(u, o.Id).FactProfits).toBe(5);
      expect(e2.hotFloating(u)).toBe(0);
    } finally {
      e2.stop();
      db2.close();
    }
  });

  it("after a restart the quick margin check counts a loaded position's loss before its market ticks", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    order(r, u); // 0.1 lot at 1:100: 110 USD of margin, 0.22 of fee
    r.engine.stop();
    const db2 = reopenTestStore(r.file);
    const feed2 = createManualFeed(db2);
    // Restarted while EURUSD stands 800 pips lower and has not ticked since: 800 USD of loss, so
    // 1,000 - 0.22 - 800 - 110 = 89.78 USD free, less than another 0.1 lot's 102.20.
    feed2.set("EURUSD", 1.02);
    const e2 = wire(new Engine({ db: db2, feed: feed2 }));
    try {
      expect(e2.hotFloating(u)).toBe(-800);
      expect(refused(() => order({ ...r!, engine: e2 }, u))).toMatchObject({
        key: "insufficient_margin",
        params: { need: "102.20", free: "89.78" },
      });
      expect(e2.stats().open).toBe(1);
    } finally {
      e2.stop();
      db2.close();
    }
  });

  it("lists pending, open and past orders page by page, with the tab's profit", () => {
    r = rig();
    const u = r.user(100_000);
    r.feed.set("EURUSD", 1.1);
    const ids = Array.from({ length: 12 }, () => order(r!, u).Id as number);
    for (const id of ids.slice(0, 11)) r.engine.close(u, id);
    r.feed.set("EURUSD", 1.101);
    r.engine.close(u, ids[11]);
    const open = order(r, u);
    r.feed.set("EURUSD", 1.103);
    const past1 = r.engine.listOrders(u, 3, 1);
    expect(past1.total).toBe(12);
    expect(past1.all_fact_profits).toBe(10);
    expect(past1.data[0].Id).toBe(ids[11]);
    const past2 = r.engine.listOrders(u, 3, 2);
    expect(past2.data.map((o) => o.Id)).toEqual(
      ids
        .slice(0, 12 - past1.data.length)
        .reverse()
        .slice(0, past2.data.length),
    );
    expect(r.engine.listOrders(u, 1, 1)).toMatchObject({ total: 1, all_fact_profits: 20 });
    expect(r.engine.listOrders(u, 1, 1).data[0]).toMatchObject({ Id: open.Id, UpdatePrice: 1.103 });
    expect(r.engine.listOrders(u, 0, 1)).toMatchObject({ total: 0, all_fact_profits: 0 });
    expect(dec(r.engine.listOrders(u, 1, 1).balance).toNumber()).toBe(r.balance(u) / M);
  });
});

describe("the price feed", () => {
  it("without a feed, positions are valued at their open price and nothing can be traded; a feed attached later prices them", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u, { target_profit_price: "1.2" });
    r.engine.stop();
    const db2 = reopenTestStore(r.file);
    const e2 = new Engine({ db: db2, feed: null });
    const feed2 = createManualFeed(db2);
    try {
      expect(e2.accountValues(u)).toMatchObject({ floatingMicro: 0, usedMarginMicro: 110 * M });
      expect(e2.snapshot(u).positions).toEqual([
        { id: o.Id, price: 1.1, profitMicro: 0, stopLoss: 0 },
      ]);
      expect(refusal(() => e2.close(u, o.Id))).toBe("quote_stale");
      expect(refusal(() => e2.setStops(u, o.Id, 1.3, null))).toBe("quote_stale");
      expect(e2.usdRate({ quoteCurrency: "JPY" } as never)).toBeNull();
      feed2.set("EURUSD", 1.15); // not attached yet: nothing moves
      expect(e2.stats().open).toBe(1);
      e2.setFeed(feed2);
      expect(e2.accountValues(u).floatingMicro).toBe(500 * M);
      expect(e2.hotFloating(u)).toBe(500);
      expect(e2.snapshot(u).positions).toEqual([
        { id: o.Id, price: 1.15, profitMicro: 500 * M, stopLoss: 0 },
      ]);
      feed2.set("EURUSD", 1.2);
      expect(e2.stats().open).toBe(0);
      expect(wire(e2).listOrders(u, 3, 1).data[0]).toMatchObject({ CloseReason: "take_profit" });
    } finally {
      e2.stop();
      feed2.stop();
      db2.close();
    }
  });

  it("a replaced feed's ticks no longer reach the engine", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    order(r, u, { target_profit_price: "1.2" });
    const other = createManualFeed(r.db);
    try {
      r.engine.core.setFeed(other);
      r.engine.core.setFeed(other); // the same feed again changes nothing
      r.feed.set("EURUSD", 1.25);
      expect(r.engine.stats().open).toBe(1);
      other.set("EURUSD", 1.21);
      expect(r.engine.stats().open).toBe(0);
    } finally {
      other.stop();
    }
  });
});

describe("commands and their answers", () => {
  it("the same key twice places one order and answers the first; another order under the key is refused", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const req = { type: 1, cont: "0.1", forex_id: r.id("EURUSD"), status: 1, multiple: 100 };
    const first = r.engine.submit(u, req, "k1");
    r.feed.set("EURUSD", 1.2);
    expect(r.engine.submit(u, req, "k1")).toEqual(first);
    expect(r.engine.stats().open).toBe(1);
    expect(refused(() => r!.engine.submit(u, { ...req, cont: "0.2" }, "k1"))).toMatchObject({
      key: "idempotency_key_reused",
    });
    const p = r.engine.submit(u, { ...req, status: 0, target_price: "1.0" }, "k2");
    expect(r.engine.submit(u, { ...req, status: 0, target_price: "1.0" }, "k2")).toEqual(p);
    expect(r.engine.stats()).toMatchObject({ open: 1, pending: 1 });
  });

  it("a close under the same key twice closes once, at the first price, as a manual close", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u);
    r.feed.set("EURUSD", 1.103);
    const first = r.engine.close(u, o.Id, "c1");
    expect(first).toMatchObject({ Status: 3, CloseReason: "manual", FactProfits: 30 });
    r.feed.set("EURUSD", 1.2);
    expect(r.engine.close(u, o.Id, "c1")).toEqual(first);
    expect(r.ledger(u).at(-1)).toMatchObject({
      kind: "realised_profit",
      amount_micro: 30 * M,
      ref: `order:${o.Id}`,
    });
    expect(r.ledger(u).filter((l) => l.kind === "realised_profit")).toHaveLength(1);
  });

  it("an order for a user that does not exist is not found", () => {
    r = rig();
    r.feed.set("EURUSD", 1.1);
    expect(refused(() => order(r!, 999_999))).toMatchObject({ key: "not_found", code: 404 });
  });

  it("the order cap refusal names the cap", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    r.setting("trade.max_orders", "1");
    order(r, u);
    expect(refused(() => order(r!, u))).toEqual({
      key: "too_many_orders",
      code: 0,
      params: { count: 1 },
    });
  });
});

describe("stops of open positions", () => {
  it("are validated against the current price, not the open price", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u);
    r.feed.set("EURUSD", 1.12);
    expect(refused(() => r!.engine.setStops(u, o.Id, "1.11", "0"))).toEqual({
      key: "tp_buy",
      code: 0,
      params: { price: "1.12000" },
    });
    expect(r.engine.setStops(u, o.Id, "0", "1.11")).toMatchObject({ TargetLossPrice: 1.11 });
  });

  it("editing a pending order's stops leaves the positions of its instrument alone, and is announced", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u, { target_profit_price: "1.2" });
    const p = order(r, u, { status: 0, target_price: "1.05" });
    const changed: number[] = [];
    r.engine.core.events.on("stopsChanged", (e) => changed.push(e.orderId));
    r.engine.setStops(u, p.Id, "1.07", "1.04");
    expect(changed).toEqual([p.Id]);
    r.feed.set("EURUSD", 1.15); // above the pending order's TP, below the position's
    expect(r.engine.listOrders(u, 1, 1).data.map((x) => x.Id)).toEqual([o.Id]);
    expect(r.engine.stats()).toMatchObject({ open: 1, pending: 1 });
  });

  it("a position's stop-loss survives a restart", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = order(r, u, { stop_loss_price: "1.09" });
    r.engine.stop();
    const db2 = reopenTestStore(r.file);
    const feed2 = createManualFeed(db2);
    const e2 = wire(new Engine({ db: db2, feed: feed2 }));
    try {
      feed2.set("EURUSD", 1.0899);
      expect(e2.listOrders(u, 3, 1).data[0]).toMatchObject({ Id: o.Id, CloseReason: "stop_loss" });
    } finally {
      e2.stop();
      db2.close();
    }
  });
});

describe("figures after partial closes and demo resets", () => {
  it("closing one of two positions of an instrument leaves the other's floating profit", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const a = order(r, u);
    r.feed.set("EURUSD", 1.102);
    order(r, u, { type: 2 }); // a sell at 1.102
    r.feed.set("EURUSD", 1.105);
    expect(r.engine.core.accountValues(u).floatingMicro).toBe((50 - 30) * M);
    r.engine.close(u, a.Id);
    expect(r.engine.core.accountValues(u)).toMatchObject({
      floatingMicro: -30 * M,
      usedMarginMicro: 110_200_000,
    });
    expect(r.engine.hotFloating(u)).toBe(-30);
  });

  it("a demo reset books a position's profit in USD, nothing for a flat one", () => {
    r = rig();
    const u = r.user(10_000, true);
    r.feed.set("USDJPY", 150);
    r.feed.set("EURUSD", 1.1);
    const j = r.engine.submit(u, {
      type: 1,
      cont: "1",
      forex_id: r.id("USDJPY"),
      status: 1,
      multiple: 100,
    });
    const flat = order(r, u);
    r.feed.set("USDJPY", 151.5); // +1.5 JPY x 100000 = 150000 JPY at 1/151.5 = 990.099010 USD
    r.engine.core.resetDemo(u);
    const rows = r.ledger(u).filter((l) => l.kind === "realised_profit");
    expect(rows).toEqual([
      expect.objectContaining({ amount_micro: 990_099_010, ref: `order:${j.Id}` }),
    ]);
    expect(r.engine.listOrders(u, 3, 1).data.find((x) => x.Id === flat.Id)).toMatchObject({
      FactProfits: 0,
      CloseReason: "demo_reset",
    });
    expect(r.ledger(u).at(-1)).toMatchObject({ kind: "demo_reset", ref: "demo_reset" });
    expect(r.balance(u)).toBe(10_000 * M);
  });

  it("a pending order is listed at the current market price", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const p = order(r, u, { status: 0, target_price: "1.05" });
    r.feed.set("EURUSD", 1.098);
    expect(r.engine.listOrders(u, 0, 1).data[0]).toMatchObject({
      Id: p.Id,
      OriginPrice: 1.05,
      UpdatePrice: 1.098,
      Status: 0,
    });
  });
});

describe("quote age", () => {
  afterEach(() => vi.useRealTimers());

  it("a quote exactly market.stale_after_s old still opens and closes; a millisecond older does not", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-11-25T12:00:00Z"));
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    vi.setSystemTime(Date.now() + 30_000);
    const o = order(r, u);
    expect(o.Status).toBe(1);
    expect(r.engine.close(u, o.Id).Status).toBe(3);
    const o2 = order(r, u);
    vi.setSystemTime(Date.now() + 1);
    expect(refusal(() => order(r!, u))).toBe("quote_stale");
    expect(refusal(() => r!.engine.close(u, o2.Id))).toBe("quote_stale");
  });

  it("without a feed there is no quote to order at", () => {
    r = rig();
    const u = r.user(1000);
    r.engine.core.setFeed(null);
    expect(refusal(() => order(r!, u))).toBe("quote_stale");
  });
});
