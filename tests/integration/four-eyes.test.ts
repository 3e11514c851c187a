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
}, 60_000);

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
      summary: "+1000.01 USD, Compensation",
      requested_by: "ann",
      status: 0,
    });
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
    await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "900", remark: "Start" },
      team.ann,
    );
    const filed = await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "-1500", remark: "Chargeback" },
      team.ann,
    );
    expect(filed.data.pending_request.summary).toBe("-1500.00 USD, Chargeback");
    const rejected = await decide("bob", filed.data.pending_request.id, "reject", "Not ours");
    expect(rejected.data).toMatchObject({ status: 2, remark: "Not ours", result: null });
    expect(await balance(u.token)).toBe(900);
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
    expect(over.data.pending_request.summary).toBe("received 1000000.01 of 900.00");
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

  it("an abuse limit or another security setting waits for another admin; a plain setting does not", async () => {
    const set = (key: string, value: string) =>
      s.post("/admin/api/settings", { key, value }, team.ada);
    expect((await set("trade.max_orders", "300")).data).toMatchObject({ value: "300" });
    for (const [key, value] of [
      ["limit.login_ip", "5/3600"],
      ["register.captcha", "1"],
      ["service_link", "https://support.example.com/chat"],
      ["risk.adjustment_four_eyes_usd", "100000"],
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
