/**
 * Account notifications over real HTTP and the websocket, on a fresh store with the hand-driven
 * market: a take-profit booked, a pending order filled, a deposit credited and one rejected, a
 * withdrawal refused, each written once with the event and listed newest first, unread; the NOTICE
 * push tells a signed-in subscriber its unread count as it changes; "mark all read" clears it; a
 * manual close and a user's own cancel tell nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAW_TYPE } from "@contract/enums";
import { loginEmail, registerEmail } from "./accounts-helpers.js";
import {
  declareDeposit,
  HARNESS_OPERATOR_TOKEN,
  startUpstream,
  type Server,
} from "./upstream-harness.js";
import { Client } from "./ws-client.js";

let s: Server;
let seq = 0;
const OPERATOR = { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } };
const TRON = "TYEdLavhN1T2vudp9z5dVpbb6MEJ7bMNd3";

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-notify-",
    manualFeed: true,
    seededDeposits: "shown",
    config: { devOutbox: true, simulate: false, smtpUrl: null },
  });
  await s.tick("EURUSD", 1.1);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

async function realUser(): Promise<{ token: string; id: number }> {
  const email = `notify${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  const l = await loginEmail(s, email);
  return { token: l.data.token, id: Number(l.data.user.id) };
}

async function demoUser(): Promise<string> {
  const c = await s.post("/api/user/createAccountDemoForU", {});
  return (await s.post("/api/user/loginForU", { demo_id: c.data.demo_id })).data.token;
}

const notices = (token: string, page = 1) =>
  s.get(`/api/user/notices?page=${page}`, { token }).then((r) => r.data);

const EUR = () => s.feed!.quote("EURUSD")!.id;

describe("account notifications", () => {
  it("a take-profit and a filled pending order are told; a manual close and a cancel are not", async () => {
    const token = await demoUser();
    const order = (extra: Record<string, string | number>) =>
      s.post(
        "/v1/api/forex/submit",
        { type: 1, cont: "0.1", forex_id: EUR(), multiple: 100, ...extra },
        { token },
      );
    const manual = await order({ status: 1 });
    await s.post("/v1/api/forex/close", { id: manual.data.Id }, { token });
    const pending = await order({ status: 0, target_price: "1.095" });
    const cancelled = await order({ status: 0, target_price: "1.05" });
    await s.post("/v1/api/forex/cancel_trade", { id: cancelled.data.Id }, { token });
    expect((await notices(token)).total).toBe(0);

    await s.tick("EURUSD", 1.0949);
    await s.settled();
    await s.post(
      "/v1/api/forex/set_stop_price",
      { id: pending.data.Id, target_profit_price: "1.1", stop_loss_price: "0" },
      { token },
    );
    await s.tick("EURUSD", 1.1001);
    await s.settled();
    const page = await notices(token);
    expect(page.unread).toBe(2);
    expect(page.data.map((n: any) => [n.kind, n.read])).toEqual([
      ["take_profit", false],
      ["pending_filled", false],
    ]);
    expect(page.data[0]).toMatchObject({
      title: "Take profit reached",
      body: "1 position was closed at its take profit.",
    });
    expect(page.data[1].body).toBe(`Your pending order ${pending.data.Id} was filled at 1.0949.`);
    // In the reader's language.
    const de = await s.get("/api/user/notices?page=1", { token, lang: "de" });
    expect(de.data.data[0].title).not.toBe("Take profit reached");
    await s.tick("EURUSD", 1.1);
  });

  it("deposits and withdrawals decided by an operator are told, with the NOTICE push of the unread count", async () => {
    const u = await realUser();
    const ws = await Client.open(s.base.replace(/^http/, "ws") + "/v1/ws");
    ws.send({ op: "login", token: u.token });
    await ws.next((m) => m.op === "login");
    ws.send({ op: "subscribe", topics: ["NOTICE"] });
    const first = await ws.next((m) => m.op === "push" && m.topic === "NOTICE");
    expect(first.data).toEqual({ unread: 0 });

    const credited = await declareDeposit(s, u.token, "50");
    let from = ws.msgs.length;
    const ok = await s.post(`/admin/api/charges/${credited}/approve`, {}, OPERATOR);
    expect(ok.code).toBe(1);
    expect((await ws.next((m) => m.topic === "NOTICE", 3000, from)).data).toEqual({ unread: 1 });
    const refused = await declareDeposit(s, u.token, "20");
    await s.post(
      `/admin/api/charges/${refused}/reject`,
      { remark: "The proof is unreadable" },
      OPERATOR,
    );

    const coins = await s.get(`/api/account/draw_symbol_list?type=${DRAW_TYPE.ADDRESS}`, {
      token: u.token,
    });
    const usdt = coins.data.find((c: any) => c.protocol === "TRC20");
    const method = await s.post(
      "/api/wallet/bind_draw_method",
      { type: DRAW_TYPE.ADDRESS, draw_id: usdt.id, dc_address: TRON },
      { token: u.token },
    );
    const draw = await s.post(
      "/api/account/draw",
      { draw_currency_id: usdt.id, number: "30", draw_method_id: method.data.id },
      { token: u.token },
    );
    expect(draw.code).toBe(1);
    await s.post(
      `/admin/api/draws/${draw.data.id}/reject`,
      { remark: "Address flagged" },
      OPERATOR,
    );

    const page = await notices(u.token);
    expect(page.unread).toBe(3);
    expect(page.data.map((n: any) => n.kind)).toEqual([
      "withdrawal_rejected",
      "deposit_rejected",
      "deposit_credited",
    ]);
    expect(page.data[2].body).toBe(
      `50.00 USD has been added to your balance (deposit ${credited}).`,
    );
    expect(page.data[1].body).toContain("The proof is unreadable");
    expect(page.data[0].body).toContain("Address flagged");

    // The rejections' pushes go out after their commits, and may still be on their way: the read's
    // push is the one after the last of them (3 unread).
    await ws.next((m) => m.topic === "NOTICE" && m.data?.unread === 3, 3000, from);
    from = ws.msgs.length;
    const read = await s.post("/api/user/notices_read", {}, { token: u.token });
    expect(read.data).toEqual({ unread: 0 });
    expect((await ws.next((m) => m.topic === "NOTICE", 3000, from)).data).toEqual({ unread: 0 });
    const after = await notices(u.token);
    expect(after.unread).toBe(0);
    expect(after.data.every((n: any) => n.read)).toBe(true);
    ws.close();
  });

  it("a margin level falling to the margin-call level is told (once: tests/unit/margin-calls)", async () => {
    await s.setting("demo.initial_balance", "1000");
    const token = await demoUser();
    await s.tick("EURUSD", 1.1);
    // 0.5 lots at 1:100: 550 USD of margin against about 1,000 USD: a level near 180 %.
    const o = await s.post(
      "/v1/api/forex/submit",
      { type: 1, cont: "0.5", forex_id: EUR(), status: 1, multiple: 100 },
      { token },
    );
    expect(o.code, o.msg).toBe(1);
    const kinds = async () => (await notices(token)).data.map((n: any) => n.kind);
    // 95 pips down: about 525 USD of equity, a level of about 95 % (margin call 100 %, stop-out 50 %).
    await s.tick("EURUSD", 1.0905);
    await expect.poll(kinds, { timeout: 10_000 }).toEqual(["margin_call"]);
    const [call] = (await notices(token)).data;
    expect(call.title).toBe("Margin call");
    expect(call.body).toMatch(
      /^Your margin level is 9\d\.\d+ %, at or below the margin-call level of 100 %\./,
    );
    await s.post("/v1/api/forex/close", { id: o.data.Id }, { token });
    await s.tick("EURUSD", 1.1);
    await s.setting("demo.initial_balance", "10000");
  });

  it("pages newest first and keeps each account's notices to itself", async () => {
    const a = await realUser();
    const b = await realUser();
    for (let i = 0; i < 22; i++) {
      const id = await declareDeposit(s, a.token, "10");
      await s.post(`/admin/api/charges/${id}/reject`, { remark: `no ${i}` }, OPERATOR);
    }
    const one = await notices(a.token, 1);
    const two = await notices(a.token, 2);
    expect(one.total).toBe(22);
    expect(one.data).toHaveLength(20);
    expect(two.data).toHaveLength(2);
    expect(one.data[0].body).toContain("no 21");
    expect(two.data[1].body).toContain("no 0");
    expect((await notices(b.token)).total).toBe(0);
  });
});
