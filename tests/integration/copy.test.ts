/**
 * Copy trading over HTTP (contract/api/copy.ts): a demo user copies a strategy trader; the test
 * drives the provider through the order engine and the prices through the manual feed, and reads
 * what the copier sees: copied positions scaled by the rule, mirrored stops and closes, skipped
 * trades with their reason, pause and resume, stop (money back through copy_out), the copy
 * stop-loss firing once at its floor, bad input changing nothing, and a clean ledger check.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE } from "@contract/envelope";
import { ORDER_MODE, ORDER_TYPE } from "@contract/enums";
import {
  copyFloorMicro,
  copyLots,
  type Copy,
  type CopyDetail,
  type Provider,
} from "@contract/api/copy";
import { dec } from "../../upstream/modules/money/decimal.js";
import { checkLedger } from "../../upstream/modules/money/check.js";
import { providerById } from "../../upstream/modules/copy/store.js";
import { providerView } from "../../upstream/modules/copy/views.js";
import { DailyRisk } from "../../upstream/modules/follow/risk.js";
import { insertDaily, latestDailyOf } from "../../upstream/modules/follow/risk-store.js";
import { DAY_MS } from "../../upstream/modules/follow/stats.js";
import type { FollowItem } from "@contract/api/follow";
import { TOPIC } from "@contract/constants";
import sharp from "sharp";
import { loginEmail, registerEmail } from "./accounts-helpers.js";
import { Client } from "./ws-client.js";
import { HARNESS_OPERATOR_TOKEN, startUpstream, type Server } from "./upstream-harness.js";

let s: Server;
let providerId: number;

beforeAll(async () => {
  s = await startUpstream({
    manualFeed: true,
    // The strategy traders exist (funded at start) but never trade on their own here.
    config: {
      marketAlwaysOpen: true,
      // The hand-driven market's dev routes (POST /dev/provider...) are served with it.
      marketFeed: "manual",
      strategies: "on",
      strategyIntervalMs: 3_600_000,
    },
  });
  providerId = (
    s.up.ctx.db.prepare("SELECT user_id FROM strategy_traders WHERE name = 'Aurora FX'").get() as {
      user_id: number;
    }
  ).user_id;
}, 30_000);

afterAll(async () => {
  await s?.close();
});

async function demo(initial = 10000): Promise<{ token: string; id: number }> {
  await s.setting("demo.initial_balance", String(initial));
  const c = await s.post("/api/user/createAccountDemoForU");
  const l = await s.post("/api/user/loginForU", { demo_id: c.data.demo_id });
  const id = (
    s.up.ctx.db.prepare("SELECT id FROM users WHERE demo_id = ?").get(c.data.demo_id) as {
      id: number;
    }
  ).id;
  return { token: l.data.token, id };
}

const engine = () => s.up.ctx.engine;
const eur = () => s.feed!.quote("EURUSD")!;

/** The provider opens a market position on EURUSD (as the strategy runner does). */
function providerOpens(side: 1 | 2, lots = "0.5", stops: { tp?: number; sl?: number } = {}) {
  // A fresh tick at the same price: the engine refuses a stale quote.
  s.feed!.set("EURUSD", eur().price);
  return engine().submit(providerId, {
    side,
    status: ORDER_MODE.MARKET,
    instrumentId: eur().id,
    lots: dec(lots),
    leverage: 100,
    targetPrice: null,
    takeProfit: stops.tp ?? null,
    stopLoss: stops.sl ?? null,
  });
}

function closeProviderPositions(): void {
  for (const id of engine().openPositionIds(providerId)) engine().close(providerId, id);
}

async function copy(token: string, body: Record<string, string | number>, key?: string) {
  return s.post<Copy>("/api/follow/copy", body, {
    token,
    headers: key ? { "idempotency-key": key } : {},
  });
}

async function detail(token: string, id: number): Promise<CopyDetail> {
  const r = await s.get<CopyDetail>(`/api/follow/copy?id=${id}`, { token });
  expect(r.code).toBe(CODE.OK);
  return r.data;
}

/**
 * A demo user copies the provider with 1,000 USD (fixed, 0.5×) and this copy stop-loss; the
 * provider then buys 0.1 lots of EURUSD at `start`.
 */
/**
 * A new demo user copying the provider in fixed lots, and the provider's buy of 0.1 lots: the user,
 * the copy's answer and the price before the buy.
 */
async function copyOneTrade(o: { amount?: string; multiple?: string; stopLossPct?: number } = {}) {
  const u = await demo(10000);
  const r = await copy(u.token, {
    provider_id: providerId,
    amount: o.amount ?? "1000",
    mode: "fixed",
    multiple: o.multiple ?? "0.5",
    ...(o.stopLossPct === undefined ? {} : { stop_loss_pct: o.stopLossPct }),
  });
  expect(r.code, r.msg).toBe(CODE.OK);
  const start = eur().price;
  providerOpens(ORDER_TYPE.BUY, "0.1");
  return { u, r, start };
}

const balanceOf = (userId: number) =>
  (
    s.up.ctx.db.prepare("SELECT balance_micro FROM users WHERE id = ?").get(userId) as {
      balance_micro: number;
    }
  ).balance_micro;

const ledgerKinds = (userId: number) =>
  (
    s.up.ctx.db
      .prepare("SELECT kind, amount_micro FROM ledger WHERE user_id = ? ORDER BY id")
      .all(userId) as { kind: string; amount_micro: number }[]
  ).filter((r) => r.kind.startsWith("copy_"));

describe("providers", () => {
  it("are listed with their ids, and a provider's page has its figures", async () => {
    const list = await s.get("/api/follow/list");
    expect(list.code, list.msg).toBe(CODE.OK);
    const item = list.data.find((i: { user: string }) => i.user === "Aurora FX");
    expect(item.id).toBe(providerId);
    const p = await s.get(`/api/follow/provider?id=${providerId}`);
    expect(p.code).toBe(CODE.OK);
    expect(p.data).toMatchObject({ id: providerId, name: "Aurora FX" });
    expect(Number(p.data.equity)).toBeGreaterThan(0);
    const none = await s.get("/api/follow/provider?id=999999");
    expect(none.code).toBe(CODE.NOT_FOUND);
  });

  it("a provider's public page is served from memory until the provider trades", async () => {
    const page = async () => (await s.get(`/api/follow/provider?id=${providerId}`)).data;
    const before = await page();
    // Changed behind the engine's back: the page in memory still answers...
    s.up.ctx.db
      .prepare("UPDATE strategy_traders SET description = 'Changed in the store' WHERE user_id = ?")
      .run(providerId);
    expect((await page()).description).toBe(before.description);
    // ...until the provider's next trade, which shows at once.
    providerOpens(ORDER_TYPE.BUY, "0.1");
    const after = await page();
    expect(after.description).toBe("Changed in the store");
    expect(after.open_positions).toHaveLength(before.open_positions.length + 1);
    closeProviderPositions();
    expect((await page()).open_positions).toHaveLength(before.open_positions.length);
  });

  it("reads a bounded window of closes for the curve; the totals count every close", async () => {
    for (let i = 0; i < 3; i++) {
      providerOpens(ORDER_TYPE.BUY, "0.1");
      closeProviderPositions();
    }
    const row = providerById(s.up.ctx.db, providerId)!;
    const whole = providerView(s.up.ctx.db, engine(), row);
    const two = providerView(s.up.ctx.db, engine(), row, 2);
    expect(two.equity_curve).toHaveLength(2);
    expect(two.equity_curve.at(-1)).toEqual(whole.equity_curve.at(-1));
    expect(two).toMatchObject({
      profit: whole.profit,
      win_rate: whole.win_rate,
      total_trade_num: whole.total_trade_num,
    });
  });
});

describe("a copy", () => {
  it("copies open trades in proportion, mirrors new ones, stops and closes, and stops with the money back", async () => {
    const u = await demo(10000);
    const open = providerOpens(ORDER_TYPE.BUY);
    const providerEquity = engine().accountValues(providerId).equityMicro;
    const before = balanceOf(u.id);
    const r = await copy(u.token, { provider_id: providerId, amount: "500", copy_open: 1 });
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data).toMatchObject({ status: "active", mode: "proportional", invested: "500.00" });
    expect(balanceOf(u.id)).toBe(before - 500e6);
    expect(ledgerKinds(u.id)).toEqual([{ kind: "copy_in", amount_micro: -500e6 }]);

    // The provider's open position was copied at market, lots scaled by equity and rounded down.
    const inst = engine().instrument(eur().id)!;
    const expected = copyLots(
      {
        mode: "proportional",
        multiple: "1",
        providerLots: "0.5",
        copyEquityMicro: 500e6,
        providerEquityMicro: providerEquity,
      },
      inst.pip,
    );
    let d = await detail(u.token, r.data.id);
    expect(d.positions).toHaveLength(1);
    expect(d.positions[0]).toMatchObject({ provider_order_id: open.id, OrderType: 1 });
    expect(String(d.positions[0].Quantity)).toBe(String(Number(expected)));

    // A new provider trade is mirrored at once, with its take-profit and stop-loss.
    const price = eur().price;
    const next = providerOpens(ORDER_TYPE.SELL, "1", { tp: price * 0.99, sl: price * 1.01 });
    d = await detail(u.token, r.data.id);
    const copied = d.positions.find((p) => p.provider_order_id === next.id)!;
    expect(copied).toBeDefined();
    expect(copied.OrderType).toBe(ORDER_TYPE.SELL);
    expect(copied.TargetProfitPrice).toBe(next.takeProfit);

    // A stop change is mirrored.
    engine().setStops(providerId, next.id, price * 0.98, price * 1.02);
    d = await detail(u.token, r.data.id);
    expect(d.positions.find((p) => p.provider_order_id === next.id)!.TargetProfitPrice).toBe(
      engine().liveOrder(next.id)!.takeProfit,
    );

    // The provider closes: the copies close too, with the reason.
    engine().close(providerId, next.id);
    d = await detail(u.token, r.data.id);
    expect(d.positions.map((p) => p.provider_order_id)).toEqual([open.id]);
    expect(d.closed[0]).toMatchObject({
      provider_order_id: next.id,
      CloseReason: "copy_provider_closed",
    });

    // Pause: nothing new is mirrored; resume: the next one is.
    expect(
      (await s.post(`/api/follow/copy/${r.data.id}/pause`, {}, { token: u.token })).data.status,
    ).toBe("paused");
    const whilePaused = providerOpens(ORDER_TYPE.BUY);
    d = await detail(u.token, r.data.id);
    expect(d.positions.some((p) => p.provider_order_id === whilePaused.id)).toBe(false);
    expect(
      (await s.post(`/api/follow/copy/${r.data.id}/resume`, {}, { token: u.token })).data.status,
    ).toBe("active");
    const afterResume = providerOpens(ORDER_TYPE.BUY);
    d = await detail(u.token, r.data.id);
    expect(d.positions.some((p) => p.provider_order_id === afterResume.id)).toBe(true);

    // Stop: the positions close at market and the copy's equity comes back.
    const equity = Number(d.equity) * 1e6;
    const mid = balanceOf(u.id);
    const st = await s.post<Copy>(`/api/follow/copy/${r.data.id}/stop`, {}, { token: u.token });
    expect(st.code, st.msg).toBe(CODE.OK);
    expect(st.data).toMatchObject({ status: "stopped", stop_reason: "user", open_positions: 0 });
    const back = balanceOf(u.id) - mid;
    // Closing at the same price costs no more than rounding: the equity shown came back.
    expect(Math.abs(back - equity)).toBeLessThanOrEqual(10_000);
    expect(ledgerKinds(u.id).map((x) => x.kind)).toEqual(["copy_in", "copy_out"]);
    d = await detail(u.token, r.data.id);
    expect(d.closed.every((o) => o.CloseReason !== null)).toBe(true);
    closeProviderPositions();
  });

  it("mirrors a provider's partial closes in proportion, and its trailing stop", async () => {
    const u = await demo(10000);
    const r = await copy(u.token, {
      provider_id: providerId,
      amount: "2000",
      mode: "fixed",
      multiple: "0.4",
    });
    expect(r.code, r.msg).toBe(CODE.OK);
    s.feed!.set("EURUSD", eur().price);
    const open = engine().submit(providerId, {
      side: ORDER_TYPE.BUY,
      status: ORDER_MODE.MARKET,
      instrumentId: eur().id,
      lots: dec("1"),
      leverage: 100,
      targetPrice: null,
      takeProfit: null,
      stopLoss: null,
      trail: { distance: 0.002, activation: 0, breakEven: 0 },
    });
    let d = await detail(u.token, r.data.id);
    expect(d.positions[0]).toMatchObject({ Quantity: 0.4, TrailingDistance: 0.002 });

    // Half of the provider's position: half of the copy's (0.4 -> 0.2).
    engine().close(providerId, open.id, null, "manual", undefined, dec("0.5"));
    d = await detail(u.token, r.data.id);
    expect(d.positions[0]).toMatchObject({ provider_order_id: open.id, Quantity: 0.2 });
    // 0.3 of the 0.5 left: 0.2 x 0.6 = 0.12 of the copy's, down to the lot step.
    engine().close(providerId, open.id, null, "manual", undefined, dec("0.3"));
    d = await detail(u.token, r.data.id);
    expect(d.positions[0]).toMatchObject({ Quantity: 0.08 });
    // The rest: all of it.
    engine().close(providerId, open.id);
    d = await detail(u.token, r.data.id);
    expect(d.positions).toHaveLength(0);
    const parts = s.up.ctx.db
      .prepare("SELECT lots, close_reason FROM orders WHERE user_id = ? AND status = 3 ORDER BY id")
      .all(
        (
          s.up.ctx.db.prepare("SELECT account_id FROM copies WHERE id = ?").get(r.data.id) as {
            account_id: number;
          }
        ).account_id,
      ) as { lots: string; close_reason: string }[];
    expect(parts.map((x) => Number(x.lots)).sort()).toEqual([0.08, 0.12, 0.2]);
    expect(new Set(parts.map((x) => x.close_reason))).toEqual(new Set(["copy_provider_closed"]));
    await s.post(`/api/follow/copy/${r.data.id}/stop`, {}, { token: u.token });
  });

  it("mirrors a provider's pending order when it fills, on the same tick", async () => {
    const u = await demo(10000);
    const r = await copy(u.token, {
      provider_id: providerId,
      amount: "1000",
      mode: "fixed",
      multiple: "0.1",
    });
    expect(r.code, r.msg).toBe(CODE.OK);
    const price = eur().price;
    s.feed!.set("EURUSD", price);
    const target = Number((price * 0.999).toFixed(5));
    const pending = engine().submit(providerId, {
      side: ORDER_TYPE.BUY,
      status: ORDER_MODE.PENDING,
      instrumentId: eur().id,
      lots: dec("0.5"),
      leverage: 100,
      targetPrice: target,
      takeProfit: null,
      stopLoss: null,
    });
    // A pending order is not a trade yet: nothing is copied.
    expect((await detail(u.token, r.data.id)).positions).toHaveLength(0);
    await s.tick("EURUSD", target * 0.9999);
    const d = await detail(u.token, r.data.id);
    expect(d.positions.map((p) => p.provider_order_id)).toEqual([pending.id]);
    expect(d.positions[0].Price).toBe(engine().liveOrder(pending.id)!.openPrice);
    closeProviderPositions();
  });

  it("records a trade it cannot take, with its reason; a copy that takes no lots writes no row", async () => {
    const u = await demo(10000);
    // 1 lot of EURUSD needs far more margin than 50 USD: skipped, with the reason.
    const r = await copy(u.token, {
      provider_id: providerId,
      amount: "50",
      mode: "fixed",
      multiple: "1",
    });
    expect(r.code, r.msg).toBe(CODE.OK);
    // In proportion, 50 USD against the provider's equity is far below the minimum lot: no row.
    const tiny = await copy(u.token, { provider_id: providerId, amount: "50" });
    expect(tiny.code, tiny.msg).toBe(CODE.OK);
    const o = providerOpens(ORDER_TYPE.BUY, "0.1");
    const d = await detail(u.token, r.data.id);
    expect(d.positions).toHaveLength(0);
    expect(d.skipped[0], JSON.stringify(d.skipped[0])).toMatchObject({ provider_order_id: o.id });
    expect(d.skipped[0].reason).toMatch(/margin/i);
    expect((await detail(u.token, tiny.data.id)).skipped).toEqual([]);
    const rows = s.up.ctx.db
      .prepare("SELECT COUNT(*) AS n FROM copy_trades WHERE copy_id = ?")
      .get(tiny.data.id) as { n: number | string };
    expect(Number(rows.n)).toBe(0);
    closeProviderPositions();
  });

  it("starts at the broker's minimum at least, and at most copy.max_per_user copies a user", async () => {
    const u = await demo(10000);
    expect((await copy(u.token, { provider_id: providerId, amount: "49.99" })).msg).toBe(
      "This trader can be copied with at least 50.00 USD",
    );
    await s.setting("copy.max_per_user", "2");
    try {
      const first = await copy(u.token, { provider_id: providerId, amount: "50" });
      expect((await copy(u.token, { provider_id: providerId, amount: "50" })).code).toBe(CODE.OK);
      expect((await copy(u.token, { provider_id: providerId, amount: "50" })).msg).toBe(
        "You already have 2 copies running or paused, the most there may be: stop one to start another",
      );
      // A stopped copy no longer counts.
      await s.post(`/api/follow/copy/${first.data.id}/stop`, {}, { token: u.token });
      expect((await copy(u.token, { provider_id: providerId, amount: "50" })).code).toBe(CODE.OK);
    } finally {
      await s.setting("copy.max_per_user", "20");
    }
  });

  it("ends once when its equity reaches the copy stop-loss", async () => {
    const { u, r, start } = await copyOneTrade({ stopLossPct: 5 });
    const d = await detail(u.token, r.data.id);
    expect(d.positions, JSON.stringify(d.skipped)).toHaveLength(1);
    // 0.5 lots of EURUSD lose about 100 USD on a 0.2 % fall: more than 5 % of 1,000 USD, while the
    // margin level stays far above stop-out.
    await s.tick("EURUSD", start * 0.998);
    const after = await detail(u.token, r.data.id);
    expect(after).toMatchObject({ status: "stopped", stop_reason: "stop_loss", open_positions: 0 });
    expect(after.closed[0].CloseReason).toBe("copy_stop_loss");
    // Its owner is told, once.
    const told = await s.get("/api/user/notices?page=1", { token: u.token });
    expect(told.data.data.map((n: { kind: string }) => n.kind)).toEqual(["copy_stopped"]);
    expect(told.data.data[0].body).toContain("5 %");
    await s.tick("EURUSD", start * 0.997);
    await s.tick("EURUSD", start);
    expect(ledgerKinds(u.id).map((x) => x.kind)).toEqual(["copy_in", "copy_out"]);
    expect(copyFloorMicro(1000e6, 5)).toBe(950e6);
    closeProviderPositions();
  });
});

describe("one person's accounts", () => {
  /** The user's own market order on EURUSD. */
  const own = (token: string, side: 1 | 2) => {
    s.feed!.set("EURUSD", eur().price);
    return s.post(
      "/v1/api/forex/submit",
      { type: side, cont: "0.01", forex_id: eur().id, status: 1, multiple: 100 },
      { token },
    );
  };
  const OPPOSITE =
    "Another of your accounts (your own or one of your copies) holds the opposite side of this instrument: one person's accounts cannot hold both sides";

  it("never hold opposite sides of one instrument: the own order is refused, the copy skips", async () => {
    const { u, r } = await copyOneTrade({ amount: "1000", multiple: "0.01" });
    expect((await detail(u.token, r.data.id)).positions).toHaveLength(1);
    // The copy holds a buy: the user's own sell is refused, a buy is not.
    expect(await own(u.token, ORDER_TYPE.SELL)).toMatchObject({ code: 0, msg: OPPOSITE });
    expect((await own(u.token, ORDER_TYPE.BUY)).code).toBe(CODE.OK);
    closeProviderPositions();
    for (const id of engine().openPositionIds(u.id)) engine().close(u.id, id);

    // The user holds a sell of their own: the provider's buy is not copied, with the reason.
    expect((await own(u.token, ORDER_TYPE.SELL)).code).toBe(CODE.OK);
    const o = providerOpens(ORDER_TYPE.BUY, "0.1");
    const d = await detail(u.token, r.data.id);
    expect(d.positions).toHaveLength(0);
    expect(d.skipped.find((x) => x.provider_order_id === o.id)?.reason).toBe(OPPOSITE);
    closeProviderPositions();
    for (const id of engine().openPositionIds(u.id)) engine().close(u.id, id);
  });
});

describe("taking money back", () => {
  it("takes back at most what is invested, so the copy stop-loss keeps acting", async () => {
    const { u, r, start } = await copyOneTrade({ stopLossPct: 50 });
    await s.tick("EURUSD", start * 1.005);
    closeProviderPositions();
    const won = await detail(u.token, r.data.id);
    expect(won.open_positions).toBe(0);
    expect(Number(won.equity)).toBeGreaterThan(1100);
    const funds = (amount: string) =>
      s.post<Copy>(
        `/api/follow/copy/${r.data.id}/funds`,
        { direction: "remove", amount },
        {
          token: u.token,
        },
      );
    const over = await funds("1000.01");
    expect(over).toMatchObject({
      code: 0,
      msg: "You can take back at most what is invested in this copy (1000.00 USD); stop the copy to take back everything, profit included",
    });
    const back = await funds("1000");
    expect(back.code, back.msg).toBe(CODE.OK);
    expect(await detail(u.token, r.data.id)).toMatchObject({
      invested: "0.00",
      stop_loss_level: "0.00",
    });
    expect((await funds("0.01")).code).toBe(0);
    s.feed!.set("EURUSD", start);
  });
});

describe("bad input changes nothing", () => {
  it("refuses what cannot be copied, with a translated message", async () => {
    const u = await demo(1000);
    const before = balanceOf(u.id);
    const cases: [Record<string, string | number>, RegExp][] = [
      [{ provider_id: 999999, amount: "100" }, /cannot be copied/],
      [{ provider_id: providerId, amount: "5000" }, /free margin/],
      [{ provider_id: providerId, amount: "100", multiple: "200" }, /multiplier/],
      [{ provider_id: providerId, amount: "100", stop_loss_pct: 99 }, /stop-loss/],
      [{ provider_id: u.id, amount: "100" }, /cannot be copied/],
    ];
    for (const [body, msg] of cases) {
      const r = await copy(u.token, body);
      expect(r.code, JSON.stringify(body)).not.toBe(CODE.OK);
      expect(r.msg).toMatch(msg);
    }
    const bad = await s.post(
      "/api/follow/copy",
      { provider_id: providerId, amount: "-5" },
      { token: u.token },
    );
    expect(bad.code).not.toBe(CODE.OK);
    expect(balanceOf(u.id)).toBe(before);
    expect(ledgerKinds(u.id)).toEqual([]);
  });

  it("refuses a hidden provider and another user's copy", async () => {
    const u = await demo(1000);
    const other = await demo(1000);
    const mine = await copy(u.token, { provider_id: providerId, amount: "100" });
    expect(mine.code).toBe(CODE.OK);
    const theirs = await s.post(
      `/api/follow/copy/${mine.data.id}/stop`,
      {},
      { token: other.token },
    );
    expect(theirs.code).toBe(CODE.NOT_FOUND);
    s.up.ctx.db.prepare("UPDATE strategy_traders SET hidden = 1 WHERE user_id = ?").run(providerId);
    try {
      const r = await copy(other.token, { provider_id: providerId, amount: "100" });
      expect(r.code).toBe(CODE.NOT_FOUND);
    } finally {
      s.up.ctx.db
        .prepare("UPDATE strategy_traders SET hidden = 0 WHERE user_id = ?")
        .run(providerId);
    }
  });

  it("starts one copy for one idempotency key sent twice", async () => {
    const u = await demo(1000);
    const a = await copy(u.token, { provider_id: providerId, amount: "100" }, "key-copy-1");
    const b = await copy(u.token, { provider_id: providerId, amount: "100" }, "key-copy-1");
    expect(a.code).toBe(CODE.OK);
    expect(b.data.id).toBe(a.data.id);
    expect(ledgerKinds(u.id)).toHaveLength(1);
    const list = await s.get<Copy[]>("/api/follow/copies", { token: u.token });
    expect(list.data.map((c) => c.id)).toEqual([a.data.id]);
  });
});

describe("a demo reset", () => {
  it("stops the demo user's copies first, so the reset restores the whole demo money", async () => {
    const { u, r } = await copyOneTrade({ amount: "2000", multiple: "0.1" });
    expect((await detail(u.token, r.data.id)).positions).toHaveLength(1);
    const reset = await s.post("/v1/api/main/user/resetForexDemoAccount", {}, { token: u.token });
    expect(reset.code, reset.msg).toBe(CODE.OK);
    const after = await detail(u.token, r.data.id);
    expect(after).toMatchObject({ status: "stopped", stop_reason: "user", open_positions: 0 });
    expect(after.closed[0].CloseReason).toBe("copy_stopped");
    expect(balanceOf(u.id)).toBe(10000e6);
    expect(ledgerKinds(u.id).map((x) => x.kind)).toEqual(["copy_in", "copy_out"]);
    closeProviderPositions();
  });
});

describe("the COPY_TRADE push", () => {
  it("gives a snapshot on subscribe, the copy's new value after a tick, and its changes", async () => {
    const u = await demo(10000);
    const r = await copy(u.token, {
      provider_id: providerId,
      amount: "500",
      mode: "fixed",
      multiple: "0.1",
    });
    expect(r.code, r.msg).toBe(CODE.OK);
    providerOpens(ORDER_TYPE.BUY, "0.1");
    const c = await Client.open(s.base.replace(/^http/, "ws") + "/v1/ws");
    try {
      c.send({ op: "login", token: u.token });
      expect((await c.next((m) => m.op === "login")).code).toBe(1);
      c.send({ op: "subscribe", topics: [TOPIC.COPY_TRADE] });
      const snap = await c.next((m) => m.topic === TOPIC.COPY_TRADE);
      expect(snap.data.copies.map((x: Copy) => x.id)).toEqual([r.data.id]);
      const before = snap.data.copies[0].equity;
      const from = c.msgs.length;
      s.feed!.set("EURUSD", eur().price * 1.001);
      const moved = await c.next(
        (m) => m.topic === TOPIC.COPY_TRADE && m.data.copies[0].equity !== before,
        5000,
        from,
      );
      expect(Number(moved.data.copies[0].equity)).toBeGreaterThan(Number(before));
      // Each open copied position's price and profit travel with it.
      expect(moved.data.copies[0].positions).toHaveLength(1);
      expect(moved.data.copies[0].positions[0].profit).toBeGreaterThan(0);
      expect(moved.data.copies[0].positions[0].price).toBe(eur().price);
      // A command changes the copy: the owner hears of it (paused), and of its end (gone).
      const beforePause = c.msgs.length;
      await s.post(`/api/follow/copy/${r.data.id}/pause`, {}, { token: u.token });
      await c.next(
        (m) => m.topic === TOPIC.COPY_TRADE && m.data.copies[0]?.status === "paused",
        5000,
        beforePause,
      );
      const beforeStop = c.msgs.length;
      await s.post(`/api/follow/copy/${r.data.id}/stop`, {}, { token: u.token });
      await c.next(
        (m) => m.topic === TOPIC.COPY_TRADE && m.data.copies.length === 0,
        5000,
        beforeStop,
      );
    } finally {
      c.close();
      closeProviderPositions();
    }
  });
});

/** An identity image upload of the user (a small PNG, as a phone would send). */
async function upload(token: string, color: string): Promise<string> {
  const png = await sharp({ create: { width: 12, height: 8, channels: 3, background: color } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "id.png");
  const r = await fetch(`${s.base}/api/common/image_upload`, {
    method: "POST",
    headers: { authorization: token },
    body: form,
  });
  return ((await r.json()) as { data: { name: string } }).data.name;
}

/** Real-name verification as a user submits it and an operator approves it. */
async function verify(token: string, userId: number): Promise<void> {
  const sent = await s.post(
    "/api/user_real/real_name",
    {
      name: "Ada Lovelace",
      card_id: "A1234567",
      front_pic: await upload(token, "#123"),
      reverse_pic: await upload(token, "#456"),
    },
    { token },
  );
  expect(sent.code, sent.msg).toBe(CODE.OK);
  const op = { token: `Bearer ${HARNESS_OPERATOR_TOKEN}` };
  const queue = await s.get("/admin/api/real_names?review_status=1", op);
  const req = queue.data.data.find((x: { user: { id: number } }) => x.user.id === userId);
  expect((await s.post(`/admin/api/real_names/${req.id}/approve`, {}, op)).code).toBe(CODE.OK);
}

describe("a user as a provider", () => {
  it("is refused on a demo account and before verification, then becomes one once verified", async () => {
    const d = await demo(1000);
    const refused = await s.post(
      "/api/follow/provider/mine",
      { name: "Demo Desk" },
      { token: d.token },
    );
    expect(refused.code).not.toBe(CODE.OK);

    const email = `provider-${Date.now()}@example.com`;
    await registerEmail(s, email);
    const token = (await loginEmail(s, email)).data.token;
    const mine = await s.get("/api/follow/provider/mine", { token });
    expect(mine.data).toMatchObject({ eligible: false, provider: null });
    expect(mine.data.reason).toMatch(/verif/i);
    expect((await s.post("/api/follow/provider/mine", { name: "Desk" }, { token })).code).not.toBe(
      CODE.OK,
    );

    const userId = (
      s.up.ctx.db.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: number }
    ).id;
    await verify(token, userId);
    const taken = await s.post("/api/follow/provider/mine", { name: "aurora fx" }, { token });
    expect(taken.code).not.toBe(CODE.OK);
    const saved = await s.post(
      "/api/follow/provider/mine",
      { name: "Ada Desk", description: "Swing trades on majors", min_investment: "50" },
      { token },
    );
    expect(saved.code, saved.msg).toBe(CODE.OK);
    expect(saved.data.provider).toMatchObject({
      id: userId,
      name: "Ada Desk",
      min_investment: "50.00",
      active: true,
    });
    const list = await s.get("/api/follow/list");
    expect(list.data.some((i: { id: number }) => i.id === userId)).toBe(true);

    // Copying yourself is refused; below the minimum investment too.
    expect((await copy(token, { provider_id: userId, amount: "100" })).msg).toMatch(/yourself/);
    const other = await demo(1000);
    expect((await copy(other.token, { provider_id: userId, amount: "10" })).msg).toMatch(/50\.00/);
    // Stopping: no new copies.
    const stopped = await s.post("/api/follow/provider/mine/stop", {}, { token });
    expect(stopped.data.provider.active).toBe(false);
    expect((await copy(other.token, { provider_id: userId, amount: "100" })).code).toBe(
      CODE.NOT_FOUND,
    );
    // No longer public: out of the ranking, and its page is not found.
    const after = await s.get("/api/follow/list");
    expect(after.data.some((i: { id: number }) => i.id === userId)).toBe(false);
    expect((await s.get(`/api/follow/provider?id=${userId}`)).code).toBe(CODE.NOT_FOUND);
    // Providing again makes it public again.
    await s.post("/api/follow/provider/mine", { name: "Ada Desk" }, { token });
    expect((await s.get(`/api/follow/provider?id=${userId}`)).code).toBe(CODE.OK);
  });
});

describe("operators", () => {
  const asOperator = { token: `Bearer ${HARNESS_OPERATOR_TOKEN}` };

  it("find copies, stop one with a remark (audited), hide and show a provider", async () => {
    const u = await demo(1000);
    const r = await copy(u.token, { provider_id: providerId, amount: "100" });
    const uid = (
      s.up.ctx.db.prepare("SELECT uid FROM users WHERE id = ?").get(u.id) as { uid: string }
    ).uid;
    const found = await s.get(`/admin/api/copies?uid=${uid}`, asOperator);
    expect(found.data.data.map((c: Copy) => c.id)).toEqual([r.data.id]);
    expect(found.data.total).toBe(1);

    const noRemark = await s.post(
      `/admin/api/copies/${r.data.id}/stop`,
      { remark: " " },
      asOperator,
    );
    expect(noRemark.code).not.toBe(CODE.OK);
    const stopped = await s.post(
      `/admin/api/copies/${r.data.id}/stop`,
      { remark: "Account review" },
      asOperator,
    );
    expect(stopped.code, stopped.msg).toBe(CODE.OK);
    expect(stopped.data).toMatchObject({
      status: "stopped",
      stop_reason: "operator",
      stop_remark: "Account review",
    });
    expect(balanceOf(u.id)).toBe(1000e6);
    const mine = await detail(u.token, r.data.id);
    expect(mine.stop_reason).toBe("operator");

    const hide = await s.post(
      `/admin/api/providers/${providerId}/hide`,
      { remark: "Under review", hidden: 1 },
      asOperator,
    );
    expect(hide.data).toMatchObject({ id: providerId, hidden: true });
    expect(
      (await s.get("/api/follow/list")).data.some((i: { id: number }) => i.id === providerId),
    ).toBe(false);
    const show = await s.post(
      `/admin/api/providers/${providerId}/hide`,
      { remark: "Cleared", hidden: 0 },
      asOperator,
    );
    expect(show.data.hidden).toBe(false);
    const audit = s.up.ctx.db
      .prepare(
        "SELECT action, remark FROM audit WHERE action IN ('copy.stop','provider.hide','provider.show') ORDER BY id",
      )
      .all();
    expect(audit).toEqual([
      { action: "copy.stop", remark: "Account review" },
      { action: "provider.hide", remark: "Under review" },
      { action: "provider.show", remark: "Cleared" },
    ]);
    const providers = await s.get("/admin/api/providers", asOperator);
    expect(providers.data.find((p: { id: number }) => p.id === providerId)).toMatchObject({
      hidden: false,
      style: "trend",
    });
  });
});

describe("adjustments", () => {
  const asOperator = { token: `Bearer ${HARNESS_OPERATOR_TOKEN}` };
  const uidOf = (id: number) =>
    (s.up.ctx.db.prepare("SELECT uid FROM users WHERE id = ?").get(id) as { uid: string }).uid;

  it("are refused on a copy's account and on a strategy trader's, with nothing booked", async () => {
    const u = await demo(1000);
    const r = await copy(u.token, { provider_id: providerId, amount: "100" });
    const copyAccount = (
      s.up.ctx.db.prepare("SELECT account_id FROM copies WHERE id = ?").get(r.data.id) as {
        account_id: number;
      }
    ).account_id;
    const adjust = (userId: number, lang = "en") =>
      s.post(
        "/admin/api/adjustments",
        { uid: uidOf(userId), amount: "50", remark: "Goodwill" },
        { ...asOperator, lang },
      );
    const adjustments = (userId: number) =>
      (
        s.up.ctx.db
          .prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ? AND kind = 'adjustment'")
          .get(userId) as { n: number }
      ).n;
    const before = [balanceOf(copyAccount), balanceOf(providerId), adjustments(providerId)];
    const toCopy = await adjust(copyAccount);
    expect(toCopy.code).toBe(CODE.FAIL);
    expect(toCopy.msg).toMatch(/copy's account/);
    const toStrategy = await adjust(providerId, "de");
    expect(toStrategy.code).toBe(CODE.FAIL);
    expect(toStrategy.msg).toMatch(/Strategie-Traders/);
    expect([balanceOf(copyAccount), balanceOf(providerId), adjustments(providerId)]).toEqual(
      before,
    );
    expect(adjustments(copyAccount)).toBe(0);
    // The copy's owner's own account is adjusted as any person's.
    expect((await adjust(u.id)).code).toBe(CODE.OK);
    expect(balanceOf(u.id)).toBe(950e6);
  });
});

describe("hand-driven providers (manual market)", () => {
  const asOperator = { token: `Bearer ${HARNESS_OPERATOR_TOKEN}` };

  it("trade only when told, and their copies follow", async () => {
    const p = await s.post("/dev/provider", { name: "Test Desk" }, asOperator);
    expect(p.code, p.msg).toBe(CODE.OK);
    const u = await demo(10000);
    const r = await copy(u.token, { provider_id: p.data.id, amount: "1000" });
    const t = await s.post(
      "/dev/provider/trade",
      { id: p.data.id, code: "EURUSD", side: 1, lots: "1" },
      asOperator,
    );
    expect(t.code, t.msg).toBe(CODE.OK);
    expect((await detail(u.token, r.data.id)).positions.map((x) => x.provider_order_id)).toEqual([
      t.data.id,
    ]);
    const c = await s.post("/dev/provider/close", { id: p.data.id }, asOperator);
    expect(c.data.closed).toEqual([t.data.id]);
    expect((await detail(u.token, r.data.id)).positions).toEqual([]);
    expect((await s.post("/dev/provider/close", { id: providerId }, asOperator)).code).toBe(
      CODE.NOT_FOUND,
    );
  });
});

describe("risk score", () => {
  const asOperator = { token: `Bearer ${HARNESS_OPERATOR_TOKEN}` };

  it("is computed once a day, tells followers of a rise of 2 or more, and refuses new copies above copy.max_risk_score", async () => {
    const db = s.up.ctx.db;
    const p = await s.post("/dev/provider", { name: "Risk Desk" }, asOperator);
    expect(p.code, p.msg).toBe(CODE.OK);
    const pid = p.data.id as number;
    const follower = await demo(10000);
    expect((await copy(follower.token, { provider_id: pid, amount: "1000" })).code).toBe(CODE.OK);
    // The provider trades one instrument at its highest leverage: both raise its score.
    for (let i = 0; i < 3; i++) {
      const t = await s.post(
        "/dev/provider/trade",
        { id: pid, code: "EURUSD", side: 1, lots: "1" },
        asOperator,
      );
      expect(t.code, t.msg).toBe(CODE.OK);
      await s.post("/dev/provider/close", { id: pid }, asOperator);
    }
    // The clock the job reads is set: just after the closes; the day before scored 1.
    const at = Date.now() + 1000;
    const day = Math.floor(at / DAY_MS);
    insertDaily(db, {
      user_id: pid,
      day: day - 1,
      risk_score: 1,
      volatility: 0,
      leverage: 0,
      concentration: 0,
      return_1m: 0,
      return_3m: 0,
      return_6m: 0,
      return_12m: 0,
      max_drawdown: 0,
      categories: "[]",
      computed_at: at - DAY_MS,
    });
    const job = new DailyRisk({
      db,
      run: (command) => s.up.ctx.sequencer.run(command),
      onError: (err) => {
        throw err;
      },
      now: () => at,
    });
    expect(await job.run()).toBeGreaterThan(0);
    const row = latestDailyOf(db, pid)!;
    expect(row.day).toBe(day);
    expect(row.risk_score).toBeGreaterThanOrEqual(5);
    const notices = () =>
      db
        .prepare(
          "SELECT kind, params FROM notifications WHERE user_id = ? AND kind = 'copy_risk_rise'",
        )
        .all(follower.id) as { kind: string; params: string }[];
    expect(notices().map((n) => JSON.parse(n.params))).toEqual([
      { name: "Risk Desk", from: 1, to: row.risk_score },
    ]);
    // The day is computed once: a second run writes and tells nothing.
    expect(await job.run()).toBe(0);
    expect(notices()).toHaveLength(1);

    // Above the broker's limit: a new copy is refused, with the score and the limit, nothing moved.
    await s.setting("copy.max_risk_score", String(row.risk_score - 1));
    const other = await demo(10000);
    const refused = await copy(other.token, { provider_id: pid, amount: "1000" });
    expect(refused.code).not.toBe(CODE.OK);
    expect(refused.msg).toContain(`${row.risk_score}`);
    expect(refused.msg).toContain("Risk Desk");
    expect(balanceOf(other.id)).toBe(10000 * 1e6);
    const page = await s.get<Provider>(`/api/follow/provider?id=${pid}`);
    expect(page.data).toMatchObject({
      risk_score: row.risk_score,
      copy_refused: true,
      risk_copy_max: row.risk_score - 1,
    });
    // The ranking filters by the score, and sorts the lowest score first.
    const listed = async (q: string) =>
      (await s.get<FollowItem[]>(`/api/follow/list?${q}`)).data.map((x) => x.id);
    expect(await listed(`max_risk=${row.risk_score - 1}`)).not.toContain(pid);
    expect(await listed(`max_risk=${row.risk_score}`)).toContain(pid);
    const byRisk = (await s.get<FollowItem[]>("/api/follow/list?sort=risk")).data;
    const scores = byRisk.map((x) => x.risk_score ?? Infinity);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));

    // At or below the limit, copies start again.
    await s.setting("copy.max_risk_score", String(row.risk_score));
    expect((await copy(other.token, { provider_id: pid, amount: "1000" })).code).toBe(CODE.OK);
    await s.setting("copy.max_risk_score", "7");
  });
});

describe("the ledger", () => {
  it("checks clean with copies in it", () => {
    const report = checkLedger(s.up.ctx.db);
    expect(report.findings).toEqual([]);
    expect(report.orders).toBeGreaterThan(0);
  });
});
