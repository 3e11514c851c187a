/**
 * Trading over real HTTP and websockets: an in-process upstream driven by the manual price feed,
 * demo accounts made through the real endpoints; plus a kill -9 durability test of the real process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import WebSocket from "ws";
import type { Upstream } from "../../upstream/app.js";
import type { ManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { getEnv, postEnv, startUpstream, type Env, type Server } from "./upstream-harness.js";
import { TRADE_PUSH_INTERVAL_MS } from "../../contract/constants.js";
import { newUpstreamStore, type UpstreamStore } from "../support/test-store.js";
import { until } from "../support/wait.js";
import { freePort } from "../../scripts/services/ports.js";
import { nodeArgsFor } from "../support/node-bundle.js";

let server: Server;
let up: Upstream;
/** The upstream the requests go to: the in-process one, or the real process of the durability test. */
let base: string;
let feed: ManualFeed;

/** GET with the client's `t` timestamp, as the web sends it. */
function get<T = any>(p: string, token?: string, lang?: string): Promise<Env<T>> {
  return getEnv<T>(base, p + (p.includes("?") ? "&" : "?") + `t=${Date.now()}`, { token, lang });
}

function post<T = any>(
  p: string,
  body: Record<string, string | number> = {},
  token?: string,
  headers: Record<string, string> = {},
): Promise<Env<T>> {
  return postEnv<T>(base, p, body, { token, headers });
}

/** Changes a setting as an operator does (the operator API checks the value). */
function setSetting(key: string, value: string): Promise<void> {
  return server.setting(key, value);
}

/** A demo account through the real endpoints, starting with `initial` USD. */
async function demo(initial = 10000): Promise<{ token: string; id: number }> {
  await setSetting("demo.initial_balance", String(initial));
  const c = await post("/api/user/createAccountDemoForU");
  expect(c.code).toBe(1);
  const l = await post("/api/user/loginForU", { demo_id: c.data.demo_id });
  expect(l.code).toBe(1);
  const id = (
    up.ctx.db.prepare("SELECT id FROM users WHERE demo_id = ?").get(c.data.demo_id) as {
      id: number;
    }
  ).id;
  return { token: l.data.token, id };
}

const EUR = () => feed.quote("EURUSD")!.id;

beforeAll(async () => {
  server = await startUpstream({
    tmpPrefix: "tp-trade-",
    manualFeed: true,
    config: { devOutbox: true, simulate: false, smtpUrl: null },
  });
  ({ up, base } = server);
  feed = server.feed!;
  feed.set("EURUSD", 1.1);
});

afterAll(async () => {
  await server?.close();
});

describe("orders over HTTP", () => {
  it("places a market order, lists it with the spec's fields, closes it into history", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const s = await post(
      "/v1/api/forex/submit",
      {
        type: 1,
        cont: "0.1",
        forex_id: EUR(),
        status: 1,
        multiple: 100,
        stop_loss_price: "",
        target_profit_price: "0",
      },
      token,
    );
    expect(s.code).toBe(1);
    expect(s.msg).toBe("Order placed");
    const list = await get(`/v1/api/forex/my_deal?status=1&page=1`, token);
    expect(list.code).toBe(1);
    expect(list.data.total).toBe(1);
    expect(list.data.balance).toBe(9999.78);
    const o = list.data.data[0];
    expect(o).toMatchObject({
      Id: s.data.Id,
      ForexTradeLists: { ShowCode: "EUR/USD", Code: "EURUSD", Id: EUR() },
      OrderType: 1,
      Quantity: 0.1,
      OriginPrice: 1.1,
      Price: 1.1,
      UpdatePrice: 1.1,
      FactProfits: 0,
      TargetLossPrice: 0,
      TargetProfitPrice: 0,
      CautionMoney: 110,
      TradeFee: 0.22,
      Status: 1,
      Multiple: 100,
    });
    expect(o.CreateTimeHandler).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    feed.set("EURUSD", 1.1012);
    const d = await get("/v1/api/main/account/forexDetail", token);
    expect(d.data).toEqual({
      balance: 9999.78,
      lock_balance: 0,
      total: 10011.78,
      all_caution_money: 110,
      can_use: 9901.78,
      HazardRate: 9101.62,
    });
    const c = await post("/v1/api/forex/close", { id: s.data.Id }, token);
    expect(c.code).toBe(1);
    expect(c.data).toMatchObject({ Status: 3, CloseReason: "manual", FactProfits: 12 });
    const h = await get("/v1/api/forex/my_deal?status=3", token);
    expect(h.data).toMatchObject({ total: 1, all_fact_profits: 12, balance: 10011.78 });
    expect(moneyOf(up.ctx.db).ledgerSum(id)).toBe(10011_780000);
    expect((await get("/v1/api/main/account/forexDetail", token)).data.HazardRate).toBeNull();
  });

  it("refuses bad input with a translated message and changes nothing", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const cases: [Record<string, string | number>, string][] = [
      [{ type: 3, cont: "0.1", forex_id: EUR(), status: 1, multiple: 100 }, "Invalid value: type"],
      [
        { type: 1, cont: "0.015", forex_id: EUR(), status: 1, multiple: 100 },
        "Lots must be a multiple of 0.01",
      ],
      [
        { type: 1, cont: "101", forex_id: EUR(), status: 1, multiple: 100 },
        "Lots must be at most 100",
      ],
      [
        { type: 1, cont: "0.1", forex_id: EUR(), status: 1, multiple: 7 },
        "Please choose one of the offered leverages: 10, 20, 50, 100, 200",
      ],
      [
        { type: 1, cont: "0.1", forex_id: feed.quote("AMZN")!.id, status: 1, multiple: 10 },
        "No leverage is set up for this instrument, so orders cannot be placed for now",
      ],
      [
        { type: 1, cont: "0.1", forex_id: EUR(), status: 0, multiple: 100 },
        "Please enter the pending order price",
      ],
      [
        {
          type: 2,
          cont: "0.1",
          forex_id: EUR(),
          status: 1,
          multiple: 100,
          target_profit_price: "1.2",
        },
        "For a sell, take-profit must be below 1.10000",
      ],
      [{ type: 1, cont: "abc", forex_id: EUR(), status: 1, multiple: 100 }, "Invalid value: cont"],
    ];
    for (const [body, msg] of cases) {
      const r = await post("/v1/api/forex/submit", body, token);
      expect(r.code, msg).toBe(0);
      expect(r.msg).toBe(msg);
    }
    const de = await post(
      "/v1/api/forex/submit",
      { type: 1, cont: "0.1", forex_id: EUR(), status: 1, multiple: 7 },
      token,
      { lang: "de" },
    );
    expect(de.msg).toBe("Bitte wählen Sie einen der angebotenen Hebel: 10, 20, 50, 100, 200");
    expect((await get("/v1/api/forex/my_deal?status=1", token)).data.total).toBe(0);
    expect(moneyOf(up.ctx.db).ledgerSum(id)).toBe(10000_000000);
    // A GET never changes state; without a session: code 999.
    expect(
      (await get("/v1/api/forex/submit?type=1&cont=0.1&forex_id=1&status=1&multiple=100", token))
        .code,
    ).toBe(0);
    expect(
      (
        await post("/v1/api/forex/submit", {
          type: 1,
          cont: "0.1",
          forex_id: EUR(),
          status: 1,
          multiple: 100,
        })
      ).code,
    ).toBe(999);
  });

  it("a pending order is placed, activated when the price reaches it, and closed by take-profit", async () => {
    const { token } = await demo();
    feed.set("EURUSD", 1.1);
    const p = await post(
      "/v1/api/forex/submit",
      {
        type: 1,
        cont: "0.1",
        forex_id: EUR(),
        status: 0,
        target_price: "1.095",
        target_profit_price: "1.1",
        stop_loss_price: "1.09",
        multiple: 100,
      },
      token,
    );
    expect(p.code).toBe(1);
    expect(p.msg).toBe("Pending order placed");
    expect(p.data).toMatchObject({ Status: 0, PendingType: "buy_limit", OriginPrice: 1.095 });
    expect((await get("/v1/api/forex/my_deal?status=0", token)).data.total).toBe(1);
    feed.set("EURUSD", 1.0949);
    const open = await get("/v1/api/forex/my_deal?status=1", token);
    expect(open.data.data[0]).toMatchObject({ Id: p.data.Id, Status: 1, Price: 1.0949 });
    expect((await get("/v1/api/forex/my_deal?status=0", token)).data.total).toBe(0);
    feed.set("EURUSD", 1.1001);
    const h = await get("/v1/api/forex/my_deal?status=3", token);
    expect(h.data.data[0]).toMatchObject({
      Id: p.data.Id,
      CloseReason: "take_profit",
      UpdatePrice: 1.1001,
      FactProfits: 52,
    });
  });

  it("a trailing stop set in the order follows the price, is written to the store and closes as trailing_stop", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const o = await post(
      "/v1/api/forex/submit",
      {
        type: 1,
        cont: "0.1",
        forex_id: EUR(),
        status: 1,
        multiple: 100,
        target_profit_pips: "50",
        trailing_distance: "0.0020",
      },
      token,
    );
    expect(o.code).toBe(1);
    expect(o.data).toMatchObject({ TargetProfitPrice: 1.105, TrailingDistance: 0.002 });
    feed.set("EURUSD", 1.1025);
    const stored = () =>
      (
        up.ctx.db.prepare("SELECT stop_loss FROM orders WHERE id = ?").get(o.data.Id) as {
          stop_loss: number | null;
        }
      ).stop_loss;
    // The leader writes the moved stop with its next batch.
    await until("the trailed stop written", () => stored() === 1.1005);
    const open = await get("/v1/api/forex/my_deal?status=1", token);
    expect(open.data.data[0]).toMatchObject({ Id: o.data.Id, TargetLossPrice: 1.1005 });
    feed.set("EURUSD", 1.1004);
    const h = await get("/v1/api/forex/my_deal?status=3", token);
    expect(h.data.data[0]).toMatchObject({ Id: o.data.Id, CloseReason: "trailing_stop" });
    const notice = up.ctx.db
      .prepare("SELECT kind FROM notifications WHERE user_id = ? ORDER BY id DESC")
      .get(id) as { kind: string } | undefined;
    expect(notice?.kind).toBe("trailing_stop");
  });

  it("set_trailing sets, checks and clears a position's trailing stop and break-even", async () => {
    const { token } = await demo();
    feed.set("EURUSD", 1.1);
    const o = await post(
      "/v1/api/forex/submit",
      { type: 2, cont: "0.1", forex_id: EUR(), status: 1, multiple: 100 },
      token,
    );
    const bad = await post(
      "/v1/api/forex/set_trailing",
      { id: o.data.Id, trailing_distance: "0.000015" },
      token,
    );
    expect(bad).toMatchObject({ code: 0, data: null });
    expect(bad.msg).toBe("trailing_distance must be a whole number of price steps (5 decimals)");
    const set = await post(
      "/v1/api/forex/set_trailing",
      { id: o.data.Id, trailing_distance: "0.001", break_even: "0.0005" },
      token,
    );
    expect(set).toMatchObject({
      code: 1,
      msg: "Trailing stop updated",
      data: { TrailingDistance: 0.001, BreakEven: 0.0005 },
    });
    // 6 pips of profit: break-even puts the stop at the entry, tighter than the trailing 1.1004.
    feed.set("EURUSD", 1.0994);
    const open = await get("/v1/api/forex/my_deal?status=1", token);
    expect(open.data.data[0].TargetLossPrice).toBe(1.1);
    feed.set("EURUSD", 1.0985);
    const on = await get("/v1/api/forex/my_deal?status=1", token);
    expect(on.data.data[0].TargetLossPrice).toBe(1.0995);
    const cleared = await post("/v1/api/forex/set_trailing", { id: o.data.Id }, token);
    expect(cleared.data).toMatchObject({ TrailingDistance: 0, BreakEven: 0 });
    expect((await get("/v1/api/forex/set_trailing", token)).code).toBe(0);
  });

  it("closes part of a position: the part in history with its parent, the rest open with its stops", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const o = await post(
      "/v1/api/forex/submit",
      {
        type: 1,
        cont: "0.3",
        forex_id: EUR(),
        status: 1,
        multiple: 100,
        target_profit_price: "1.12",
      },
      token,
    );
    feed.set("EURUSD", 1.101);
    const refused = await post("/v1/api/forex/close", { id: o.data.Id, lots: "0.4" }, token);
    expect(refused.msg).toBe("You can close at most the 0.3 lots this position holds");
    const part = await post("/v1/api/forex/close", { id: o.data.Id, lots: "0.1" }, token);
    expect(part).toMatchObject({
      code: 1,
      msg: "Part of the position closed",
      data: { Status: 3, Quantity: 0.1, ParentId: o.data.Id, FactProfits: 10 },
    });
    const open = await get("/v1/api/forex/my_deal?status=1", token);
    expect(open.data.data[0]).toMatchObject({
      Id: o.data.Id,
      Quantity: 0.2,
      TargetProfitPrice: 1.12,
    });
    const h = await get("/v1/api/forex/my_deal?status=3", token);
    expect(h.data.data[0]).toMatchObject({ Id: part.data.Id, ParentId: o.data.Id });
    const money = moneyOf(up.ctx.db);
    expect(money.ledgerSum(id)).toBe(
      (
        up.ctx.db.prepare("SELECT balance_micro FROM users WHERE id = ?").get(id) as {
          balance_micro: number;
        }
      ).balance_micro,
    );
  });

  it("a pending order with an expiry is cancelled as expired once it is reached, and told", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const at = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
    const p = await post(
      "/v1/api/forex/submit",
      {
        type: 1,
        cont: "0.1",
        forex_id: EUR(),
        status: 0,
        target_price: "1.09",
        multiple: 100,
        expiry: "date",
        expires_at: at,
      },
      token,
    );
    expect(p.data.ExpiresAt).toBe(`${at.replace("T", " ")}:00`);
    // The leader's sweep, as it runs an hour later.
    const later = Date.parse(`${at}:00Z`);
    await up.ctx.sequencer.run(() => up.ctx.engine.expireDue(later));
    const h = await get("/v1/api/forex/my_deal?status=3", token);
    expect(h.data.data[0]).toMatchObject({ Id: p.data.Id, Status: 4, CloseReason: "expired" });
    const notice = up.ctx.db
      .prepare("SELECT kind FROM notifications WHERE user_id = ? ORDER BY id DESC")
      .get(id) as { kind: string } | undefined;
    expect(notice?.kind).toBe("pending_expired");
  });

  it("closes by stop-loss, and a pending order can be cancelled", async () => {
    const { token } = await demo();
    feed.set("EURUSD", 1.1);
    const s = await post(
      "/v1/api/forex/submit",
      { type: 2, cont: "0.1", forex_id: EUR(), status: 1, stop_loss_price: "1.102", multiple: 100 },
      token,
    );
    expect(s.code).toBe(1);
    const upd = await post(
      "/v1/api/forex/set_stop_price",
      { id: s.data.Id, stop_loss_price: "1.103", target_profit_price: "1.08" },
      token,
    );
    expect(upd.data).toMatchObject({ TargetLossPrice: 1.103, TargetProfitPrice: 1.08 });
    feed.set("EURUSD", 1.1025);
    expect((await get("/v1/api/forex/my_deal?status=1", token)).data.total).toBe(1);
    feed.set("EURUSD", 1.1031);
    const h = await get("/v1/api/forex/my_deal?status=3", token);
    expect(h.data.data[0]).toMatchObject({
      Id: s.data.Id,
      CloseReason: "stop_loss",
      FactProfits: -31,
    });
    const p = await post(
      "/v1/api/forex/submit",
      { type: 2, cont: "0.1", forex_id: EUR(), status: 0, target_price: "1.2", multiple: 100 },
      token,
    );
    const c = await post("/v1/api/forex/cancel_trade", { id: p.data.Id }, token);
    expect(c).toMatchObject({
      code: 1,
      msg: "Pending order cancelled",
      data: { Status: 4, CloseReason: "cancelled" },
    });
    expect((await get("/v1/api/forex/my_deal?status=0", token)).data.total).toBe(0);
  });

  it("stop-out closes the losing position and pushes FOREX_CLOSED", async () => {
    const { token, id } = await demo(300);
    feed.set("EURUSD", 1.1);
    const ws = new WebSocket(base.replace("http", "ws") + "/v1/ws");
    const msgs: any[] = [];
    ws.on("message", (m) => msgs.push(JSON.parse(String(m))));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ op: "login", token }));
    ws.send(JSON.stringify({ op: "subscribe", topics: ["FOREX_TRADE", "FOREX_CLOSED"] }));
    await until("the first FOREX_TRADE push", () =>
      msgs.some((m) => m.op === "push" && m.topic === "FOREX_TRADE"),
    );
    const snap = msgs.find((m) => m.topic === "FOREX_TRADE").data;
    expect(snap).toMatchObject({
      Balance: 300,
      Total: 300,
      CautionMoneyAll: 0,
      CanUse: 300,
      HazardRate: null,
      MarginCall: false,
      TransOrder: [],
    });
    const s = await post(
      "/v1/api/forex/submit",
      { type: 1, cont: "0.2", forex_id: EUR(), status: 1, multiple: 100 },
      token,
    );
    expect(s.data.CautionMoney).toBe(220);
    feed.set("EURUSD", 1.0955); // -90: equity 209.56 / 220 = 95% -> margin call
    await until("a FOREX_TRADE push with MarginCall", () =>
      msgs.some((m) => m.topic === "FOREX_TRADE" && m.data.MarginCall === true),
    );
    const mc = msgs.filter((m) => m.topic === "FOREX_TRADE").at(-1).data;
    expect(mc).toMatchObject({
      ProfitsTotal: -90,
      CautionMoneyAll: 220,
      MarginCall: true,
      TransOrder: [{ Id: s.data.Id, UpdatePrice: 1.0955, FactProfits: -90 }],
    });
    feed.set("EURUSD", 1.09); // -200: equity 99.56 / 220 = 45% -> stop-out
    await until("the stop-out's FOREX_CLOSED push", () =>
      msgs.some((m) => m.topic === "FOREX_CLOSED"),
    );
    expect(msgs.find((m) => m.topic === "FOREX_CLOSED").data).toEqual({ ids: [s.data.Id] });
    const h = await get("/v1/api/forex/my_deal?status=3", token);
    expect(h.data.data[0]).toMatchObject({
      Id: s.data.Id,
      CloseReason: "stop_out",
      FactProfits: -200,
    });
    expect(moneyOf(up.ctx.db).ledgerSum(id)).toBe(99_560000);

    // Throttled: 40 ticks within ~200 ms make at most a few FOREX_TRADE pushes (<= 4 per second).
    const o = await post(
      "/v1/api/forex/submit",
      { type: 1, cont: "0.01", forex_id: EUR(), status: 1, multiple: 100 },
      token,
    );
    // Counting starts once the push that shows the new position has come (not after a guess).
    await until("a FOREX_TRADE push showing the new position", () =>
      msgs.some(
        (m) =>
          m.topic === "FOREX_TRADE" &&
          m.data.TransOrder.some((t: { Id: number }) => t.Id === o.data.Id),
      ),
    );
    const before = msgs.filter((m) => m.topic === "FOREX_TRADE").length;
    const t0 = Date.now();
    // 40 ticks paced 5 ms apart, then the rest of one second: the window the rate is measured over.
    for (let i = 0; i < 40; i++) {
      feed.set("EURUSD", 1.09 + i * 0.00001);
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - t0))));
    const pushes = msgs.filter((m) => m.topic === "FOREX_TRADE").length - before;
    // At most one push per interval of the window as it really lasted (a loaded machine stretches
    // it), and one more for an interval already running when it began; never one per tick.
    const intervals = Math.ceil((Date.now() - t0) / TRADE_PUSH_INTERVAL_MS);
    expect(pushes).toBeLessThanOrEqual(intervals + 1);
    expect(pushes).toBeLessThan(40);
    await until(
      "a FOREX_TRADE push at the burst's last price",
      () =>
        msgs.filter((m) => m.topic === "FOREX_TRADE").at(-1).data.TransOrder[0]?.UpdatePrice ===
        1.09039,
    );

    // A close from another session (plain HTTP) also pushes FOREX_CLOSED.
    await post("/v1/api/forex/close", { id: o.data.Id }, token);
    await until("the FOREX_CLOSED push of the close over HTTP", () =>
      msgs.some((m) => m.topic === "FOREX_CLOSED" && m.data.ids[0] === o.data.Id),
    );
    ws.close();
  });

  it("another account's order id answers not found", async () => {
    const a = await demo();
    const b = await demo();
    feed.set("EURUSD", 1.1);
    const s = await post(
      "/v1/api/forex/submit",
      { type: 1, cont: "0.1", forex_id: EUR(), status: 1, multiple: 100 },
      a.token,
    );
    for (const [p, body] of [
      ["/v1/api/forex/close", { id: s.data.Id }],
      ["/v1/api/forex/cancel_trade", { id: s.data.Id }],
      [
        "/v1/api/forex/set_stop_price",
        { id: s.data.Id, target_profit_price: "2", stop_loss_price: "0" },
      ],
    ] as const) {
      const r = await post(p, body, b.token, { lang: "fr" });
      expect(r).toEqual({ code: 404, msg: "Ordre introuvable", data: null });
    }
    expect((await get("/v1/api/forex/my_deal?status=1", a.token)).data.data[0]).toMatchObject({
      Id: s.data.Id,
      Status: 1,
      TargetProfitPrice: 0,
    });
  });

  it("the same idempotency key twice makes one order and returns the first answer", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const body = { type: 1, cont: "0.1", forex_id: EUR(), status: 1, multiple: 100 };
    const a = await post("/v1/api/forex/submit", body, token, { "idempotency-key": "k-123" });
    feed.set("EURUSD", 1.2);
    const b = await post("/v1/api/forex/submit", body, token, { "idempotency-key": "k-123" });
    expect(a.code).toBe(1);
    expect(b).toEqual(a);
    // The web's hidden form field works the same way.
    const c = await post(
      "/v1/api/forex/close",
      { id: a.data.Id, idempotency_key: "k-close" },
      token,
    );
    const d = await post(
      "/v1/api/forex/close",
      { id: a.data.Id, idempotency_key: "k-close" },
      token,
    );
    expect(d).toEqual(c);
    expect(up.ctx.db.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?").get(id)).toEqual(
      { n: 1 },
    );
    expect(
      up.ctx.db
        .prepare("SELECT kind FROM ledger WHERE user_id = ? ORDER BY id")
        .all(id)
        .map((r: any) => r.kind),
    ).toEqual(["demo_initial", "fee", "realised_profit"]);
  });

  it("50 concurrent orders against a small balance never overspend it", async () => {
    const { token, id } = await demo(300);
    feed.set("EURUSD", 1.1);
    const res = await Promise.all(
      Array.from({ length: 50 }, () =>
        post(
          "/v1/api/forex/submit",
          { type: 1, cont: "0.1", forex_id: EUR(), status: 1, multiple: 100 },
          token,
        ),
      ),
    );
    // Each needs 110 margin + 0.22 fee: two fit in 300, the third would not.
    expect(res.filter((r) => r.code === 1)).toHaveLength(2);
    expect(
      res.filter((r) => r.code === 0 && r.msg.startsWith("Not enough free margin")),
    ).toHaveLength(48);
    const d = await get("/v1/api/main/account/forexDetail", token);
    expect(d.data).toMatchObject({ balance: 299.56, all_caution_money: 220, can_use: 79.56 });
    expect(moneyOf(up.ctx.db).ledgerSum(id)).toBe(299_560000);
  });

  it("resetForexDemoAccount closes everything and restores the initial balance (POST only)", async () => {
    const { token, id } = await demo(5000);
    feed.set("EURUSD", 1.1);
    await post(
      "/v1/api/forex/submit",
      { type: 1, cont: "0.1", forex_id: EUR(), status: 1, multiple: 100 },
      token,
    );
    feed.set("EURUSD", 1.09);
    expect((await get("/v1/api/main/user/resetForexDemoAccount", token)).code).toBe(0);
    expect((await get("/v1/api/forex/my_deal?status=1", token)).data.total).toBe(1);
    const r = await post("/v1/api/main/user/resetForexDemoAccount", {}, token);
    expect(r).toMatchObject({
      code: 1,
      data: { balance: 5000, all_caution_money: 0, HazardRate: null },
    });
    expect((await get("/v1/api/forex/my_deal?status=1", token)).data.total).toBe(0);
    expect(moneyOf(up.ctx.db).ledgerSum(id)).toBe(5000_000000);
  });
});

describe("order cap (trade.max_orders)", () => {
  it("refuses a pending or market order beyond the cap of pending and open orders, translated", async () => {
    expect(
      up.ctx.db.prepare("SELECT value FROM settings WHERE key = 'trade.max_orders'").get(),
    ).toEqual({ value: "200" });
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    await setSetting("trade.max_orders", "3");
    try {
      const market = { type: 1, cont: "0.1", forex_id: EUR(), status: 1, multiple: 100 };
      const pending = { ...market, status: 0, target_price: "1.05" };
      const p1 = await post("/v1/api/forex/submit", pending, token);
      expect((await post("/v1/api/forex/submit", pending, token)).code).toBe(1);
      expect((await post("/v1/api/forex/submit", market, token)).code).toBe(1);
      const balance = moneyOf(up.ctx.db).ledgerSum(id);
      expect(await post("/v1/api/forex/submit", market, token)).toEqual({
        code: 0,
        msg: "You can hold at most 3 pending and open orders; please close or cancel some first",
        data: null,
      });
      const fr = await postEnv(base, "/v1/api/forex/submit", pending, { token, lang: "fr" });
      expect(fr.msg).toBe(
        "Vous pouvez détenir au plus 3 ordres en attente et ouverts ; veuillez d'abord en clôturer ou en annuler",
      );
      expect(moneyOf(up.ctx.db).ledgerSum(id)).toBe(balance);
      expect(
        up.ctx.db.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?").get(id),
      ).toEqual({ n: 3 });
      // Another account is not limited by this one's orders; a cancelled order frees a place.
      const other = await demo();
      expect((await post("/v1/api/forex/submit", market, other.token)).code).toBe(1);
      expect((await post("/v1/api/forex/cancel_trade", { id: p1.data.Id }, token)).code).toBe(1);
      expect((await post("/v1/api/forex/submit", market, token)).code).toBe(1);
    } finally {
      await setSetting("trade.max_orders", "200");
    }
  });
});

describe("idempotency keys", () => {
  /** POST with an idempotency key; the HTTP status and the envelope. */
  async function postKey(
    p: string,
    body: Record<string, string | number>,
    token: string,
    key: string,
  ): Promise<{ status: number; env: Env }> {
    const r = await fetch(base + p, {
      method: "POST",
      headers: {
        authorization: token,
        "idempotency-key": key,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
    });
    return { status: r.status, env: (await r.json()) as Env };
  }
  const orderCount = (userId: number) =>
    (up.ctx.db.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?").get(userId) as any)
      .n as number;
  const market = () => ({ type: 1, cont: "0.1", forex_id: EUR(), status: 1, multiple: 100 });
  const pending = (target: string) => ({ ...market(), status: 0, target_price: target });

  it("the same key with other parameters or on another call answers 422 and changes nothing", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const a = await postKey("/v1/api/forex/submit", market(), token, "k-same");
    expect(a.status).toBe(200);
    expect(a.env.code).toBe(1);
    const before = moneyOf(up.ctx.db).ledgerSum(id);
    const b = await postKey("/v1/api/forex/submit", { ...market(), cont: "0.2" }, token, "k-same");
    expect(b).toEqual({
      status: 422,
      env: {
        code: 0,
        msg: "This request key was already used for a different request; please use a new key",
        data: null,
      },
    });
    const c = await postKey("/v1/api/forex/close", { id: a.env.data.Id }, token, "k-same");
    expect(c.status).toBe(422);
    expect(c.env.code).toBe(0);
    const fr = await postEnv(
      base,
      "/v1/api/forex/submit",
      { ...market(), multiple: 50 },
      {
        token,
        lang: "fr",
        headers: { "idempotency-key": "k-same" },
      },
    );
    expect(fr.msg).toBe(
      "Cette clé de requête a déjà servi pour une autre requête ; veuillez utiliser une nouvelle clé",
    );
    expect(orderCount(id)).toBe(1);
    expect(moneyOf(up.ctx.db).ledgerSum(id)).toBe(before);
    expect((await get("/v1/api/forex/my_deal?status=1", token)).data.total).toBe(1);
    // The same request again still answers the first result.
    expect(await postKey("/v1/api/forex/submit", market(), token, "k-same")).toEqual(a);
  });

  it("a key older than 24 hours counts as new, its expired answer replaced", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const a = await postKey("/v1/api/forex/submit", market(), token, "k-old");
    expect(a.env.code).toBe(1);
    up.ctx.db
      .prepare("UPDATE idempotency SET created_at = created_at - ? WHERE user_id = ? AND key = ?")
      .run(24 * 3600 * 1000 + 1000, id, "k-old");
    // The key was aged behind the engine's back: it must read it from the store again.
    up.ctx.engine.forgetKeptKeys();
    const b = await postKey("/v1/api/forex/submit", market(), token, "k-old");
    expect(b.env.code).toBe(1);
    expect(b.env.data.Id).not.toBe(a.env.data.Id);
    expect(orderCount(id)).toBe(2);
    const old = up.ctx.db
      .prepare("SELECT COUNT(*) AS n FROM idempotency WHERE created_at < ?")
      .get(Date.now() - 24 * 3600 * 1000) as { n: number };
    expect(old.n).toBe(0);
    // Another request with the expired key's successor is refused as usual.
    expect(
      (await postKey("/v1/api/forex/close", { id: b.env.data.Id }, token, "k-old")).status,
    ).toBe(422);
  });

  it("keys are per user: submit, cancel_trade, set_stop_price and resetForexDemoAccount", async () => {
    const u1 = await demo(5000);
    const u2 = await demo(5000);
    feed.set("EURUSD", 1.1);
    // submit: the same key from two users makes two orders.
    const s1 = await postKey("/v1/api/forex/submit", pending("1.05"), u1.token, "k-shared");
    const s2 = await postKey("/v1/api/forex/submit", pending("1.05"), u2.token, "k-shared");
    expect(s1.env.code).toBe(1);
    expect(s2.env.code).toBe(1);
    expect(s2.env.data.Id).not.toBe(s1.env.data.Id);
    // set_stop_price: replays for the same user, refuses other stops, independent per user.
    const stop = (o: number, tp: string) => ({ id: o, target_profit_price: tp });
    const t1 = await postKey(
      "/v1/api/forex/set_stop_price",
      stop(s1.env.data.Id, "1.2"),
      u1.token,
      "k-stop",
    );
    expect(t1.env.code).toBe(1);
    expect(
      await postKey(
        "/v1/api/forex/set_stop_price",
        stop(s1.env.data.Id, "1.2"),
        u1.token,
        "k-stop",
      ),
    ).toEqual(t1);
    expect(
      (
        await postKey(
          "/v1/api/forex/set_stop_price",
          stop(s1.env.data.Id, "1.3"),
          u1.token,
          "k-stop",
        )
      ).status,
    ).toBe(422);
    const t2 = await postKey(
      "/v1/api/forex/set_stop_price",
      stop(s2.env.data.Id, "1.3"),
      u2.token,
      "k-stop",
    );
    expect(t2.env).toMatchObject({ code: 1, data: { Id: s2.env.data.Id, TargetProfitPrice: 1.3 } });
    // cancel_trade: replays for the same user, the other user's key is their own.
    const c1 = await postKey(
      "/v1/api/forex/cancel_trade",
      { id: s1.env.data.Id },
      u1.token,
      "k-cancel",
    );
    expect(c1.env.code).toBe(1);
    expect(
      await postKey("/v1/api/forex/cancel_trade", { id: s1.env.data.Id }, u1.token, "k-cancel"),
    ).toEqual(c1);
    const c2 = await postKey(
      "/v1/api/forex/cancel_trade",
      { id: s2.env.data.Id },
      u2.token,
      "k-cancel",
    );
    expect(c2.env).toMatchObject({ code: 1, data: { Id: s2.env.data.Id } });
    // resetForexDemoAccount: a replay resets nothing more; the other user's reset is their own.
    const r1 = await postKey("/v1/api/main/user/resetForexDemoAccount", {}, u1.token, "k-reset");
    expect(r1.env).toMatchObject({ code: 1, data: { balance: 5000 } });
    const m = await postKey("/v1/api/forex/submit", market(), u1.token, "k-after");
    expect(m.env.code).toBe(1);
    const ledger = () =>
      (up.ctx.db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ?").get(u1.id) as any).n;
    const n = ledger();
    expect(
      await postKey("/v1/api/main/user/resetForexDemoAccount", {}, u1.token, "k-reset"),
    ).toEqual(r1);
    expect(ledger()).toBe(n);
    expect((await get("/v1/api/forex/my_deal?status=1", u1.token)).data.total).toBe(1);
    const r2 = await postKey("/v1/api/main/user/resetForexDemoAccount", {}, u2.token, "k-reset");
    expect(r2.env).toMatchObject({ code: 1, data: { balance: 5000 } });
    expect(
      (await postKey("/v1/api/forex/close", { id: m.env.data.Id }, u1.token, "k-reset")).status,
    ).toBe(422);
  });
});

describe("durability", () => {
  function start(
    dataDir: string,
    port: number,
    store: UpstreamStore,
  ): Promise<{ child: ChildProcess; url: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, nodeArgsFor("upstream"), {
        cwd: path.resolve(__dirname, "../.."),
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          ...store.env,
          UPSTREAM_PORT: String(port),
          MARKET_ALWAYS_OPEN: "1",
          LOG_LEVEL: "error",
          RATE_LIMIT: "0",
        },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      let out = "";
      const timer = setTimeout(() => reject(new Error(`upstream did not start: ${out}`)), 60_000);
      child.stdout!.on("data", (d) => {
        out += String(d);
        const m = /UPSTREAM_READY (\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve({ child, url: m[1] });
        }
      });
      child.stderr!.on("data", (d) => (out += String(d)));
      child.on("exit", (code) => reject(new Error(`upstream exited ${code}: ${out}`)));
    });
  }

  /** SIGKILL of the upstream's whole process group: nothing gets to flush or close. */
  function kill9(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      child.once("exit", () => resolve());
      process.kill(-child.pid!, "SIGKILL");
    });
  }

  it("an acknowledged order survives kill -9 of the upstream and is there after restart", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-kill-"));
    const port = await freePort();
    // DATA_DIR's file on SQLite, a new database on PostgreSQL: the same store after the restart.
    const store = newUpstreamStore(path.join(dataDir, "upstream.sqlite"));
    let run = await start(dataDir, port, store);
    try {
      base = run.url;
      const c = await post("/api/user/createAccountDemoForU");
      const token = (await post("/api/user/loginForU", { demo_id: c.data.demo_id })).data
        .token as string;
      const btc = (await get<any[]>("/v1/api/forex/trade_list")).data.find(
        (i: any) => i.Code === "BTCUSD",
      );
      // Right after start the quote is the last stored candle's; the simulator's first tick makes it fresh.
      let s = await post(
        "/v1/api/forex/submit",
        { type: 1, cont: "0.01", forex_id: btc.Id, status: 1, multiple: 10 },
        token,
      );
      for (let i = 0; i < 50 && s.code !== 1; i++) {
        await new Promise((r) => setTimeout(r, 100));
        s = await post(
          "/v1/api/forex/submit",
          { type: 1, cont: "0.01", forex_id: btc.Id, status: 1, multiple: 10 },
          token,
        );
      }
      expect(s.msg).toBe("Order placed");
      const p = await post(
        "/v1/api/forex/submit",
        { type: 1, cont: "0.01", forex_id: btc.Id, status: 0, target_price: "1", multiple: 10 },
        token,
      );
      expect(p.code).toBe(1);
      await kill9(run.child);
      run = await start(dataDir, port, store);
      base = run.url;
      const open = await get("/v1/api/forex/my_deal?status=1", token);
      expect(open.data.data.map((o: any) => o.Id)).toEqual([s.data.Id]);
      expect(open.data.data[0]).toMatchObject({
        Price: s.data.Price,
        CautionMoney: s.data.CautionMoney,
        TradeFee: s.data.TradeFee,
      });
      expect(
        (await get("/v1/api/forex/my_deal?status=0", token)).data.data.map((o: any) => o.Id),
      ).toEqual([p.data.Id]);
      // The restarted engine holds it: it can be closed (once the restarted simulator's first tick
      // makes the quote fresh again; no order fills on a stale quote).
      let c2 = await post("/v1/api/forex/close", { id: s.data.Id }, token);
      for (let i = 0; i < 50 && c2.code !== 1; i++) {
        await new Promise((r) => setTimeout(r, 100));
        c2 = await post("/v1/api/forex/close", { id: s.data.Id }, token);
      }
      expect(c2.code).toBe(1);
    } finally {
      await kill9(run.child).catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
