/**
 * Four-eyes approval over real HTTP (upstream/modules/operators/requests.ts): the sensitive actions
 * become pending requests that change nothing; another operator whose role holds the request's
 * permission approves (the action takes effect, as requested) or rejects it with a remark; nobody
 * decides their own; an approval whose action no longer holds changes nothing and leaves the request
 * pending; the harmless variants (a small adjustment, hiding an entry, a plain setting) take effect
 * at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperatorRole } from "@contract/operators";
import { createOperator, currentCode } from "../../upstream/modules/operators/accounts.js";
import { loadSecretKey } from "../../upstream/platform/secret-box.js";
import { secretKeyDir } from "../../upstream/platform/config.js";
import {
  declareDeposit,
  HARNESS_OPERATOR_TOKEN,
  startUpstream,
  type Server,
} from "./upstream-harness.js";
import { loginEmail, registerEmail } from "./accounts-helpers.js";
import { clearOfUtcMidnight } from "../support/wait.js";

let s: Server;
const team: Record<string, { headers: { authorization: string } }> = {};
let seq = 0;

async function member(name: string, role: OperatorRole) {
  const key = loadSecretKey(s.up.ctx.config.operatorSecretKey, secretKeyDir(s.up.ctx.config));
  const op = await createOperator(s.up.ctx.db, key, name, role);
  const r = await s.post("/admin/api/login", {
    name,
    password: op.password,
    code: await currentCode(op.secret),
  });
  team[name] = { headers: { authorization: `Bearer ${r.data.token}` } };
}

async function user(): Promise<{ token: string; uid: string }> {
  const email = `fe${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  const l = await loginEmail(s, email);
  return { token: l.data.token, uid: String(l.data.user.uid) };
}

const balance = async (token: string) =>
  (await s.get("/v1/api/main/account/forexDetail", { token })).data.balance as number;

const deposit = (token: string, usd: string) => declareDeposit(s, token, usd);

const decide = (who: string, id: number, verb: "approve" | "reject", remark = "Checked") =>
  s.post(`/admin/api/requests/${id}/${verb}`, { remark }, team[who]);

beforeAll(async () => {
  // The money controls count one UTC day's totals: the file never runs across midnight.
  await clearOfUtcMidnight();
  s = await startUpstream({
    tmpPrefix: "tp-4eyes-",
    config: { devOutbox: true, smtpUrl: null },
    seededDeposits: "shown",
  });
  await member("ann", "finance");
  await member("bob", "finance");
  await member("sue", "support");
  await member("ada", "admin");
  await member("max", "admin");
}, 160_000);

afterAll(async () => {
  await s?.close();
});

describe("four-eyes approval", () => {
  it("an adjustment above the four-eyes amount waits for another finance operator; at it, it is booked at once", async () => {
    const u = await user();
    const adjust = (amount: string, remark: string) =>
      s.post("/admin/api/adjustments", { uid: u.uid, amount, remark }, team.ann);
    // Exactly the setting's 1,000 USD: booked now.
    expect((await adjust("1000", "Bonus")).data).toMatchObject({
      action: "adjustment",
      amount: 1000,
    });
    expect(await balance(u.token)).toBe(1000);
    // A cent more: filed, nothing booked.
    const filed = await adjust("1000.01", "Compensation");
    const req = filed.data.pending_request;
    expect(req).toMatchObject({
      kind: "adjustment",
      permission: "money",
      target: expect.stringMatching(/^user:\d+$/),
      summary: "+1000.01 USD: above risk.adjustment_four_eyes_usd 1000.00",
      note: "Compensation",
      // Whose money, as it stands: never only an internal id.
      subject: { uid: u.uid, balance: "1000.00", amount: "1000.01" },
      requested_by: "ann",
      status: 0,
    });
    expect(req.subject.email).toMatch(/^fe\d+-\d+@example\.com$/);
    expect(await balance(u.token)).toBe(1000);
    const pending = (await s.get("/admin/api/requests?status=0", team.sue)).data;
    expect(pending.data.map((r: any) => r.id)).toContain(req.id);
    // Not the one who asked; not a role without money.
    expect((await decide("ann", req.id, "approve")).msg).toBe(
      "You cannot approve or reject your own request",
    );
    const bySupport = await decide("sue", req.id, "approve");
    expect(bySupport.msg).toBe("Your operator role does not allow this action");
    // Nor the scripts' OPERATOR_TOKEN (an admin, but no person): refused with 403.
    const byToken = await fetch(`${s.base}/admin/api/requests/${req.id}/approve`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ remark: "From a script" }).toString(),
    });
    expect(byToken.status).toBe(403);
    expect(((await byToken.json()) as { msg: string }).msg).toMatch(/cannot approve a request/);
    expect(await balance(u.token)).toBe(1000);
    // Another finance operator approves: booked as requested, by the approver.
    const done = await decide("bob", req.id, "approve", "Ticket 4411 checked");
    expect(done.data).toMatchObject({
      status: 1,
      decided_by: "bob",
      remark: "Ticket 4411 checked",
    });
    expect(done.data.result).toMatchObject({ action: "adjustment", amount: 1000.01, actor: "bob" });
    expect(await balance(u.token)).toBe(2000.01);
    expect((await decide("ada", req.id, "reject")).msg).toBe(
      "This request has already been decided",
    );
    const approved = (await s.get("/admin/api/requests?status=1", team.sue)).data.data;
    expect(approved.find((r: any) => r.id === req.id)).toMatchObject({ decided_by: "bob" });
  });

  it("a rejected request changes nothing and keeps its remark; a debit counts by its size", async () => {
    const u = await user();
    const id = await deposit(u.token, "2000");
    await s.post(`/admin/api/charges/${id}/approve`, {}, team.ann);
    const filed = await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "-1500", remark: "Chargeback" },
      team.ann,
    );
    expect(filed.data.pending_request).toMatchObject({
      summary: "-1500.00 USD: above risk.adjustment_four_eyes_usd 1000.00",
      note: "Chargeback",
      subject: { uid: u.uid, balance: "2000.00", amount: "-1500.00" },
    });
    // A debit the balance could never take is refused at once, not filed.
    const never = await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "-2000.01", remark: "Chargeback" },
      team.ann,
    );
    expect(never).toMatchObject({ code: 0, msg: "Insufficient balance", data: null });
    const rejected = await decide("bob", filed.data.pending_request.id, "reject", "Not ours");
    expect(rejected.data).toMatchObject({ status: 2, remark: "Not ours", result: null });
    expect(await balance(u.token)).toBe(2000);
    const log = (await s.get("/admin/api/audit?actor=bob", team.sue)).data.data;
    expect(log[0]).toMatchObject({
      action: "request.reject",
      target: `request:${filed.data.pending_request.id}`,
    });
  });

  it("a deposit approved for another amount, or above the deposit maximum, waits; an approval that no longer holds changes nothing", async () => {
    const u = await user();
    const id = await deposit(u.token, "500");
    const filed = await s.post(`/admin/api/charges/${id}/approve`, { amount: "480" }, team.ann);
    expect(filed.data.pending_request).toMatchObject({
      kind: "charge.approve",
      summary: "received 480.00 of 500.00",
    });
    // Meanwhile another operator rejects the deposit: the approval can no longer hold.
    await s.post(`/admin/api/charges/${id}/reject`, { remark: "Proof unreadable" }, team.bob);
    const late = await decide("bob", filed.data.pending_request.id, "approve");
    expect(late.msg).toBe("This deposit has already been processed");
    // The decision that no longer holds is on record.
    expect((await s.get("/admin/api/audit?actor=bob", team.sue)).data.data[0]).toMatchObject({
      action: "request.refused",
      target: `request:${filed.data.pending_request.id}`,
      remark: "approve: deposit_already_decided",
    });
    expect(await balance(u.token)).toBe(0);
    const still = (await s.get("/admin/api/requests?status=0", team.sue)).data.data;
    expect(still.map((r: any) => r.id)).toContain(filed.data.pending_request.id);
    await decide("bob", filed.data.pending_request.id, "reject", "Deposit rejected meanwhile");

    // More than any deposit may be (deposit.max_usd, 1,000,000 by default), even if so declared.
    const big = await deposit(u.token, "900");
    const over = await s.post(
      `/admin/api/charges/${big}/approve`,
      { amount: "1000000.01" },
      team.ann,
    );
    expect(over.data.pending_request.summary).toBe(
      "received 1000000.01 of 900.00; above risk.deposit_four_eyes_usd 10000.00",
    );
    // The declared amount, within the maximum: at once.
    const plain = await deposit(u.token, "300");
    expect((await s.post(`/admin/api/charges/${plain}/approve`, {}, team.ann)).data).toMatchObject({
      status: 1,
      credited: 300,
    });
  });

  it("changing where users send money waits for another admin; hiding an entry does not", async () => {
    const channels = (await s.get("/admin/api/charge_channels", team.ada)).data as any[];
    const trc = channels.find((c) => c.protocol_code === "TRC20");
    const path = `/admin/api/charge_channels/${trc.id}`;
    const address = "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk";
    const filed = await s.post(path, { address }, team.ada);
    expect(filed.data.pending_request).toMatchObject({
      kind: "catalog",
      permission: "admin",
      target: `charge_channel:${trc.id}`,
      summary: `address: ${trc.address} -> ${address}`,
    });
    const now = (await s.get("/admin/api/charge_channels", team.ada)).data as any[];
    expect(now.find((c) => c.id === trc.id).address).toBe(trc.address);
    // A finance operator may not decide it; another admin may.
    expect((await decide("bob", filed.data.pending_request.id, "approve")).msg).toBe(
      "Your operator role does not allow this action",
    );
    const done = await decide("max", filed.data.pending_request.id, "approve");
    expect(done.data.result).toMatchObject({ id: trc.id, address });
    // Hiding takes effect at once; showing it again is a change to check.
    expect((await s.post(path, { enabled: "0" }, team.ada)).data).toMatchObject({ enabled: 0 });
    const show = await s.post(path, { enabled: "1" }, team.ada);
    expect(show.data.pending_request.summary).toBe("enabled: 0 -> 1");
    // A new channel is always a request, refused at once when it could never be made.
    const dup = await s.post(
      "/admin/api/charge_channels",
      { currency_code: "USDT", protocol_code: "TRC20", address, usd_price: "1" },
      team.ada,
    );
    expect(dup.msg).toBe("An entry with this currency and network already exists");
  });

  it("an old catalogue request cannot undo a later change: it keeps only its own fields and is refused once the entry changed", async () => {
    const channels = (await s.get("/admin/api/charge_channels", team.ada)).data as any[];
    const eth = channels.find((c) => c.currency_code === "ETH" && c.protocol_code === "ERC20");
    const path = `/admin/api/charge_channels/${eth.id}`;
    const address = "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063";
    // The console posts every field: only the address changes, and only it is filed.
    const every = { address, usd_price: String(eth.usd_price), sort: String(eth.sort) };
    const old = (await s.post(path, every, team.ada)).data.pending_request;
    expect(old.summary).toBe(`address: ${eth.address} -> ${address}`);
    // A later change of the price is approved first.
    const price = (
      await s.post(path, { ...every, address: eth.address, usd_price: "3300" }, team.max)
    ).data.pending_request;
    expect(price.summary).toBe(`usd_price: ${eth.usd_price} -> 3300`);
    await decide("ada", price.id, "approve");
    // The old request still reads as it would change the entry now...
    const listed = (await s.get("/admin/api/requests?status=0", team.sue)).data.data;
    expect(listed.find((r: any) => r.id === old.id).summary).toBe(
      `address: ${eth.address} -> ${address}`,
    );
    // ...but the entry changed since it was filed: refused, with the reason, and nothing undone.
    const late = await decide("max", old.id, "approve");
    expect(late.msg).toBe(
      "This entry has changed since the request was filed: reject the request and file the change again against the entry as it is now",
    );
    const now = ((await s.get("/admin/api/charge_channels", team.ada)).data as any[]).find(
      (c) => c.id === eth.id,
    );
    expect(now).toMatchObject({ address: eth.address, usd_price: "3300" });
    expect((await s.get("/admin/api/audit?actor=max", team.sue)).data.data[0]).toMatchObject({
      action: "request.refused",
      remark: "approve: catalog_changed_since",
    });
    // Filed again against today's entry, it takes effect and keeps the new price.
    const again = (await s.post(path, { ...every, usd_price: "3300" }, team.ada)).data
      .pending_request;
    expect(again.summary).toBe(`address: ${eth.address} -> ${address}`);
    await decide("max", again.id, "approve");
    const after = ((await s.get("/admin/api/charge_channels", team.ada)).data as any[]).find(
      (c) => c.id === eth.id,
    );
    expect(after).toMatchObject({ address, usd_price: "3300" });
  });

  it("an abuse limit or another security setting waits for another admin; a plain setting does not", async () => {
    const set = (key: string, value: string) =>
      s.post("/admin/api/settings", { key, value }, team.ada);
    expect((await set("trade.max_orders", "300")).data).toMatchObject({ value: "300" });
    for (const [key, value] of [
      ["limit.login_ip", "5/3600"],
      ["register.captcha", "1"],
      ["service_link", "https://support.example.com/chat"],
      ["risk.adjustment_four_eyes_usd", "100000"],
      // Every risk setting, the fee rule, the market's hours and quote age, the deposit maximum.
      ["risk.stop_out_pct", "40"],
      ["risk.margin_call_pct", "120"],
      ["risk.deposit_four_eyes_usd", "20000"],
      ["risk.withdrawal_four_eyes_usd", "20000"],
      ["risk.operator_daily_usd", "90000"],
      ["trade_fee_type", "2"],
      ["market.always_open", "0"],
      ["market.stale_after_s", "600"],
      ["deposit.max_usd", "2000000"],
    ]) {
      const filed = await set(key, value);
      expect(filed.data.pending_request, key).toMatchObject({
        kind: "setting",
        target: `setting:${key}`,
      });
    }
    // A value no rule accepts is refused at once, never filed.
    expect((await set("limit.login_ip", "lots")).data).toBeNull();
    const list = (await s.get("/admin/api/settings", team.sue)).data as any[];
    expect(list.find((x) => x.key === "risk.adjustment_four_eyes_usd").value).toBe("1000");
  });
});

/** A user's withdrawal of `usd` to a bound TRON address; its id. */
async function withdrawal(token: string, usd: string): Promise<number> {
  const cur = (await s.get("/api/account/draw_symbol_list?type=1", { token })).data[0];
  const m = await s.post(
    "/api/wallet/bind_draw_method",
    { type: 1, draw_id: cur.id, dc_address: "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk" },
    { token },
  );
  const d = await s.post(
    "/api/account/draw",
    { draw_currency_id: cur.id, number: usd, draw_method_id: m.data.id },
    { token },
  );
  expect(d.code, d.msg).toBe(1);
  return d.data.id as number;
}

/** A setting changed by one admin and approved by another. */
async function setRisk(key: string, value: string): Promise<void> {
  const filed = await s.post("/admin/api/settings", { key, value }, team.ada);
  expect((await decide("max", filed.data.pending_request.id, "approve")).code).toBe(1);
}

describe("money controls: nothing enters or leaves on one operator's word", () => {
  it("a deposit above risk.deposit_four_eyes_usd waits for a second operator, who sees the user, balance, amount and note", async () => {
    await member("cid", "finance");
    const u = await user();
    const id = await deposit(u.token, "10000.01");
    const filed = await s.post(
      `/admin/api/charges/${id}/approve`,
      { remark: "Wire 88 matched the statement" },
      team.cid,
    );
    expect(filed.data.pending_request).toMatchObject({
      kind: "charge.approve",
      summary: "above risk.deposit_four_eyes_usd 10000.00",
      note: "Wire 88 matched the statement",
      subject: { uid: u.uid, balance: "0.00", amount: "10000.01" },
    });
    expect(await balance(u.token)).toBe(0);
    await decide("bob", filed.data.pending_request.id, "approve");
    expect(await balance(u.token)).toBe(10000.01);
    // At the amount itself, one operator credits it.
    const at = await deposit(u.token, "10000");
    expect((await s.post(`/admin/api/charges/${at}/approve`, {}, team.cid)).data).toMatchObject({
      status: 1,
    });
  });

  it("who put money into an account today pays none of it out; a payout above risk.withdrawal_four_eyes_usd waits", async () => {
    await member("dot", "finance");
    await member("eve", "finance");
    const u = await user();
    const id = await deposit(u.token, "5000");
    await s.post(`/admin/api/charges/${id}/approve`, {}, team.dot);
    const small = await withdrawal(u.token, "200");
    // dot credited the deposit: refused, with 403 and an audit row.
    const self = await s.post(`/admin/api/draws/${small}/approve`, {}, team.dot);
    expect(self.msg).toBe(
      "You put money into this account today (a deposit credited or an adjustment booked): another operator pays out this withdrawal",
    );
    expect((await s.get("/admin/api/audit?actor=dot", team.sue)).data.data[0]).toMatchObject({
      action: "denied",
      target: "POST /admin/api/draws/:id/approve",
    });
    // So is who filed an adjustment another approved, and who approved it.
    const adj = await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "1500", remark: "Promotion" },
      team.eve,
    );
    await decide("ann", adj.data.pending_request.id, "approve");
    for (const who of ["eve", "ann"])
      expect((await s.post(`/admin/api/draws/${small}/approve`, {}, team[who])).msg, who).toMatch(
        /^You put money into this account today/,
      );
    // Anyone else pays a small withdrawal alone.
    await member("fay", "finance");
    expect((await s.post(`/admin/api/draws/${small}/approve`, {}, team.fay)).data).toMatchObject({
      status: 1,
    });
    // Above the withdrawal amount (lowered here to 1,000 USD by two admins): a second operator.
    await setRisk("risk.withdrawal_four_eyes_usd", "1000");
    try {
      const big = await withdrawal(u.token, "1000.01");
      const filed = await s.post(`/admin/api/draws/${big}/approve`, {}, team.fay);
      expect(filed.data.pending_request).toMatchObject({
        kind: "draw.approve",
        target: `draw:${big}`,
        summary: "above risk.withdrawal_four_eyes_usd 1000.00",
        subject: { uid: u.uid, amount: "1000.01" },
      });
      // Its approver may not be one who put money in today either.
      expect((await decide("dot", filed.data.pending_request.id, "approve")).msg).toMatch(
        /^You put money into this account today/,
      );
      const paid = await decide("cid", filed.data.pending_request.id, "approve");
      expect(paid.data).toMatchObject({ status: 1, decided_by: "cid" });
      expect(paid.data.result).toMatchObject({ id: big, status: 1 });
    } finally {
      await setRisk("risk.withdrawal_four_eyes_usd", "10000");
    }
  });

  it("an operator's running total of the day passes risk.operator_daily_usd: each further move waits", async () => {
    await member("gil", "finance");
    await setRisk("risk.operator_daily_usd", "1500");
    try {
      const u = await user();
      const one = await deposit(u.token, "1000");
      expect((await s.post(`/admin/api/charges/${one}/approve`, {}, team.gil)).data).toMatchObject({
        status: 1,
      });
      const two = await deposit(u.token, "500.01");
      const filed = await s.post(`/admin/api/charges/${two}/approve`, {}, team.gil);
      expect(filed.data.pending_request.summary).toBe(
        "gil's money moved alone today 1500.01, above risk.operator_daily_usd 1500.00",
      );
      // An adjustment counts toward it by its size, a debit too.
      const debit = await s.post(
        "/admin/api/adjustments",
        { uid: u.uid, amount: "-500.01", remark: "Reversal" },
        team.gil,
      );
      expect(debit.data.pending_request.summary).toBe(
        "-500.01 USD: gil's money moved alone today 1500.01, above risk.operator_daily_usd 1500.00",
      );
      // What a second operator approved counts toward nobody's: gil may still move 500 alone.
      await decide("bob", filed.data.pending_request.id, "approve");
      const three = await deposit(u.token, "500");
      expect(
        (await s.post(`/admin/api/charges/${three}/approve`, {}, team.gil)).data,
      ).toMatchObject({ status: 1 });
    } finally {
      await setRisk("risk.operator_daily_usd", "50000");
    }
  });

  it("a user's adjustments of the day add up: one split in parts needs the same second operator", async () => {
    await member("hal", "finance");
    await member("ivy", "finance");
    const u = await user();
    const adjust = (who: string, amount: string) =>
      s.post("/admin/api/adjustments", { uid: u.uid, amount, remark: "Rebate" }, team[who]);
    expect((await adjust("hal", "600")).data).toMatchObject({ action: "adjustment" });
    const second = await adjust("ivy", "400.01");
    expect(second.data.pending_request.summary).toBe(
      "+400.01 USD: the user's adjustments today 1000.01, above risk.adjustment_four_eyes_usd 1000.00",
    );
    expect(await balance(u.token)).toBe(600);
    expect((await adjust("ivy", "400")).data).toMatchObject({ action: "adjustment" });
    expect(await balance(u.token)).toBe(1000);
  });

  it("a role without the permission gets 403, and the attempt is on record", async () => {
    const u = await user();
    const filed = await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "5000", remark: "Goodwill" },
      team.ann,
    );
    const res = await fetch(
      `${s.base}/admin/api/requests/${filed.data.pending_request.id}/approve`,
      {
        method: "POST",
        headers: { ...team.sue.headers, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ remark: "Looks fine" }).toString(),
      },
    );
    expect(res.status).toBe(403);
    const log = (await s.get("/admin/api/audit?actor=sue", team.sue)).data.data;
    expect(log.slice(0, 2)).toMatchObject([
      { action: "denied", target: "POST /admin/api/requests/:id/approve" },
      {
        action: "request.refused",
        target: `request:${filed.data.pending_request.id}`,
        remark: "approve: operator_forbidden",
      },
    ]);
    expect(await balance(u.token)).toBe(0);
  });
});
