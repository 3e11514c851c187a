/** The order engine over a real store and the manual price feed: bookings, ticks, risk, restart. */
import { afterEach, describe, expect, it } from "vitest";
import { refusal, rig, wire, type Rig } from "./engine-helpers.js";
import { Engine } from "../../upstream/modules/trading/engine.js";
import { reopenTestStore } from "../support/test-store.js";
import { createManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { DomainError } from "../../upstream/platform/errors.js";

let r: Rig;
afterEach(() => r?.close());

const buy = (r: Rig, u: number, extra: Record<string, unknown> = {}) =>
  r.engine.submit(u, {
    type: 1,
    cont: "0.1",
    forex_id: r.id("EURUSD"),
    status: 1,
    multiple: 100,
    ...extra,
  });

describe("market orders", () => {
  it("fill at the current price, book the fee, hold the margin, and keep balance = sum of the ledger", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u);
    expect(o).toMatchObject({
      Status: 1,
      Price: 1.1,
      CautionMoney: 110,
      TradeFee: 0.22,
      Quantity: 0.1,
      Multiple: 100,
    });
    expect(r.ledger(u).map((l) => [l.kind, l.amount_micro])).toEqual([
      ["deposit", 1000_000000],
      ["fee", -220000],
    ]);
    expect(r.balance(u)).toBe(r.ledgerSum(u));
    const v = r.engine.accountValues(u);
    expect(v).toMatchObject({
      balance: 999.78,
      all_caution_money: 110,
      total: 999.78,
      can_use: 889.78,
    });
    r.feed.set("EURUSD", 1.105); // +0.005 x 10000 units = +50
    expect(r.engine.accountValues(u)).toMatchObject({
      total: 1049.78,
      can_use: 939.78,
      HazardRate: 954.35,
    });
  });

  it("fee type 1 charges lots x rate", () => {
    r = rig();
    r.setting("trade_fee_type", "1");
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    expect(buy(r, u, { cont: "0.5" }).TradeFee).toBe(0.001); // 0.5 lots x 0.002
  });

  it("are refused when free margin is too small, on a closed market or a stale quote, and nothing changes", () => {
    r = rig();
    const u = r.user(100);
    r.feed.set("EURUSD", 1.1);
    expect(refusal(() => buy(r, u))).toBe("insufficient_margin"); // 110 + 0.22 > 100
    r.feed.setOpen("EURUSD", false);
    expect(refusal(() => buy(r, u, { cont: "0.01" }))).toBe("market_closed");
    r.feed.setOpen("EURUSD", null);
    r.feed.set("EURUSD", 1.1, { at: Date.now() - 31_000 });
    expect(refusal(() => buy(r, u, { cont: "0.01" }))).toBe("quote_stale");
    expect(r.ledger(u)).toHaveLength(1);
    expect(r.engine.stats().open).toBe(0);
  });

  it("refuse an instrument without leverage options with no_mult_config", () => {
    r = rig();
    const u = r.user(100000);
    r.feed.set("AMZN", 186);
    r.feed.setOpen("AMZN", true);
    expect(
      refusal(() =>
        r.engine.submit(u, {
          type: 1,
          cont: "0.01",
          forex_id: r.id("AMZN"),
          status: 1,
          multiple: 10,
        }),
      ),
    ).toBe("no_mult_config");
  });

  it("convert a non-USD quote currency to USD at the current rate", () => {
    r = rig();
    const u = r.user(100000);
    r.feed.set("USDJPY", 150);
    const o = r.engine.submit(u, {
      type: 2,
      cont: "1",
      forex_id: r.id("USDJPY"),
      status: 1,
      multiple: 100,
    });
    expect(o.CautionMoney).toBe(1000); // 100000 x 150 / 100 JPY = 150000 JPY = 1000 USD
    r.feed.set("USDJPY", 149.25); // sell gains 0.75 JPY x 100000 = 75000 JPY at 1/149.25
    expect(r.engine.close(u, o.Id).FactProfits).toBe(502.512563); // 75000 / 149.25, half-even to 6 dp
  });
});

describe("pending orders", () => {
  it("reserve nothing, infer their type and activate at the tick's price", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const p = r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.09",
      multiple: 100,
    });
    expect(p).toMatchObject({
      Status: 0,
      PendingType: "buy_limit",
      OriginPrice: 1.09,
      CautionMoney: 0,
    });
    expect(r.engine.accountValues(u)).toMatchObject({ balance: 1000, can_use: 1000 });
    r.feed.set("EURUSD", 1.0905);
    expect(r.engine.listOrders(u, 0, 1).total).toBe(1);
    r.feed.set("EURUSD", 1.0898); // reached (gapped below the target): filled at this tick's price
    const open = r.engine.listOrders(u, 1, 1).data;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      Id: p.Id,
      Status: 1,
      Price: 1.0898,
      CautionMoney: 108.98,
      TradeFee: 0.21796,
    });
    expect(r.balance(u)).toBe(r.ledgerSum(u));
  });

  it("are cancelled with a reason when free margin is too small at activation", () => {
    r = rig();
    const u = r.user(50);
    r.feed.set("EURUSD", 1.1);
    const p = r.engine.submit(u, {
      type: 2,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.12",
      multiple: 100,
    });
    expect(p.PendingType).toBe("sell_limit");
    r.feed.set("EURUSD", 1.121);
    const h = r.engine.listOrders(u, 3, 1).data;
    expect(h[0]).toMatchObject({ Id: p.Id, Status: 4, CloseReason: "insufficient_margin" });
    expect(r.ledger(u)).toHaveLength(1);
  });

  it("can be cancelled; a pending order cannot be closed nor a position cancelled", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const p = r.engine.submit(u, {
      type: 2,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.09",
      multiple: 100,
    });
    expect(p.PendingType).toBe("sell_stop");
    expect(refusal(() => r.engine.close(u, p.Id))).toBe("order_not_open");
    expect(r.engine.cancel(u, p.Id)).toMatchObject({ Status: 4, CloseReason: "cancelled" });
    r.feed.set("EURUSD", 1.08);
    expect(r.engine.stats()).toMatchObject({ open: 0, pending: 0 });
    const o = buy(r, u);
    expect(refusal(() => r.engine.cancel(u, o.Id))).toBe("order_not_pending");
  });
});

describe("take-profit and stop-loss", () => {
  it("are validated against the current price when ordering and when changed", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    expect(refusal(() => buy(r, u, { target_profit_price: "1.09" }))).toBe("tp_buy");
    expect(refusal(() => buy(r, u, { stop_loss_price: "1.11" }))).toBe("sl_buy");
    const o = buy(r, u, { stop_loss_price: "0", target_profit_price: "" });
    expect(refusal(() => r.engine.setStops(u, o.Id, "1.2", "1.15"))).toBe("sl_buy");
    expect(r.engine.setStops(u, o.Id, "1.2", "1.05")).toMatchObject({
      TargetProfitPrice: 1.2,
      TargetLossPrice: 1.05,
    });
  });

  it("close at the tick's price: TP for a buy, SL for a sell", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const b = buy(r, u, { target_profit_price: "1.102" });
    const s = r.engine.submit(u, {
      type: 2,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 1,
      multiple: 100,
      stop_loss_price: "1.101",
    });
    r.feed.set("EURUSD", 1.1005);
    expect(r.engine.stats().open).toBe(2);
    r.feed.set("EURUSD", 1.1015); // sell SL (>= 1.101) at 1.1015: -0.0015 x 10000 = -15
    r.feed.set("EURUSD", 1.1023); // buy TP (>= 1.102) at 1.1023: +23
    const h = r.engine.listOrders(u, 3, 1);
    const byId = new Map(h.data.map((o) => [o.Id, o]));
    expect(byId.get(s.Id)).toMatchObject({
      CloseReason: "stop_loss",
      UpdatePrice: 1.1015,
      FactProfits: -15,
    });
    expect(byId.get(b.Id)).toMatchObject({
      CloseReason: "take_profit",
      UpdatePrice: 1.1023,
      FactProfits: 23,
    });
    expect(h.all_fact_profits).toBe(8);
    expect(r.balance(u)).toBe(1000_000000 - 2 * 220000 + 8_000000);
    expect(r.balance(u)).toBe(r.ledgerSum(u));
  });
});

describe("risk", () => {
  it("stop-out closes the largest loser first, then re-checks", () => {
    r = rig();
    const u = r.user(400);
    r.feed.set("EURUSD", 1.1);
    r.feed.set("GBPUSD", 1.3);
    // Margins: EURUSD 0.1 lot / 100 = 110; GBPUSD 0.1 lot / 100 = 130. Fees 0.22 + 0.26.
    const e = buy(r, u);
    const g = r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("GBPUSD"),
      status: 1,
      multiple: 100,
    });
    r.feed.set("GBPUSD", 1.285); // GBP -150: equity 399.52 - 150 = 249.52, level 249.52 / 240 = 104%
    expect(r.engine.accountValues(u).marginCall).toBe(false);
    r.feed.set("EURUSD", 1.0875); // EUR -125: equity 124.52, level 51.9% -> margin call, no stop-out
    expect(r.engine.accountValues(u).marginCall).toBe(true);
    expect(r.engine.stats().open).toBe(2);
    r.feed.set("EURUSD", 1.087); // EUR -130: equity 119.52 / 240 = 49.8% -> stop-out
    const h = r.engine.listOrders(u, 3, 1).data;
    expect(h.map((o) => [o.Id, o.CloseReason])).toEqual([[g.Id, "stop_out"]]); // GBP (-150) is the larger loser
    // After closing GBP: balance 249.52, EUR -130: equity 119.52 / 110 = 108.7% > 50%: EUR stays open.
    expect(r.engine.listOrders(u, 1, 1).data.map((o) => o.Id)).toEqual([e.Id]);
    expect(r.balance(u)).toBe(r.ledgerSum(u));
  });

  it("negative balance protection brings a negative balance to 0 with a 'protection' row", () => {
    r = rig();
    const u = r.user(200);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, { multiple: 200 }); // margin 55, fee 0.11
    r.feed.set("EURUSD", 1.05); // a gap: -500 in one tick; stop-out closes at this price
    const h = r.engine.listOrders(u, 3, 1).data;
    expect(h[0]).toMatchObject({ Id: o.Id, CloseReason: "stop_out", FactProfits: -500 });
    expect(r.ledger(u).map((l) => [l.kind, l.amount_micro, l.balance_after_micro])).toEqual([
      ["deposit", 200_000000, 200_000000],
      ["fee", -110000, 199_890000],
      ["realised_profit", -500_000000, -300_110000],
      ["protection", 300_110000, 0],
    ]);
    expect(r.balance(u)).toBe(0);
  });

  it("demo reset closes everything and restores demo.initial_balance with a 'demo_reset' row", () => {
    r = rig();
    const u = r.user(10000, true);
    r.feed.set("EURUSD", 1.1);
    buy(r, u);
    r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.0",
      multiple: 100,
    });
    r.feed.set("EURUSD", 1.09);
    const v = r.engine.resetDemo(u);
    expect(v).toMatchObject({
      balance: 10000,
      total: 10000,
      all_caution_money: 0,
      can_use: 10000,
      HazardRate: null,
    });
    expect(r.engine.stats()).toMatchObject({ open: 0, pending: 0 });
    expect(r.ledger(u).map((l) => l.kind)).toEqual([
      "demo_initial",
      "fee",
      "realised_profit",
      "demo_reset",
    ]);
    expect(r.balance(u)).toBe(r.ledgerSum(u));
    const real = r.user(10000);
    expect(refusal(() => r.engine.resetDemo(real))).toBe("only_demo");
  });
});

describe("durability and ownership", () => {
  it("a new engine on the same store loads open and pending orders and keeps acting on them", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, { target_profit_price: "1.2" });
    const p = r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      target_price: "1.05",
      multiple: 100,
    });
    r.engine.stop();
    const db2 = reopenTestStore(r.file);
    const feed2 = createManualFeed(db2);
    const e2 = wire(new Engine({ db: db2, feed: feed2 }));
    try {
      expect(e2.stats()).toMatchObject({ open: 1, pending: 1 });
      feed2.set("EURUSD", 1.2);
      expect(e2.listOrders(u, 3, 1).data[0]).toMatchObject({
        Id: o.Id,
        CloseReason: "take_profit",
        FactProfits: 1000,
      });
      feed2.set("EURUSD", 1.05);
      expect(e2.listOrders(u, 1, 1).data[0]).toMatchObject({ Id: p.Id, Price: 1.05 });
    } finally {
      e2.stop();
      db2.close();
    }
  });

  it("another account's order answers not found (404) and is left alone", () => {
    r = rig();
    const a = r.user(1000);
    const b = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, a);
    for (const fn of [
      () => r.engine.close(b, o.Id),
      () => r.engine.cancel(b, o.Id),
      () => r.engine.setStops(b, o.Id, "2", "0"),
    ]) {
      try {
        fn();
        throw new Error("accepted");
      } catch (e) {
        expect(e).toBeInstanceOf(DomainError);
        expect((e as DomainError).key).toBe("order_not_found");
        expect((e as DomainError).code).toBe(404);
      }
    }
    expect(r.engine.listOrders(a, 1, 1).total).toBe(1);
  });
});
