/**
 * The trader's tools of the engine (trading-rules.md "Trailing stops and break-even", "Partial
 * close", "Pending-order expiry", "Stops in pips"): a trailing stop that follows the price only in
 * the position's favour and closes as `trailing_stop`; its activation; break-even; a partial close
 * that splits margin, fee and profit exactly and keeps the rest's stops; expiry of pending orders;
 * take-profit and stop-loss given in pips; and all of it surviving a restart of the engine.
 */
import { afterEach, describe, expect, it } from "vitest";
import { rig, refusal, type Rig } from "./engine-helpers.js";
import { Engine } from "../../upstream/modules/trading/engine.js";
import { tradingDayEnd } from "../../upstream/modules/market/hours.js";
import { splitShare } from "../../upstream/modules/trading/booking.js";
import { trailedStop } from "../../upstream/modules/trading/book.js";
import { dec } from "../../upstream/modules/money/decimal.js";
import { pipSize, pipsToPrice, priceToPips } from "@contract/api/trading-rules";

let r: Rig | undefined;
afterEach(() => {
  r?.close();
  r = undefined;
});

const M = 1_000_000;

const buy = (r: Rig, u: number, extra: Record<string, unknown> = {}) =>
  r.engine.submit(u, {
    type: 1,
    cont: "0.3",
    forex_id: r.id("EURUSD"),
    status: 1,
    multiple: 100,
    ...extra,
  });

/** The stored row of an order. */
const row = (r: Rig, id: number) =>
  r.db.prepare("SELECT * FROM orders WHERE id = ?").get(id) as Record<string, unknown>;

const sl = (r: Rig, id: number) => r.engine.core.liveOrder(id)?.stopLoss;

describe("pips", () => {
  it("are ten points at 3 and 5 decimals and one point otherwise, converted exactly", () => {
    expect(pipSize(5)).toBe("0.0001");
    expect(pipSize(3)).toBe("0.01");
    expect(pipSize(2)).toBe("0.01");
    expect(pipsToPrice("20", 5)).toBe("0.00200");
    expect(pipsToPrice("12.5", 5)).toBe("0.00125");
    expect(pipsToPrice("12.5", 3)).toBe("0.125");
    expect(pipsToPrice("150", 2)).toBe("1.50");
    // Finer than a point of the instrument, or not a number: refused.
    expect(pipsToPrice("12.55", 5)).toBeNull();
    expect(pipsToPrice("1.5", 2)).toBeNull();
    expect(pipsToPrice("-3", 5)).toBeNull();
    expect(priceToPips(0.00125, 5)).toBe(12.5);
    expect(priceToPips(1.5, 2)).toBe(150);
  });

  it("set take-profit and stop-loss off the fill price of a market order and the target of a pending one", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, { target_profit_pips: "20", stop_loss_pips: "12.5" });
    expect(o.TargetProfitPrice).toBe(1.102);
    expect(o.TargetLossPrice).toBe(1.09875);
    const s = r.engine.submit(u, {
      type: 2,
      cont: "0.1",
      forex_id: r.id("USDJPY"),
      status: 0,
      target_price: "150.5",
      multiple: 100,
      target_profit_pips: "30",
      stop_loss_pips: "15",
    });
    expect(s.TargetProfitPrice).toBe(150.2);
    expect(s.TargetLossPrice).toBe(150.65);
    const gold = { forex_id: r.id("XAUUSD"), cont: "0.01", multiple: 100 };
    r.feed.set("XAUUSD", 2400);
    // Gold quotes 2 decimals: a pip is one point, so half a pip is finer than its price.
    expect(refusal(() => buy(r!, u, { ...gold, target_profit_pips: "2.5" }))).toBe("pips_invalid");
    expect(buy(r, u, { ...gold, target_profit_pips: "250" }).TargetProfitPrice).toBe(2402.5);
    expect(
      refusal(() => buy(r!, u, { target_profit_pips: "20", target_profit_price: "1.2" })),
    ).toBe("stop_price_and_pips");
  });
});

describe("trailing stop", () => {
  it("follows the price only in the position's favour and closes as trailing_stop", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, { trailing_distance: "0.0020" });
    expect(o.TrailingDistance).toBe(0.002);
    // At once (no activation): the first tick puts the stop 20 pips behind the price.
    r.feed.set("EURUSD", 1.101);
    expect(sl(r, o.Id)).toBe(1.099);
    // Written to the store without a scheduler at once (the leader's flush comes with its next batch).
    expect(row(r, o.Id).stop_loss).toBe(1.099);
    r.feed.set("EURUSD", 1.1005);
    expect(sl(r, o.Id)).toBe(1.099);
    r.feed.set("EURUSD", 1.1033);
    expect(sl(r, o.Id)).toBe(1.1013);
    const closed: string[] = [];
    r.engine.core.events.on("positionsClosed", (e) => closed.push(e.reason));
    r.feed.set("EURUSD", 1.1012);
    expect(closed).toEqual(["trailing_stop"]);
    expect(row(r, o.Id)).toMatchObject({ status: 3, close_reason: "trailing_stop" });
  });

  it("shows a moved stop at once and writes it with the leader's next batch, also after a partial close", () => {
    // The leader's sequencer: commands queued by a tick run with its next batch.
    const queued: (() => void)[] = [];
    const batch = () => queued.splice(0).forEach((command) => command());
    r = rig({ schedule: (command) => queued.push(command) });
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, { trailing_distance: "0.0020" });
    r.feed.set("EURUSD", 1.101);
    r.feed.set("EURUSD", 1.102);
    // Every answer and push has the stop the tick moved; the store has it after the batch.
    expect(sl(r, o.Id)).toBe(1.1);
    expect(r.engine.core.snapshot(u).positions[0].stopLoss).toBe(1.1);
    expect(row(r, o.Id).stop_loss).toBeNull();
    // Queued once however many ticks move it: one command for the two ticks above.
    expect(queued).toHaveLength(1);
    batch();
    expect(row(r, o.Id).stop_loss).toBe(1.1);
    // A partial close between the tick and the batch: the rest's moved stop is still written.
    r.feed.set("EURUSD", 1.103);
    r.engine.close(u, o.Id, null, "0.1");
    expect(sl(r, o.Id)).toBe(1.101);
    batch();
    expect(row(r, o.Id)).toMatchObject({ lots: "0.2", stop_loss: 1.101 });
    // A position closed before the batch is left as its close wrote it.
    r.feed.set("EURUSD", 1.104);
    r.engine.close(u, o.Id, null);
    batch();
    expect(row(r, o.Id)).toMatchObject({ status: 3, stop_loss: 1.101 });
  });

  it("for a sell, moves the stop down, and waits for its activation distance", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, {
      type: 2,
      trailing_distance: "0.0020",
      trailing_activation: "0.0010",
    });
    r.feed.set("EURUSD", 1.0995);
    expect(sl(r, o.Id)).toBe(0);
    r.feed.set("EURUSD", 1.0988);
    expect(sl(r, o.Id)).toBe(1.1008);
    r.feed.set("EURUSD", 1.0999);
    expect(sl(r, o.Id)).toBe(1.1008);
    r.feed.set("EURUSD", 1.098);
    expect(sl(r, o.Id)).toBe(1.1);
  });

  it("is set later on an open position, cleared with 0, and checked", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, { stop_loss_price: "1.09" });
    expect(
      refusal(() => r!.engine.setTrailing(u, { id: o.Id, trailing_distance: "0.000005" })),
    ).toBe("distance_points");
    expect(
      refusal(() => r!.engine.setTrailing(u, { id: o.Id, trailing_activation: "0.001" })),
    ).toBe("trail_activation_alone");
    expect(refusal(() => r!.engine.setTrailing(u, { id: o.Id, break_even: "2" }))).toBe(
      "distance_too_far",
    );
    const t = r.engine.setTrailing(u, { id: o.Id, trailing_distance: "0.0005" });
    expect(t.TrailingDistance).toBe(0.0005);
    r.feed.set("EURUSD", 1.1002);
    // The set stop (1.09) is further than 5 pips behind: the trailing stop takes over.
    expect(sl(r, o.Id)).toBe(1.0997);
    r.engine.setTrailing(u, { id: o.Id, trailing_distance: "0" });
    r.feed.set("EURUSD", 1.102);
    expect(sl(r, o.Id)).toBe(1.0997);
    expect(row(r, o.Id).trail_distance).toBeNull();
  });

  it("moves at most one stop per position per tick, exact to the instrument's decimals", () => {
    const t = [0.0003, 0, 0, 1e5] as const;
    expect(trailedStop(true, 1.10007, 1.1, 0, ...t)).toBe(1.09977);
    expect(trailedStop(true, 1.1, 1.1, 1.09977, ...t)).toBe(1.09977);
    expect(trailedStop(false, 1.09993, 1.1, 0, ...t)).toBe(1.10023);
    expect(trailedStop(false, 1.1001, 1.1, 1.10023, ...t)).toBe(1.10023);
  });
});

describe("break-even", () => {
  it("moves the stop to the entry once the profit reaches its distance, never back", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, { stop_loss_price: "1.095", break_even: "0.0010" });
    r.feed.set("EURUSD", 1.1009);
    expect(sl(r, o.Id)).toBe(1.095);
    r.feed.set("EURUSD", 1.101);
    expect(sl(r, o.Id)).toBe(1.1);
    r.feed.set("EURUSD", 1.1004);
    expect(sl(r, o.Id)).toBe(1.1);
    const closed: string[] = [];
    r.engine.core.events.on("positionsClosed", (e) => closed.push(e.reason));
    r.feed.set("EURUSD", 1.0999);
    // A break-even stop without a trailing distance closes as a stop loss.
    expect(closed).toEqual(["stop_loss"]);
  });
});

describe("partial close", () => {
  it("closes part of a position with its exact share of margin and fee; the rest keeps its stops", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, {
      target_profit_price: "1.12",
      stop_loss_price: "1.08",
      trailing_distance: "0.005",
    });
    const whole = row(r, o.Id);
    r.feed.set("EURUSD", 1.11);
    const part = r.engine.close(u, o.Id, null, "0.1");
    expect(part).toMatchObject({ Status: 3, Quantity: 0.1, ParentId: o.Id, CloseReason: "manual" });
    // 0.1 lots x 100,000 units x 0.01 = 100 USD.
    expect(part.FactProfits).toBe(100);
    const rest = row(r, o.Id);
    const stored = row(r, part.Id);
    expect(rest).toMatchObject({ status: 1, lots: "0.2", units: "20000" });
    expect(Number(rest.margin_micro) + Number(stored.margin_micro)).toBe(whole.margin_micro);
    expect(Number(rest.fee_micro) + Number(stored.fee_micro)).toBe(whole.fee_micro);
    expect(stored.margin_micro).toBe(
      splitShare(Number(whole.margin_micro), dec("0.1"), dec("0.3")),
    );
    expect(stored).toMatchObject({
      parent_id: o.Id,
      close_reason: "manual",
      profit_micro: 100 * M,
    });
    const live = r.engine.core.liveOrder(o.Id)!;
    expect(live).toMatchObject({ lots: "0.2", takeProfit: 1.12 });
    expect(live.trail.distance).toBe(0.005);
    expect(r.engine.accountValues(u).all_caution_money * M).toBe(Number(rest.margin_micro));
    expect(r.ledger(u).at(-1)).toMatchObject({ kind: "realised_profit", ref: `order:${part.Id}` });
    expect(r.balance(u)).toBe(r.ledgerSum(u));
    // The history lists the part with its parent; the position stays under Holding.
    expect(r.engine.listOrders(u, 3, 1).data.map((x) => [x.Id, x.ParentId])).toEqual([
      [part.Id, o.Id],
    ]);
    expect(r.engine.listOrders(u, 1, 1).data.map((x) => [x.Id, x.Quantity])).toEqual([[o.Id, 0.2]]);
  });

  it("refuses lots off the step, more than held, or leaving less than the minimum open", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    r.db.prepare("UPDATE instruments SET min_lots = '0.02' WHERE code = 'EURUSD'").run();
    r.engine.reloadSettings();
    const o = buy(r, u, { cont: "0.05" });
    expect(refusal(() => r!.engine.close(u, o.Id, null, "0.015"))).toBe("lots_step");
    expect(refusal(() => r!.engine.close(u, o.Id, null, "0.06"))).toBe("partial_more_than_held");
    expect(refusal(() => r!.engine.close(u, o.Id, null, "0.04"))).toBe("partial_rest_min");
    expect(r.engine.close(u, o.Id, null, "0.03")).toMatchObject({ Quantity: 0.03 });
    // All of it is a plain close.
    expect(r.engine.close(u, o.Id, null, "0.02")).toMatchObject({ Status: 3, ParentId: null });
  });

  it("splits half to even, so the parts always add up to the whole", () => {
    expect(splitShare(5, dec("0.1"), dec("0.2"))).toBe(2);
    expect(splitShare(7, dec("0.1"), dec("0.2"))).toBe(4);
    expect(splitShare(1_000_001, dec("0.01"), dec("0.03"))).toBe(333_334);
  });
});

describe("pending-order expiry", () => {
  it("cancels an order at its expiry, with its reason, and none before", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const at = new Date(Date.now() + 3 * 3600_000);
    at.setUTCSeconds(0, 0);
    const text = at.toISOString().slice(0, 16);
    const o = buy(r, u, { status: 0, target_price: "1.09", expiry: "date", expires_at: text });
    expect(o.ExpiresAt).toBe(`${text.replace("T", " ")}:00`);
    const cancelled: string[] = [];
    r.engine.core.events.on("orderCancelled", (e) => cancelled.push(e.reason));
    expect(r.engine.core.expireDue(at.getTime() - 1)).toBe(0);
    expect(r.engine.core.anyExpiryDue(at.getTime())).toBe(true);
    expect(r.engine.core.expireDue(at.getTime())).toBe(1);
    expect(cancelled).toEqual(["expired"]);
    expect(row(r, o.Id)).toMatchObject({ status: 4, close_reason: "expired" });
    expect(r.engine.stats().pending).toBe(0);
  });

  it("ends a day order with its instrument's trading day, and refuses a past or far expiry", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const before = Date.now();
    const o = buy(r, u, { status: 0, target_price: "1.09", expiry: "day" });
    const end = Date.parse(`${o.ExpiresAt!.replace(" ", "T")}Z`);
    expect([tradingDayEnd("fx", before), tradingDayEnd("fx", Date.now())]).toContain(end);
    expect(
      refusal(() =>
        buy(r!, u, {
          status: 0,
          target_price: "1.09",
          expiry: "date",
          expires_at: "2020-01-01 10:00",
        }),
      ),
    ).toBe("expiry_invalid");
    expect(refusal(() => buy(r!, u, { status: 0, target_price: "1.09", expiry: "date" }))).toBe(
      "expiry_invalid",
    );
    // A market order is never pending: its expiry is not kept.
    expect(buy(r, u, { expiry: "day" }).ExpiresAt).toBeNull();
  });

  it("knows where trading days end", () => {
    const t = (s: string) => Date.parse(s);
    expect(tradingDayEnd("fx", t("2026-11-30T10:00:00Z"))).toBe(t("2026-11-30T21:00:00Z"));
    expect(tradingDayEnd("fx", t("2026-11-30T21:00:00Z"))).toBe(t("2026-12-01T21:00:00Z"));
    expect(tradingDayEnd("us_stock", t("2026-11-30T22:00:00Z"))).toBe(t("2026-12-01T21:00:00Z"));
    expect(tradingDayEnd("crypto", t("2026-11-30T23:59:00Z"))).toBe(t("2026-12-01T00:00:00Z"));
  });
});

describe("a restart", () => {
  it("loads trailing stops, break-even and expiries back into memory", () => {
    r = rig();
    const u = r.user(10_000);
    r.feed.set("EURUSD", 1.1);
    const o = buy(r, u, { trailing_distance: "0.002", break_even: "0.001" });
    const p = buy(r, u, { status: 0, target_price: "1.09", expiry: "day" });
    r.feed.set("EURUSD", 1.103);
    r.engine.stop();
    const again = new Engine({ db: r.db, feed: r.feed, log: { error: () => {}, warn: () => {} } });
    try {
      expect(again.liveOrder(o.Id)).toMatchObject({
        stopLoss: 1.101,
        trail: { distance: 0.002, activation: 0, breakEven: 0.001 },
      });
      expect(again.anyExpiryDue(Date.parse(`${p.ExpiresAt!.replace(" ", "T")}Z`))).toBe(true);
      r.feed.set("EURUSD", 1.105);
      expect(again.liveOrder(o.Id)?.stopLoss).toBe(1.103);
    } finally {
      again.stop();
    }
  });
});
