/**
 * The money API over real HTTP (upstream/API.md "Money"): withdrawal currencies, the wallet's
 * destinations, withdrawals and the ledger, for a real account registered through the API; demo
 * accounts refused; bad input refused with a translated message and nothing changed; the store's
 * money invariants hold afterwards (the ledger check).
 *
 * A real account's money comes in as it does for anyone: a deposit with its proof image, approved
 * through the operator API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAW_TYPE } from "@contract/enums";
import sharp from "sharp";
import { checkLedger } from "../../upstream/modules/money/check.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { loginEmail, registerEmail, type Server } from "./accounts-helpers.js";
import { asTeam, HARNESS_OPERATOR_TOKEN, startUpstream } from "./upstream-harness.js";

const TRON = "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk";
/** The seeded USDT/TRC20 deposit address (migration 014). */
const SEEDED_TRON = "TYEdLavhN1T2vudp9z5dVpbb6MEJ7bMNd3";
let s: Server;
let seq = 0;

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-money-",
    seededDeposits: "shown",
    config: { devOutbox: true, smtpUrl: null, marketAlwaysOpen: true },
    manualFeed: true,
  });
}, 60_000);

afterAll(async () => {
  await s?.close();
});

/** A new real account with `usd` credited; its token and id. */
async function realUser(usd: number): Promise<{ token: string; id: number }> {
  const email = `money${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  const l = await loginEmail(s, email);
  expect(l.code).toBe(1);
  const id = Number(l.data.user.id);
  if (usd > 0) {
    // Money comes in as it does for anyone: a deposit with its proof, approved by an operator.
    const token = l.data.token as string;
    const channel = (await s.get("/api/quickCharge/info", { token })).data.channels[0];
    const c = await s.post(
      "/api/quickCharge/submit",
      { number: String(usd), proofImg: await uploadProof(token), charge_id: channel.id },
      { token },
    );
    const ok = await s.post(
      `/admin/api/charges/${c.data.id}/approve`,
      {},
      { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } },
    );
    expect(ok.code).toBe(1);
  }
  return { token: l.data.token, id };
}

async function usdtTrc20(token: string): Promise<{ id: number; min: number }> {
  const list = await s.get(`/api/account/draw_symbol_list?type=${DRAW_TYPE.ADDRESS}`, { token });
  expect(list.code).toBe(1);
  return list.data.find((c: any) => c.code === "USDT" && c.protocol === "TRC20");
}

async function bindTron(token: string, currencyId: number): Promise<number> {
  const b = await s.post(
    "/api/wallet/bind_draw_method",
    { type: DRAW_TYPE.ADDRESS, draw_id: currencyId, dc_address: TRON },
    { token },
  );
  expect(b.msg).toBe("Account added");
  return b.data.id;
}

/** Uploads a small real JPEG as `token`'s proof; the answer's url. */
async function uploadProof(token: string): Promise<string> {
  const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#fa0" } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "receipt.jpg");
  const res = await fetch(`${s.base}/api/common/image_upload`, {
    method: "POST",
    headers: { authorization: token },
    body: form,
  });
  const body = (await res.json()) as { code: number; data: { url: string } };
  expect(body.code).toBe(1);
  return body.data.url;
}

const detail = async (token: string) =>
  (await s.get("/v1/api/main/account/forexDetail", { token })).data as {
    balance: number;
    lock_balance: number;
    can_use: number;
  };

describe("money API", () => {
  it("lists withdrawal currencies, binds checked destinations, and refuses demo accounts", async () => {
    const { token } = await realUser(0);
    const coins = await s.get("/api/account/draw_symbol_list?type=1", { token });
    expect(coins.data.map((c: any) => `${c.code}/${c.protocol}`)).toEqual([
      "USDT/TRC20",
      "USDT/ERC20",
      "BTC/BTC",
      "ETH/ERC20",
    ]);
    expect(coins.data[0]).toMatchObject({ fee_type: 1, draw_rate: 1, usd_price: 1, min: 10 });
    const banks = await s.get("/api/account/draw_symbol_list?type=2", { token });
    expect(banks.data.map((c: any) => c.code)).toEqual(["USD"]);

    const trc = coins.data[0];
    const bad = await s.post(
      "/api/wallet/bind_draw_method",
      { type: 1, draw_id: trc.id, dc_address: "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063" },
      { token, lang: "de" },
    );
    expect(bad).toMatchObject({
      code: 0,
      msg: "Dies ist keine gültige Adresse im Netzwerk TRC20",
      data: null,
    });
    const id = await bindTron(token, trc.id);
    const bank = await s.post(
      "/api/wallet/bind_draw_method",
      {
        type: 2,
        draw_id: banks.data[0].id,
        bank_name: "Harbour Bank",
        bank_address: "1 Quay, Singapore",
        bank_swift: "FHBKSGSG",
        payee_name: "Ada Lovelace",
        payee_account: "0012-345",
      },
      { token },
    );
    expect(bank.code).toBe(1);
    const addresses = await s.get("/api/wallet/get_draw_method?draw_type=1", { token });
    expect(addresses.data).toEqual([
      expect.objectContaining({
        id,
        dc_address: TRON,
        draw_currency: { id: trc.id, code: "USDT", protocol: "TRC20" },
      }),
    ]);
    const other = await s.get(`/api/wallet/get_draw_method?draw_type=1&draw_id=${trc.id + 1}`, {
      token,
    });
    expect(other.data).toEqual([]);

    const demo = await s.post("/api/user/createAccountDemoForU");
    const dl = await s.post("/api/user/loginForU", { demo_id: demo.data.demo_id });
    for (const [method, path] of [
      ["GET", "/api/account/draw_symbol_list?type=1"],
      ["GET", "/api/account/draw_list?type=1"],
      ["GET", "/api/wallet/get_draw_method?draw_type=1"],
      ["GET", "/v1/api/main/accountLog/forexChange"],
      ["POST", "/api/account/draw"],
      ["POST", "/api/wallet/bind_draw_method"],
    ] as const) {
      const r =
        method === "GET"
          ? await s.get(path, { token: dl.data.token })
          : await s.post(
              path,
              { type: 1, draw_id: trc.id, dc_address: TRON },
              {
                token: dl.data.token,
              },
            );
      expect(r, path).toMatchObject({
        code: 0,
        msg: "Please register or log in to a real account",
      });
    }
    expect((await s.get("/api/account/draw_list?type=1")).code).toBe(999);
  });

  it("holds a withdrawal in lock_balance, once per idempotency key, and returns it on cancel", async () => {
    const { token, id } = await realUser(1000);
    const trc = await usdtTrc20(token);
    const method = await bindTron(token, trc.id);
    const body = { draw_currency_id: trc.id, number: "300", draw_method_id: method, memo: "rent" };
    const key = { token, headers: { "idempotency-key": "draw-once-1" } };
    const first = await s.post("/api/account/draw", body, key);
    expect(first).toMatchObject({
      code: 1,
      msg: "Withdrawal requested; it is now under review",
      data: { number: 300, fee: 1, real_number: "299.00000000", status: 0, notes: "rent" },
    });
    const again = await s.post("/api/account/draw", body, key);
    expect(again.data).toEqual(first.data);
    expect(await detail(token)).toMatchObject({ balance: 700, lock_balance: 300 });
    const reused = await s.post("/api/account/draw", { ...body, number: "200" }, key);
    expect(reused.code).toBe(0);
    expect(await detail(token)).toMatchObject({ balance: 700, lock_balance: 300 });

    const list = await s.get("/api/account/draw_list?type=1", { token, lang: "de" });
    expect(list.data.total).toBe(1);
    expect(list.data.data[0]).toMatchObject({ status_name: "In Prüfung", address: TRON });

    // The destination is in use: it cannot be deleted until the withdrawal is settled.
    const busy = await s.post("/api/wallet/del_draw_method", { id: method }, { token });
    expect(busy.code).toBe(0);
    const cancelled = await s.post("/api/account/draw_cancel", { id: first.data.id }, { token });
    expect(cancelled.data.status).toBe(3);
    expect(await detail(token)).toMatchObject({ balance: 1000, lock_balance: 0 });
    const twice = await s.post("/api/account/draw_cancel", { id: first.data.id }, { token });
    expect(twice).toMatchObject({ code: 0, msg: "This withdrawal has already been processed" });
    expect((await s.post("/api/wallet/del_draw_method", { id: method }, { token })).msg).toBe(
      "Account deleted",
    );

    const ledger = await s.get("/v1/api/main/accountLog/forexChange", { token, lang: "fr" });
    expect(ledger.data.data.map((r: any) => [r.MemoTran, r.Value, r.Balance])).toEqual([
      ["Retrait recrédité", 300, 1000],
      ["Retrait", -300, 700],
      ["Dépôt", 1000, 1000],
    ]);
    expect(ledger.data.total).toBe(3);
    expect(typeof ledger.data.data[0].CreatedAtTran).toBe("string");
    expect(moneyOf(s.up.ctx.db).balances(id)).toEqual({ balanceMicro: 1000e6, lockMicro: 0 });
  });

  it("never overspends: 50 concurrent withdrawals against a small balance", async () => {
    const { token, id } = await realUser(100);
    const trc = await usdtTrc20(token);
    const method = await bindTron(token, trc.id);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        s.post(
          "/api/account/draw",
          { draw_currency_id: trc.id, number: "30", draw_method_id: method },
          { token },
        ),
      ),
    );
    expect(answers.filter((a) => a.code === 1)).toHaveLength(3);
    expect(await detail(token)).toMatchObject({ balance: 10, lock_balance: 90 });
    expect(moneyOf(s.up.ctx.db).ledgerSum(id)).toBe(10e6);
  });

  it("cannot take the margin that open positions hold", async () => {
    const { token } = await realUser(1000);
    const trc = await usdtTrc20(token);
    const method = await bindTron(token, trc.id);
    s.feed!.set("EURUSD", 1.1);
    const eur = (await s.get("/v1/api/forex/trade_list")).data.find(
      (i: any) => i.Code === "EURUSD",
    );
    const order = await s.post(
      "/v1/api/forex/submit",
      { type: 1, cont: "0.5", forex_id: eur.Id, status: 1, multiple: 100 },
      { token },
    );
    expect(order.msg).toBe("Order placed");
    const { can_use } = await detail(token);
    expect(can_use).toBeLessThan(1000);
    const tooMuch = await s.post(
      "/api/account/draw",
      {
        draw_currency_id: trc.id,
        number: String(Math.floor(can_use) + 1),
        draw_method_id: method,
      },
      { token },
    );
    expect(tooMuch.code).toBe(0);
    expect(tooMuch.msg).toMatch(/^You can withdraw at most \d+\.\d\d USD/);
    expect((await detail(token)).lock_balance).toBe(0);
  });

  it("refuses malformed input with a translated message and changes nothing", async () => {
    const { token, id } = await realUser(500);
    const trc = await usdtTrc20(token);
    const method = await bindTron(token, trc.id);
    const before = moneyOf(s.up.ctx.db).balances(id);
    const tries: [Record<string, string | number>, string][] = [
      [
        { draw_currency_id: trc.id, number: "-5", draw_method_id: method },
        "The amount must be greater than 0",
      ],
      [
        // Not a plain decimal: the field's refusal, by the call's schema.
        { draw_currency_id: trc.id, number: "1e3", draw_method_id: method },
        "Invalid value: number",
      ],
      [
        // More decimals than a cent: the field's refusal too.
        { draw_currency_id: trc.id, number: "10.001", draw_method_id: method },
        "Invalid value: number",
      ],
      [
        { draw_currency_id: trc.id, number: "5", draw_method_id: method },
        "The minimum withdrawal is 10.00 USD",
      ],
      [
        { draw_currency_id: "x", number: "50", draw_method_id: method },
        "Invalid value: draw_currency_id",
      ],
      [
        { draw_currency_id: trc.id, number: "50", draw_method_id: 999999 },
        "Please add a withdrawal address or bank account first",
      ],
      [{ draw_currency_id: 999999, number: "50", draw_method_id: method }, "No payment channel"],
      // Beyond any amount (15 digits): the field's refusal, never an error.
      [
        { draw_currency_id: trc.id, number: "123456789012345", draw_method_id: method },
        "Invalid value: number",
      ],
    ];
    for (const [body, msg] of tries) {
      const r = await s.post("/api/account/draw", body, { token });
      expect(r, JSON.stringify(body)).toMatchObject({ code: 0, msg, data: null });
    }
    const channel = (await s.get("/api/quickCharge/info", { token })).data.channels[0];
    const deposit = await s.post(
      "/api/quickCharge/submit",
      { number: "123456789012345", proofImg: "x.jpg", charge_id: channel.id },
      { token },
    );
    expect(deposit).toMatchObject({ code: 0, msg: "Invalid value: number", data: null });
    const op = { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } };
    const bound = await s.post(
      "/admin/api/settings",
      { key: "deposit.max_usd", value: "123456789012345" },
      op,
    );
    expect(bound.msg).toBe("deposit.max_usd must be a number greater than 0");
    expect(moneyOf(s.up.ctx.db).balances(id)).toEqual(before);
    expect((await s.get("/api/account/draw_list?type=1", { token })).data.total).toBe(0);
    expect(checkLedger(s.up.ctx.db).findings).toEqual([]);
  });

  it("records deposits with their proof for review, once per key, and credits only on approval", async () => {
    const { token, id } = await realUser(0);
    const info = await s.get("/api/quickCharge/info", { token });
    expect(info.data).toMatchObject({ min: 10, max: 1000000 });
    const trc = info.data.channels.find((c: any) => c.protocol_code === "TRC20");
    expect(trc).toMatchObject({ currency_code: "USDT", address: SEEDED_TRON, usd_price: 1 });
    expect((await s.get("/api/quickCharge/symbols", { token })).data).toEqual([
      "USDT",
      "BTC",
      "ETH",
    ]);

    const proof = await uploadProof(token);
    const body = { number: "250", proofImg: proof, address: trc.address, charge_id: trc.id };
    const key = { token, headers: { "idempotency-key": "deposit-1" } };
    const first = await s.post("/api/quickCharge/submit", body, key);
    expect(first).toMatchObject({
      code: 1,
      msg: "Deposit submitted; it will be credited once reviewed",
      data: { number: 250, credited: null, status: 0, status_name: "Pending review", type: 0 },
    });
    expect((await s.post("/api/quickCharge/submit", body, key)).data).toEqual(first.data);
    // The form posted again uploads its image again: the same key is still the same deposit.
    const replay = await s.post(
      "/api/quickCharge/submit",
      { ...body, proofImg: await uploadProof(token) },
      key,
    );
    expect(replay.data).toEqual(first.data);
    const changed = await s.post("/api/quickCharge/submit", { ...body, number: "251" }, key);
    expect(changed.msg).toBe(
      "This request key was already used for a different request; please use a new key",
    );
    // Nothing is credited before an operator looks at it.
    expect((await detail(token)).balance).toBe(0);
    const again = await s.post("/api/quickCharge/submit", body, { token });
    expect(again.msg).toBe("This proof has already been used for another deposit");

    const wires = await s.get("/api/quickCharge/wire_info?bank_coin=USD", { token });
    expect(wires.data[0]).toMatchObject({ bank_coin: "USD", bank_swift: "FHBKSGSG" });
    const wire = await s.post(
      "/api/quickCharge/wire_submit",
      { number: "1000.50", proofImg: await uploadProof(token), wire_id: wires.data[0].id },
      { token },
    );
    expect(wire.data).toMatchObject({ type: 1, number: 1000.5, status: 0 });

    const other = await realUser(0);
    const stolen = await s.post(
      "/api/quickCharge/submit",
      { ...body, proofImg: await uploadProof(token) },
      { token: other.token },
    );
    expect(stolen.msg).toBe("Please upload a proof of payment");

    // Another amount than declared: a second operator approves it.
    const approved = await asTeam(
      s,
      s.post(
        `/admin/api/charges/${first.data.id}/approve`,
        { amount: "249" },
        { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } },
      ),
    );
    expect(approved.code).toBe(1);
    expect((await detail(token)).balance).toBe(249);
    const coins = await s.get("/api/quickCharge/quick_ist?type=0", { token, lang: "de" });
    expect(coins.data.data).toEqual([
      expect.objectContaining({
        id: first.data.id,
        credited: 249,
        status: 1,
        status_name: "Gutgeschrieben",
      }),
    ]);
    expect((await s.get("/api/quickCharge/quick_ist?type=1", { token })).data.total).toBe(1);
    expect(moneyOf(s.up.ctx.db).ledgerSum(id)).toBe(249_000_000);
    expect(checkLedger(s.up.ctx.db).findings).toEqual([]);
  });
});
