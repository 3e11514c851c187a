/**
 * The order engine's store functions (upstream/modules/trading/store.ts: every named parameter lands
 * in its column, each status change only from its allowed status) and its asserted invariants
 * (invariants.ts: transitions, accepted lots, booked amounts, prices).
 */
import { AssertionError } from "node:assert";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rig, type Rig } from "./engine-helpers.js";
import {
  assertOpenAmounts,
  assertPrice,
  assertTransition,
} from "../../upstream/modules/trading/invariants.js";
import {
  cancelOrder,
  closeOrder,
  dealPage,
  fillOrder,
  insertOrder,
  liveOrders,
  orderById,
  readBalance,
  readInstrumentSpec,
  readTradeSettings,
  readUser,
  setOrderStops,
  type NewOrder,
} from "../../upstream/modules/trading/store.js";

let r: Rig | undefined;
afterEach(() => {
  r?.close();
  r = undefined;
  vi.restoreAllMocks();
});

const pending = (userId: number, instrumentId: number, createdAt = 1000): NewOrder => ({
  userId,
  instrumentId,
  side: 1,
  status: 0,
  pendingKind: "buy_limit",
  lots: "0.1",
  units: "10000",
  leverage: 100,
  originPrice: 1.05,
  openPrice: null,
  takeProfit: 1.2,
  stopLoss: null,
  marginMicro: 0,
  feeMicro: 0,
  createdAt,
  openedAt: null,
  trailDistance: null,
  trailActivation: null,
  breakEven: null,
  expiresAt: null,
});

describe("trading store", () => {
  it("inserts an order with every named field in its column", () => {
    r = rig();
    const u = r.user(1000);
    const inst = r.id("EURUSD");
    const id = insertOrder(r.db, {
      ...pending(u, inst),
      side: 2,
      status: 1,
      pendingKind: null,
      lots: "0.25",
      units: "25000",
      leverage: 50,
      originPrice: 1.1,
      openPrice: 1.1001,
      takeProfit: 1.05,
      stopLoss: 1.15,
      marginMicro: 550_000000,
      feeMicro: 1_100000,
      createdAt: 1234,
      openedAt: 1235,
      trailDistance: 0.002,
      trailActivation: 0.001,
      breakEven: 0.0015,
      expiresAt: 99_000,
    });
    expect(orderById(r.db, { id })).toEqual({
      id,
      user_id: u,
      instrument_id: inst,
      order_type: 2,
      status: 1,
      pending_kind: null,
      lots: "0.25",
      units: "25000",
      leverage: 50,
      origin_price: 1.1,
      open_price: 1.1001,
      close_price: null,
      take_profit: 1.05,
      stop_loss: 1.15,
      margin_micro: 550_000000,
      fee_micro: 1_100000,
      profit_micro: null,
      close_reason: null,
      created_at: 1234,
      opened_at: 1235,
      closed_at: null,
      trail_distance: 0.002,
      trail_activation: 0.001,
      break_even: 0.0015,
      expires_at: 99_000,
      parent_id: null,
    });
  });

  it("fills, closes and cancels only from the allowed status", () => {
    r = rig();
    const u = r.user(1000);
    const inst = r.id("EURUSD");
    const a = insertOrder(r.db, pending(u, inst));
    const b = insertOrder(r.db, pending(u, inst));
    expect(liveOrders(r.db).filter((o) => o.user_id === u)).toHaveLength(2);
    const close = { closePrice: 1.2, profitMicro: 5, reason: "manual" as const, closedAt: 9 };
    expect(closeOrder(r.db, { id: a, ...close })).toBe(false); // pending: not open
    const fill = { openPrice: 1.05, marginMicro: 7, feeMicro: 3, openedAt: 8 };
    expect(fillOrder(r.db, { id: a, ...fill })).toBe(true);
    expect(fillOrder(r.db, { id: a, ...fill })).toBe(false); // open: not pending
    expect(cancelOrder(r.db, { id: a, reason: "cancelled", closedAt: 9 })).toBe(false);
    expect(orderById(r.db, { id: a })).toMatchObject({
      status: 1,
      open_price: 1.05,
      margin_micro: 7,
      fee_micro: 3,
      opened_at: 8,
    });
    expect(setOrderStops(r.db, { id: a, takeProfit: null, stopLoss: 1.01 })).toBe(true);
    expect(closeOrder(r.db, { id: a, ...close })).toBe(true);
    expect(closeOrder(r.db, { id: a, ...close })).toBe(false);
    expect(setOrderStops(r.db, { id: a, takeProfit: 1.3, stopLoss: null })).toBe(false);
    expect(orderById(r.db, { id: a })).toMatchObject({
      status: 3,
      close_price: 1.2,
      profit_micro: 5,
      close_reason: "manual",
      closed_at: 9,
      take_profit: null,
      stop_loss: 1.01,
    });
    expect(cancelOrder(r.db, { id: b, reason: "cancelled", closedAt: 10 })).toBe(true);
    expect(fillOrder(r.db, { id: b, ...fill })).toBe(false);
    expect(orderById(r.db, { id: b })).toMatchObject({ status: 4, close_reason: "cancelled" });
    expect(liveOrders(r.db)).toEqual([]);
  });

  it("pages my_deal newest first, history with its realised profit", () => {
    r = rig();
    const u = r.user(1000);
    const inst = r.id("EURUSD");
    const ids = [1, 2, 3].map((k) => insertOrder(r!.db, pending(u, inst, k)));
    const fill = { openPrice: 1.05, marginMicro: 0, feeMicro: 0, openedAt: 5 };
    fillOrder(r.db, { id: ids[0], ...fill });
    closeOrder(r.db, {
      id: ids[0],
      closePrice: 1.1,
      profitMicro: -40,
      reason: "manual",
      closedAt: 6,
    });
    cancelOrder(r.db, { id: ids[1], reason: "cancelled", closedAt: 7 });
    const history = dealPage(r.db, { userId: u, status: 3, offset: 0 });
    expect(history.rows.map((o) => o.id)).toEqual([ids[1], ids[0]]);
    expect(history).toMatchObject({ total: 2, historyProfitMicro: -40 });
    expect(history.rows[0]).toMatchObject({ code: "EURUSD" });
    const open = dealPage(r.db, { userId: u, status: 0, offset: 0 });
    expect(open.rows.map((o) => o.id)).toEqual([ids[2]]);
    expect(open).toMatchObject({ total: 1, historyProfitMicro: 0 });
    expect(dealPage(r.db, { userId: u, status: 0, offset: 1 }).rows).toEqual([]);
    expect(liveOrders(r.db).map((o) => o.id)).toEqual([ids[2]]);
  });

  it("reads users, settings and instruments", () => {
    r = rig();
    const u = r.user(12.5, true);
    expect(readUser(r.db, { userId: u })).toEqual({
      is_demo: 1,
      balance_micro: 12_500000,
      lock_balance_micro: 0,
    });
    expect(readBalance(r.db, { userId: u })).toBe(12_500000);
    expect(readBalance(r.db, { userId: 987654 })).toBeNull();
    expect(readUser(r.db, { userId: 987654 })).toBeUndefined();
    r.setting("risk.stop_out_pct", "42");
    expect(readTradeSettings(r.db).get("risk.stop_out_pct")).toBe("42");
    expect(readTradeSettings(r.db).has("site.name")).toBe(false);
    expect(readInstrumentSpec(r.db, { id: r.id("EURUSD") })).toMatchObject({
      code: "EURUSD",
      quote_currency: "USD",
    });
    expect(readInstrumentSpec(r.db, { id: 987654 })).toBeUndefined();
  });
});

describe("engine invariants", () => {
  it("an order moves only pending -> open | cancelled and open -> closed", () => {
    for (const [from, to] of [
      [0, 1],
      [0, 4],
      [1, 3],
    ])
      expect(() => assertTransition(1, from, to)).not.toThrow();
    for (const [from, to] of [
      [0, 0],
      [0, 3],
      [1, 0],
      [1, 1],
      [1, 4],
      [3, 1],
      [3, 4],
      [4, 0],
      [4, 1],
      [9, 1],
    ])
      expect(() => assertTransition(1, from, to)).toThrow(AssertionError);
  });

  it("booked margin and fee are integer micro-USD, never negative; prices positive", () => {
    expect(() => assertOpenAmounts(0, 0)).not.toThrow();
    expect(() => assertOpenAmounts(110_000000, 220000)).not.toThrow();
    expect(() => assertOpenAmounts(-1, 0)).toThrow(AssertionError);
    expect(() => assertOpenAmounts(0, -1)).toThrow(AssertionError);
    expect(() => assertOpenAmounts(0.5, 0)).toThrow(AssertionError);
    expect(() => assertOpenAmounts(0, 0.5)).toThrow(AssertionError);
    expect(() => assertPrice(1.1, "fill")).not.toThrow();
    for (const bad of [0, -1.1, NaN, Infinity])
      expect(() => assertPrice(bad, "fill")).toThrow(AssertionError);
  });
});

describe("engine invariants at work", () => {
  it("a fill of an order the store no longer holds pending books nothing and rolls back", () => {
    r = rig();
    const u = r.user(1000);
    r.feed.set("EURUSD", 1.1);
    const o = r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 0,
      multiple: 100,
      target_price: "1.09",
    });
    // Another writer changed the order behind the engine's back.
    r.db.prepare("UPDATE orders SET status = 4 WHERE id = ?").run(o.Id);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const ledger = r.ledger(u).length;
    r.feed.set("EURUSD", 1.089);
    // The group, then the fill on its own: both refused by the assertion.
    expect(errors).toHaveBeenCalledTimes(2);
    expect(String((errors.mock.calls[1][0] as { err: Error }).err)).toMatch(
      /not pending in the store/,
    );
    expect(r.ledger(u)).toHaveLength(ledger);
    expect(r.engine.stats()).toMatchObject({ open: 0, pending: 1 });
    expect(r.engine.accountValues(u)).toMatchObject({ all_caution_money: 0 });
  });
});
