/**
 * Every upstream request is read once, by its contract schema (contract/api/*, the field rules of
 * contract/fields.ts), before its handler runs:
 * - on every money and order call, an amount, lot or price field of 15 whole digits, or shaped as
 *   an exponent ("1e5", a JSON 1e21), is refused with HTTP 400, the envelope's code 0 and the
 *   field's translated message, and changes nothing; so is a malformed id, page, type, status or
 *   remark of a money or operator call;
 * - numbers sent as form text and as JSON numbers are read alike, and a repeated form field by its
 *   first value;
 * - who may call is checked before the fields: no session (999), a demo account on a money call,
 *   an operator's role (403) answer before any field's refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_STATUS } from "@contract/enums";
import { checkLedger } from "../../upstream/modules/money/check.js";
import { loginEmail, registerEmail } from "./accounts-helpers.js";
import {
  declareDeposit,
  HARNESS_OPERATOR_TOKEN,
  startUpstream,
  type Server,
} from "./upstream-harness.js";

let s: Server;
const OPERATOR = { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` };

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-schemas-",
    seededDeposits: "shown",
    config: { devOutbox: true, smtpUrl: null, marketAlwaysOpen: true },
    manualFeed: true,
  });
  s.feed!.set("EURUSD", 1.1);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

interface Answer {
  status: number;
  code: number;
  msg: string;
  data: any;
}

/** POSTs `body` as JSON (`json`) or as a form; the HTTP status and the envelope. */
async function send(
  path: string,
  body: Record<string, unknown> | string,
  headers: Record<string, string>,
  json = true,
): Promise<Answer> {
  const r = await fetch(s.base + path, {
    method: "POST",
    headers: {
      ...headers,
      lang: "en",
      "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
    },
    body: typeof body === "string" ? body : json ? JSON.stringify(body) : formOf(body),
  });
  return { status: r.status, ...((await r.json()) as Omit<Answer, "status">) };
}

const formOf = (b: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(b).map(([k, v]) => [k, String(v)])).toString();

/** The values that must never reach a rule: too many whole digits, exponent-shaped numbers. */
const HOSTILE: unknown[] = ["123456789012345", "1e5", "1E-3", 1e21, "-0", "0x10"];

/** The rows a refused call must leave alone. */
function state(): string {
  const q = (sql: string) => JSON.stringify(s.up.ctx.db.prepare(sql).all());
  return [
    q("SELECT id, balance_micro, lock_balance_micro FROM users ORDER BY id"),
    q("SELECT * FROM orders ORDER BY id"),
    q("SELECT * FROM ledger ORDER BY id"),
    q("SELECT * FROM charges ORDER BY id"),
    q("SELECT * FROM draws ORDER BY id"),
    q("SELECT * FROM draw_currencies ORDER BY id"),
  ].join("\n");
}

async function demoToken(): Promise<string> {
  const c = await s.post("/api/user/createAccountDemoForU");
  return (await s.post("/api/user/loginForU", { demo_id: c.data.demo_id })).data.token;
}

let seq = 0;
async function realAccount(): Promise<string> {
  const email = `schemas${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  return (await loginEmail(s, email)).data.token as string;
}

describe("one schema per request", () => {
  it("refuses 15-digit and exponent-shaped amounts, lots and prices on every money and order call with 400 and the field's message", async () => {
    const demo = await demoToken();
    const real = await realAccount();
    const eur = s.feed!.quote("EURUSD")!.id;
    const order = { type: 1, cont: "0.1", forex_id: eur, status: 1, multiple: 100 };
    const placed = await send("/v1/api/forex/submit", order, { authorization: demo });
    expect(placed.code).toBe(1);
    const chargeId = await declareDeposit(s, real, "50");
    const channel = (await s.get("/api/quickCharge/info", { token: real })).data.channels[0].id;
    const currency = (await s.get("/api/account/draw_symbol_list?type=1", { token: real })).data[0]
      .id;
    const user = { authorization: real };
    const calls: [string, Record<string, unknown>, string, Record<string, string>][] = [
      ["/v1/api/forex/submit", order, "cont", { authorization: demo }],
      ["/v1/api/forex/submit", { ...order, status: 0 }, "target_price", { authorization: demo }],
      ["/v1/api/forex/submit", order, "target_profit_price", { authorization: demo }],
      ["/v1/api/forex/submit", order, "stop_loss_price", { authorization: demo }],
      [
        "/v1/api/forex/set_stop_price",
        { id: placed.data.Id },
        "stop_loss_price",
        { authorization: demo },
      ],
      [
        "/v1/api/forex/set_stop_price",
        { id: placed.data.Id },
        "target_profit_price",
        { authorization: demo },
      ],
      ["/api/quickCharge/submit", { charge_id: channel, proofImg: "x.png" }, "number", user],
      ["/api/quickCharge/wire_submit", { wire_id: 1, proofImg: "x.png" }, "number", user],
      ["/api/account/draw", { draw_currency_id: currency, draw_method_id: 1 }, "number", user],
      [`/admin/api/charges/${chargeId}/approve`, {}, "amount", OPERATOR],
      ["/admin/api/adjustments", { uid: "1", remark: "r" }, "amount", OPERATOR],
      [`/admin/api/draw_currencies/${currency}`, {}, "usd_price", OPERATOR],
      [`/admin/api/draw_currencies/${currency}`, {}, "min", OPERATOR],
      [`/admin/api/draw_currencies/${currency}`, {}, "max", OPERATOR],
      [`/admin/api/draw_currencies/${currency}`, {}, "draw_rate", OPERATOR],
    ];
    const before = state();
    for (const [path, base, field, headers] of calls) {
      for (const value of HOSTILE) {
        for (const json of [true, false]) {
          const r = await send(path, { ...base, [field]: value }, headers, json);
          const what = `${path} ${field}=${String(value)} (${json ? "JSON" : "form"})`;
          expect(r.status, what).toBe(400);
          expect(r.code, what).toBe(0);
          expect(r.msg, what).toMatch(new RegExp(`Invalid value: ${field}|greater than 0`));
        }
      }
    }
    expect(state()).toBe(before);
    expect(checkLedger(s.up.ctx.db).findings).toEqual([]);
  }, 120_000);

  it("refuses a malformed id, page, type, status or remark of a money or operator call with 400 and the field's message", async () => {
    const user = { authorization: await realAccount() };
    const get = async (path: string, headers: Record<string, string>): Promise<Answer> => {
      const r = await fetch(s.base + path, { headers: { ...headers, lang: "en" } });
      return { status: r.status, ...((await r.json()) as Omit<Answer, "status">) };
    };
    const refused: [Promise<Answer>, string][] = [
      [get("/api/account/draw_list?type=3", user), "Invalid value: type"],
      [get("/api/account/draw_list?page=0", user), "Invalid value: page"],
      [get("/api/quickCharge/quick_ist?type=x", user), "Invalid value: type"],
      [get("/v1/api/main/accountLog/forexChange?page=1e3", user), "Invalid value: page"],
      [get("/api/wallet/get_draw_method?draw_id=-1", user), "Invalid value: draw_id"],
      [send("/api/account/draw_cancel", { id: "1.5" }, user), "Invalid value: id"],
      [send("/api/wallet/del_draw_method", { id: "x" }, user), "Invalid value: id"],
      [get("/admin/api/charges?status=4", OPERATOR), "Invalid value: status"],
      [get("/admin/api/requests?status=3", OPERATOR), "Invalid value: status"],
      [get("/admin/api/audit?page=x", OPERATOR), "Invalid value: page"],
      [send("/admin/api/charges/x/approve", {}, OPERATOR), "Invalid value: id"],
      [send("/admin/api/draws/1/reject", { remark: "  " }, OPERATOR), "Please give a reason"],
      [
        send("/admin/api/charge_channels/1", { currency_code: "U" }, OPERATOR),
        "Invalid value: currency_code",
      ],
      [send("/admin/api/wire_accounts/1", { sort: "100000" }, OPERATOR), "Invalid value: sort"],
    ];
    const before = state();
    for (const [answer, msg] of refused) {
      const r = await answer;
      expect([r.status, r.code, r.msg], msg).toEqual([400, 0, msg]);
    }
    expect(state()).toBe(before);
  });

  it("reads numbers sent as text or as JSON numbers alike, and a repeated form field by its first value", async () => {
    const demo = await demoToken();
    const eur = s.feed!.quote("EURUSD")!.id;
    const asText = await send(
      "/v1/api/forex/submit",
      { type: "1", cont: "0.10", forex_id: String(eur), status: "1", multiple: "100" },
      { authorization: demo },
      false,
    );
    const asNumbers = await send(
      "/v1/api/forex/submit",
      { type: 1, cont: 0.1, forex_id: eur, status: 1, multiple: 100, stop_loss_price: 0 },
      { authorization: demo },
    );
    const repeated = await send(
      "/v1/api/forex/submit",
      `type=2&type=1&cont=0.2&cont=9&forex_id=${eur}&multiple=100`,
      { authorization: demo },
      false,
    );
    for (const r of [asText, asNumbers, repeated]) {
      expect(r.status).toBe(200);
      expect(r.code, r.msg).toBe(1);
      expect(r.data.Status).toBe(ORDER_STATUS.OPEN);
    }
    expect([asText.data.Quantity, asNumbers.data.Quantity]).toEqual([0.1, 0.1]);
    expect(asNumbers.data.TargetLossPrice).toBe(0);
    expect([repeated.data.OrderType, repeated.data.Quantity]).toEqual([2, 0.2]);
  });

  it("checks who calls before the fields: no session, a demo account on money, an operator's role", async () => {
    const bad = { number: "1e5", charge_id: "x" };
    const none = await send("/api/quickCharge/submit", bad, {});
    expect([none.status, none.code]).toEqual([200, 999]);
    const demo = await send("/api/quickCharge/submit", bad, { authorization: await demoToken() });
    expect([demo.status, demo.code, demo.msg]).toEqual([
      200,
      0,
      "Please register or log in to a real account",
    ]);
    const stranger = await send("/admin/api/adjustments", { amount: "1e5" }, {});
    expect(stranger.status).toBe(401);
  });

  it("a text field beyond its bound answers its own message with the bound", async () => {
    const r = await send(
      "/api/feedback/submit",
      { message: "x".repeat(5000) },
      { authorization: await realAccount() },
    );
    expect(r.status).toBe(400);
    expect(r.msg).toMatch(/at most \d+ characters/);
  });
});
