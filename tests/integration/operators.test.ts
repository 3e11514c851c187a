/**
 * The operator API over real HTTP (upstream/API.md "Operators"): closed without OPERATOR_TOKEN and
 * to user tokens; the deposit and withdrawal queues with approve, reject and invalid; adjustments;
 * user lookup; proof images; every action in the audit log with the balance before and after; the
 * ledger check consistent afterwards.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { loadSecretKey, SECRET_KEY_FILE } from "../../upstream/platform/secret-box.js";
import { secretKeyDir } from "../../upstream/platform/config.js";
import { createOperator, currentCode } from "../../upstream/modules/operators/accounts.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLedger } from "../../upstream/modules/money/check.js";
import { loginEmail, registerEmail, type Server } from "./accounts-helpers.js";
import { asTeam, declareDeposit, startUpstream } from "./upstream-harness.js";
import { clearOfUtcMidnight } from "../support/wait.js";
import { nodeArgsFor } from "../support/node-bundle.js";

const OPERATOR = "op-test-token-0123456789abcdef-0123";
const TRON = "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk";
const op = { headers: { authorization: `Bearer ${OPERATOR}` } };
let s: Server;
let closed: Server;
let seq = 0;

beforeAll(async () => {
  // A deposit credited today keeps its operator from paying the user out today: never at midnight.
  await clearOfUtcMidnight();
  s = await startUpstream({
    tmpPrefix: "tp-op-",
    seededDeposits: "shown",
    config: {
      devOutbox: true,
      smtpUrl: null,
      simulate: false,
      operatorToken: OPERATOR,
      rateLimit: true,
    },
  });
  closed = await startUpstream({
    tmpPrefix: "tp-op-off-",
    config: { simulate: false, operatorToken: null },
  });
}, 160_000);

afterAll(async () => {
  await s?.close();
  await closed?.close();
});

async function realUser(): Promise<{ token: string; id: number; uid: string }> {
  const email = `op${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  const l = await loginEmail(s, email);
  return { token: l.data.token, id: Number(l.data.user.id), uid: String(l.data.user.uid) };
}

const deposit = (token: string, usd: string) => declareDeposit(s, token, usd);

const balance = async (token: string) =>
  (await s.get("/v1/api/main/account/forexDetail", { token })).data as {
    balance: number;
    lock_balance: number;
  };

describe("operator API", () => {
  it("is closed without OPERATOR_TOKEN, to user tokens and to no token", async () => {
    const off = await closed.get("/admin/api/charges", { headers: { authorization: "Bearer x" } });
    expect(off).toMatchObject({
      code: 999,
      msg: "Operator access is not configured on this server",
    });
    const user = await realUser();
    for (const auth of [user.token, `Bearer ${user.token}`, "Bearer wrong", ""]) {
      const res = await fetch(`${s.base}/admin/api/users`, {
        headers: auth ? { authorization: auth } : {},
      });
      expect(res.status, auth).toBe(401);
      expect(await res.json()).toMatchObject({ code: 999, msg: "Operator sign-in required" });
    }
    const unknown = await fetch(`${s.base}/admin/api/nothing-here`, op);
    expect(unknown.status).toBe(404);
  });

  it("approves, rejects and invalidates deposits, each in the audit log", async () => {
    const u = await realUser();
    const a = await deposit(u.token, "100");
    const b = await deposit(u.token, "50");
    const c = await deposit(u.token, "20");
    const queue = await s.get("/admin/api/charges?status=0", op);
    const mine = queue.data.data.filter((x: any) => x.user.id === u.id);
    expect(mine.map((x: any) => x.id)).toEqual([a, b, c]);
    expect(mine[0]).toMatchObject({ number: 100, status: 0, user: { uid: u.uid } });

    const proof = await fetch(s.base + mine[0].proof_url, op);
    expect(proof.headers.get("content-type")).toBe("image/jpeg");
    // Who looked at a user's proof is in the log.
    expect((await s.get("/admin/api/audit", op)).data.data[0]).toMatchObject({
      actor: "token",
      action: "upload.view",
      target: `upload:${mine[0].proof_url.split("/").pop()}`,
    });
    const asUser = await fetch(s.base + mine[0].proof_url, { headers: { authorization: u.token } });
    expect(asUser.status).toBe(401);

    // Another amount than declared: filed for a second operator, nothing credited yet.
    const filed = await s.post(`/admin/api/charges/${a}/approve`, { amount: "99.5" }, op);
    expect(filed.msg).toBe(
      `Sent to a second operator for approval (request ${filed.data.pending_request.id}); nothing has changed yet`,
    );
    expect(filed.data.pending_request).toMatchObject({
      kind: "charge.approve",
      permission: "money",
      target: `charge:${a}`,
      summary: "received 99.50 of 100.00",
      status: 0,
      requested_by: "token",
    });
    expect((await balance(u.token)).balance).toBe(0);
    const rid = filed.data.pending_request.id as number;
    // Not by the operator who asked (OPERATOR_TOKEN included).
    const own = await s.post(`/admin/api/requests/${rid}/approve`, { remark: "fine" }, op);
    expect(own.msg).toBe("You cannot approve or reject your own request");
    expect((await balance(u.token)).balance).toBe(0);
    const approved = (await s.approve(rid)) as any;
    expect(approved).toMatchObject({ status: 1, decided_by: "harness-approver" });
    expect(approved.result).toMatchObject({
      status: 1,
      credited: 99.5,
      decided_by: "harness-approver",
    });
    expect((await balance(u.token)).balance).toBe(99.5);
    expect((await s.post(`/admin/api/requests/${rid}/reject`, { remark: "late" }, op)).msg).toBe(
      "This request has already been decided",
    );
    const again = await s.post(`/admin/api/charges/${a}/approve`, {}, op);
    expect(again.msg).toBe("This deposit has already been processed");

    expect((await s.post(`/admin/api/charges/${b}/reject`, { remark: " " }, op)).msg).toBe(
      "Please give a reason",
    );
    await s.post(
      `/admin/api/charges/${b}/reject`,
      { remark: "The name on the transfer differs" },
      op,
    );
    await s.post(`/admin/api/charges/${c}/invalid`, { remark: "Duplicate" }, op);
    const seen = await s.get("/api/quickCharge/quick_ist?type=0", { token: u.token });
    expect(seen.data.data.map((x: any) => [x.id, x.status, x.remark])).toEqual([
      [c, 3, "Duplicate"],
      [b, 2, "The name on the transfer differs"],
      [a, 1, null],
    ]);
    expect((await balance(u.token)).balance).toBe(99.5);

    const log = await s.get("/admin/api/audit", op);
    const targets = [`charge:${a}`, `charge:${b}`, `charge:${c}`, `request:${rid}`];
    expect(
      log.data.data
        .filter((r: any) => targets.includes(r.target))
        .map((r: any) => [r.actor, r.action, r.target, r.balance_before, r.balance_after]),
    ).toEqual([
      ["token", "charge.invalid", `charge:${c}`, 99.5, 99.5],
      ["token", "charge.reject", `charge:${b}`, 99.5, 99.5],
      // A refused decision leaves its row: the late reject, and the filer's own approval.
      ["token", "request.refused", `request:${rid}`, null, null],
      ["harness-approver", "request.approve", `request:${rid}`, null, null],
      ["harness-approver", "charge.approve", `charge:${a}`, 0, 99.5],
      ["token", "request.refused", `request:${rid}`, null, null],
      ["token", "request.create", `request:${rid}`, null, null],
    ]);
    expect(
      log.data.data
        .filter((r: any) => r.action === "request.refused" && r.target === `request:${rid}`)
        .map((r: any) => r.remark),
    ).toEqual(["reject: request_decided", "approve: request_own"]);
    expect(log.data.data.find((r: any) => r.action === "charge.approve")).toMatchObject({
      amount: 99.5,
      remark: "received 99.50 of 100.00",
    });
  });

  it("pays or rejects withdrawals, books adjustments, finds users; the ledger stays consistent", async () => {
    const u = await realUser();
    const dep = await deposit(u.token, "500");
    await s.post(`/admin/api/charges/${dep}/approve`, {}, op);
    const cur = (await s.get("/api/account/draw_symbol_list?type=1", { token: u.token })).data[0];
    const m = await s.post(
      "/api/wallet/bind_draw_method",
      { type: 1, draw_id: cur.id, dc_address: TRON },
      { token: u.token },
    );
    const draw = (n: string) =>
      s.post(
        "/api/account/draw",
        { draw_currency_id: cur.id, number: n, draw_method_id: m.data.id },
        { token: u.token },
      );
    const d1 = (await draw("100")).data.id;
    const d2 = (await draw("200")).data.id;
    expect(await balance(u.token)).toMatchObject({ balance: 200, lock_balance: 300 });
    const queue = await s.get("/admin/api/draws", op);
    expect(queue.data.data.filter((x: any) => x.user.id === u.id).map((x: any) => x.id)).toEqual([
      d1,
      d2,
    ]);

    // Who credited this user's deposit today does not also pay them out.
    const self = await fetch(`${s.base}/admin/api/draws/${d1}/approve`, {
      method: "POST",
      headers: { ...op.headers, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(self.status).toBe(403);
    expect(((await self.json()) as { msg: string }).msg).toBe(
      "You put money into this account today (a deposit credited or an adjustment booked): another operator pays out this withdrawal",
    );
    expect(await balance(u.token)).toMatchObject({ balance: 200, lock_balance: 300 });
    expect((await s.asApprover(`/admin/api/draws/${d1}/approve`)).data).toMatchObject({
      status: 1,
    });
    expect(await balance(u.token)).toMatchObject({ balance: 200, lock_balance: 200 });
    // Paying moves the held amount, not the balance: the audit row says so.
    expect((await s.get("/admin/api/audit", op)).data.data[0]).toMatchObject({
      action: "draw.approve",
      balance_before: 200,
      balance_after: 200,
      remark: "lock_balance 300.00 -> 200.00",
    });
    const rejected = await s.post(
      `/admin/api/draws/${d2}/reject`,
      { remark: "Address flagged" },
      op,
    );
    expect(rejected.data).toMatchObject({ status: 2, remark: "Address flagged" });
    expect(await balance(u.token)).toMatchObject({ balance: 400, lock_balance: 0 });
    const userSees = await s.get("/api/account/draw_list?type=1", { token: u.token });
    expect(userSees.data.data[0]).toMatchObject({ id: d2, remark: "Address flagged" });

    const plus = await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "12.34", remark: "Goodwill" },
      op,
    );
    expect(plus.data).toMatchObject({
      action: "adjustment",
      amount: 12.34,
      balance_before: 400,
      balance_after: 412.34,
    });
    const tooMuch = await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "-1000", remark: "x" },
      op,
    );
    expect(tooMuch.msg).toBe("Insufficient balance");
    const minus = await s.post(
      "/admin/api/adjustments",
      { uid: u.uid, amount: "-2.34", remark: "Fee correction" },
      op,
    );
    expect(minus.data.balance_after).toBe(410);
    expect(
      (await s.post("/admin/api/adjustments", { uid: "nobody", amount: "1", remark: "x" }, op))
        .code,
    ).toBe(404);

    const found = await s.get(`/admin/api/users?q=${encodeURIComponent(u.uid)}`, op);
    expect(found.data).toEqual([
      expect.objectContaining({
        id: u.id,
        balance: 410,
        lock_balance: 0,
        equity: 410,
        used_margin: 0,
      }),
    ]);
    const ledger = await s.get("/v1/api/main/accountLog/forexChange", { token: u.token });
    expect(ledger.data.data.slice(0, 2).map((r: any) => [r.MemoTran, r.Value])).toEqual([
      ["Adjustment", -2.34],
      ["Adjustment", 12.34],
    ]);
    const opLedger = await s.get(`/admin/api/users/${u.uid}/ledger?page=1`, op);
    expect(opLedger.data.total).toBe(ledger.data.total);
    expect(
      opLedger.data.data
        .slice(0, 3)
        .map((r: any) => [r.kind, r.kind_name, r.amount, r.balance_after]),
    ).toEqual([
      ["adjustment", "Adjustment", -2.34, 410],
      ["adjustment", "Adjustment", 12.34, 412.34],
      ["withdrawal_returned", ledger.data.data[2].MemoTran, 200, 400],
    ]);
    const page2 = await s.get(`/admin/api/users/${u.uid}/ledger?page=2`, op);
    expect(page2.data).toEqual({ data: [], total: opLedger.data.total });
    const missing = await fetch(`${s.base}/admin/api/users/nobody/ledger`, op);
    expect(missing.status).toBe(404);
    const badPage = await s.get(`/admin/api/users/${u.uid}/ledger?page=x`, op);
    expect(badPage.code).not.toBe(1);
    const asUser = await fetch(`${s.base}/admin/api/users/${u.uid}/ledger`, {
      headers: { authorization: u.token },
    });
    expect(asUser.status).toBe(401);
    expect(checkLedger(s.up.ctx.db).findings).toEqual([]);
  });

  /** The operator command (`npm run operator`), run as an operator runs it: a process of its own. */
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [...nodeArgsFor("operator"), ...args], {
      cwd: path.resolve(__dirname, "../.."),
      env: { ...process.env, ...s.store.env },
      encoding: "utf8",
      timeout: 60_000,
    });
  /**
   * The tests that start the operator command: each start is a Node process that loads the
   * upstream's bundle and opens the store, 1–4 s on a busy 2-core machine (the full lane runs four
   * integration files beside the PostgreSQL reruns), and each sign-in checks an argon2 hash. Their
   * bound is the work they do, not 20 s: one of them took 25 s in a full-lane run (2026-12-02).
   */
  const CLI_TEST_MS = 60_000;

  it(
    "signs an operator in with password and a one-time code, once per code, each step audited",
    { timeout: CLI_TEST_MS },
    async () => {
      const added = cli("add", "alice", "--role", "finance");
      expect(added.status).toBe(0);
      const password = /Password \(shown once\): (\S+)/.exec(added.stdout)?.[1] ?? "";
      const secret =
        /otpauth:\/\/totp\/Tradepost:alice\?secret=([A-Z2-7]+)/.exec(added.stdout)?.[1] ?? "";
      expect(password.length).toBeGreaterThanOrEqual(20);
      expect(secret).not.toBe("");
      expect(cli("add", "alice", "--role", "finance").status).toBe(1);
      // The secret is stored sealed, with OPERATOR_SECRET_KEY (always set on PostgreSQL), else with
      // a key kept beside the database (mode 600).
      const stored = s.up.ctx.db
        .prepare("SELECT totp_secret FROM operators WHERE name = 'alice'")
        .get() as { totp_secret: string };
      expect(stored.totp_secret).toMatch(/^v1\./);
      expect(stored.totp_secret).not.toContain(secret);
      const keyFile = path.join(s.dir, SECRET_KEY_FILE);
      if (s.up.ctx.config.operatorSecretKey) expect(fs.existsSync(keyFile)).toBe(false);
      else expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);

      const login = (body: Record<string, string>) => s.post("/admin/api/login", body);
      const wrong = await login({ name: "alice", password, code: "000000" });
      expect(wrong).toMatchObject({ code: 0, msg: "Wrong name, password or code", data: null });
      const code = await currentCode(secret);
      const ok = await login({ name: "alice", password, code });
      expect(ok.data).toMatchObject({ name: "alice" });
      const bearer = { headers: { authorization: `Bearer ${ok.data.token}` } };
      expect((await s.get("/admin/api/users", bearer)).code).toBe(1);
      // The same code is accepted once.
      expect((await login({ name: "alice", password, code })).msg).toBe(
        "Wrong name, password or code",
      );

      const u = await realUser();
      const adj = await s.post(
        "/admin/api/adjustments",
        { uid: u.uid, amount: "5", remark: "Welcome" },
        bearer,
      );
      expect(adj.data).toMatchObject({ actor: "alice", action: "adjustment" });
      // The log narrowed to one actor: alice's sign-ins, failed and good, and her adjustment, newest
      // first, nobody else's.
      const hers = await s.get("/admin/api/audit?actor=alice", op);
      expect(hers.data.total).toBe(4);
      expect(hers.data.data.map((r: any) => [r.actor, r.action])).toEqual([
        ["alice", "adjustment"],
        ["alice", "operator.login_failed"], // the code used again
        ["alice", "operator.login"],
        ["alice", "operator.login_failed"], // a wrong code
      ]);
      expect((await s.get("/admin/api/audit?actor=nobody", op)).data).toEqual({
        data: [],
        total: 0,
      });
      expect((await s.get("/admin/api/audit", op)).data.total).toBeGreaterThan(2);
      expect((await s.post("/admin/api/logout", {}, bearer)).code).toBe(1);
      expect((await s.get("/admin/api/users", bearer)).code).toBe(999);
      expect((await s.get("/admin/api/audit?actor=alice", op)).data.data[0]).toMatchObject({
        action: "operator.logout",
        target: "operator:alice",
      });
    },
  );

  it(
    "locks a name after five wrong tries, even for the right password and code; a disabled operator is listed so",
    { timeout: CLI_TEST_MS },
    async () => {
      const login = (body: Record<string, string>) => s.post("/admin/api/login", body);
      const added2 = cli("add", "bob", "--role", "viewer");
      const pw2 = /Password \(shown once\): (\S+)/.exec(added2.stdout)![1];
      const secret2 = /secret=([A-Z2-7]+)/.exec(added2.stdout)![1];
      for (let i = 0; i < 5; i++) await login({ name: "bob", password: "nope", code: "123456" });
      const locked = await fetch(`${s.base}/admin/api/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ name: "bob", password: pw2, code: await currentCode(secret2) }),
      });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);

      expect(cli("disable", "bob").status).toBe(0);
      expect(cli("list").stdout).toMatch(/bob\t.*\tdisabled/);
    },
  );

  it("takes a code once even from two sign-ins at the same moment; a success clears the name's failed tries", async () => {
    const key = loadSecretKey(s.up.ctx.config.operatorSecretKey, secretKeyDir(s.up.ctx.config));
    const login = (name: string, password: string, code: string) =>
      fetch(`${s.base}/admin/api/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ name, password, code }),
      }).then(async (r) => ({ status: r.status, ...((await r.json()) as { code: number }) }));

    // Two sign-ins with one code at the same moment: exactly one is let in.
    const fay = await createOperator(s.up.ctx.db, key, "fay", "viewer");
    const code = await currentCode(fay.secret);
    const both = await Promise.all([
      login("fay", fay.password, code),
      login("fay", fay.password, code),
    ]);
    expect(both.map((r) => r.code).sort()).toEqual([0, 1]);

    // The tries before a success are forgotten: five more may fail before the lock. (Sequential,
    // so that no refused try can be counted after the success.)
    const erin = await createOperator(s.up.ctx.db, key, "erin", "viewer");
    for (let i = 0; i < 3; i++) expect((await login("erin", "wrong", "123456")).status).toBe(401);
    expect((await login("erin", erin.password, await currentCode(erin.secret))).code).toBe(1);
    for (let i = 0; i < 5; i++) expect((await login("erin", "wrong", "123456")).status).toBe(401);
    expect((await login("erin", "wrong", "123456")).status).toBe(429);
  });

  it("books an adjustment once per idempotency key; the key with another body is refused", async () => {
    const u = await realUser();
    const key = { headers: { ...op.headers, "Idempotency-Key": `adj-${u.uid}-0001` } };
    const body = { uid: u.uid, amount: "40", remark: "Goodwill" };
    const first = await s.post("/admin/api/adjustments", body, key);
    expect(first.code, first.msg).toBe(1);
    // A double click, a resubmitted form, a retried time-out: the first answer, nothing booked.
    const again = await Promise.all([1, 2].map(() => s.post("/admin/api/adjustments", body, key)));
    for (const a of again) expect(a.data).toEqual(first.data);
    expect((await balance(u.token)).balance).toBe(40);
    const other = await fetch(`${s.base}/admin/api/adjustments`, {
      method: "POST",
      headers: { ...key.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...body, amount: "41" }).toString(),
    });
    expect(other.status).toBe(422);
    expect((await balance(u.token)).balance).toBe(40);
    const rows = await s.get(`/admin/api/users/${u.uid}/ledger`, op);
    expect(rows.data.data.filter((r: any) => r.kind === "adjustment")).toHaveLength(1);
    // An amount beyond any adjustment is the field's refusal, never an error.
    const huge = await s.post("/admin/api/adjustments", { ...body, amount: "123456789012345" }, op);
    expect(huge).toMatchObject({ code: 0, msg: "Invalid value: amount" });
  });

  it("a withdrawal keeps the currency, network, price and destination it was requested with", async () => {
    const u = await realUser();
    const dep = await deposit(u.token, "300");
    await s.post(`/admin/api/charges/${dep}/approve`, {}, op);
    const coin = await asTeam(
      s,
      s.post(
        "/admin/api/draw_currencies",
        {
          type: "1",
          code: "USDT",
          protocol: "BEP20",
          draw_rate: "0",
          fee_type: "1",
          usd_price: "1",
          min: "10",
          max: "1000",
          enabled: "1",
        },
        op,
      ),
    );
    expect(coin.code, coin.msg).toBe(1);
    const address = "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063";
    const m = await s.post(
      "/api/wallet/bind_draw_method",
      { type: 1, draw_id: coin.data.id, dc_address: address },
      { token: u.token },
    );
    expect(m.code, m.msg).toBe(1);
    const d = await s.post(
      "/api/account/draw",
      { draw_currency_id: coin.data.id, number: "99", draw_method_id: m.data.id },
      { token: u.token },
    );
    expect(d.code, d.msg).toBe(1);
    const asked = { code: "USDT", protocol: "BEP20" };

    // The catalogue changes under the request: another code, network and price.
    const edit = await asTeam(
      s,
      s.post(
        `/admin/api/draw_currencies/${coin.data.id}`,
        { code: "WBTC", protocol: "ERC20", usd_price: "0.0000153846" },
        op,
      ),
    );
    expect(edit.code, edit.msg).toBe(1);
    const queued = (await s.get("/admin/api/draws", op)).data.data.find(
      (x: any) => x.id === d.data.id,
    );
    expect(queued).toMatchObject({
      currency: asked,
      number: 99,
      real_number: d.data.real_number,
      address,
    });
    expect(d.data.real_number).toBe("99.00000000");
    const seen = (await s.get("/api/account/draw_list?type=1", { token: u.token })).data.data[0];
    expect(seen).toMatchObject({
      id: d.data.id,
      draw_currency: asked,
      real_number: "99.00000000",
      address,
    });
    // Paid as requested.
    const paid = await s.asApprover(`/admin/api/draws/${d.data.id}/approve`);
    expect(paid.data).toMatchObject({ status: 1, currency: asked, address });
  });

  it("changes settings only to values their key accepts, each change audited", async () => {
    const list = await s.get("/admin/api/settings", op);
    const byKey = new Map(list.data.map((x: any) => [x.key, x.value]));
    expect(byKey.get("deposit.min_usd")).toBe("10");
    expect(byKey.get("risk.stop_out_pct")).toBe("50");
    expect(byKey.has("limit.login_account_ip")).toBe(true);

    const set = (key: string, value: string, lang = "en") =>
      s.post("/admin/api/settings", { key, value }, { ...op, lang });
    expect((await set("no.such", "1")).msg).toBe("There is no setting named no.such");
    // Names of the registry object's prototype are no settings either (never a 500).
    for (const name of ["constructor", "__proto__", "toString"])
      expect((await set(name, "1")).msg).toBe(`There is no setting named ${name}`);
    expect((await set("trade.max_orders", "0", "de")).msg).toBe(
      "trade.max_orders muss eine ganze Zahl von 1 bis 10000 sein",
    );
    expect((await set("risk.stop_out_pct", "120")).msg).toBe(
      "The margin call level must stay above the stop-out level",
    );
    expect((await set("deposit.min_usd", "-5")).msg).toBe(
      "deposit.min_usd must be a number greater than 0",
    );
    expect((await set("limit.demo_ip", "lots")).code).toBe(0);
    expect((await s.get("/admin/api/settings", op)).data).toEqual(list.data);

    // A plain setting takes effect at once.
    expect((await set("trade.max_orders", "400")).data).toMatchObject({
      key: "trade.max_orders",
      value: "400",
    });
    expect((await s.get("/admin/api/audit", op)).data.data[0]).toMatchObject({
      action: "setting",
      target: "setting:trade.max_orders",
      actor: "token",
    });
    // A deposit bound waits for a second operator: filed with what would change, nothing set yet.
    const u = await realUser();
    const filed = await set("deposit.min_usd", "25");
    expect(filed.data.pending_request).toMatchObject({
      kind: "setting",
      permission: "admin",
      target: "setting:deposit.min_usd",
      summary: "10 -> 25",
    });
    expect((await s.get("/api/quickCharge/info", { token: u.token })).data.min).toBe(10);
    await s.approve(filed.data.pending_request.id);
    expect((await s.get("/api/quickCharge/info", { token: u.token })).data.min).toBe(25);
    const log = await s.get("/admin/api/audit", op);
    expect(log.data.data[1]).toMatchObject({
      action: "setting",
      target: "setting:deposit.min_usd",
      remark: "10 -> 25",
      actor: "harness-approver",
    });
    await asTeam(s, set("deposit.min_usd", "10"));
    await set("trade.max_orders", "500");
  });
  it("keeps the money catalogue: channels, wire accounts and withdrawal currencies, checked and audited", async () => {
    const u = await realUser();
    const user = { token: u.token };
    // Each change as a team makes it: filed, then approved by a second operator.
    const post = (path: string, body: Record<string, string>, lang = "en") =>
      asTeam(s, s.post(path, body, { ...op, lang }));

    // A coin channel: its address must fit its network; users see it at once.
    expect(
      (
        await post("/admin/api/charge_channels", {
          currency_code: "usdt",
          protocol_code: "bep20",
          address: TRON,
          usd_price: "1",
        })
      ).msg,
    ).toBe("This is not a valid BEP20 address");
    const added = await post("/admin/api/charge_channels", {
      currency_code: "usdt",
      protocol_code: "bep20",
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
      usd_price: "1.0005",
      sort: "9",
    });
    expect(added.data).toMatchObject({
      currency_code: "USDT",
      protocol_code: "BEP20",
      usd_price: "1.0005",
      enabled: 1,
    });
    const info = async () =>
      (await s.get("/api/quickCharge/info", user)).data.channels as { id: number }[];
    expect((await info()).map((c) => c.id)).toContain(added.data.id);
    const again = await post("/admin/api/charge_channels", {
      currency_code: "USDT",
      protocol_code: "BEP20",
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
      usd_price: "1",
    });
    expect(again.msg).toBe("An entry with this currency and network already exists");

    // Changing one field checks the whole entry again; hiding takes it off the users' list.
    const path = `/admin/api/charge_channels/${added.data.id}`;
    expect((await post(path, { protocol_code: "TRC20" }, "de")).msg).toBe(
      "Dies ist keine gültige Adresse im Netzwerk TRC20",
    );
    expect((await post(path, { enabled: "0" })).data.enabled).toBe(0);
    expect((await info()).map((c) => c.id)).not.toContain(added.data.id);
    expect((await post("/admin/api/charge_channels/999999", { enabled: "1" })).code).not.toBe(1);

    // A wire account: SWIFT checked, remark optional.
    expect(
      (
        await post("/admin/api/wire_accounts", {
          bank_coin: "EUR",
          bank_name: "Example Bank",
          bank_address: "1 Main St",
          bank_swift: "bad",
          payee_name: "Tradepost Ltd",
          payee_account: "DE89370400440532013000",
        })
      ).msg,
    ).toBe("Please enter a valid SWIFT/BIC code (8 or 11 characters)");
    const wire = await post("/admin/api/wire_accounts", {
      bank_coin: "EUR",
      bank_name: "Example Bank",
      bank_address: "1 Main St",
      bank_swift: "deutdeff",
      payee_name: "Tradepost Ltd",
      payee_account: "DE89370400440532013000",
    });
    expect(wire.data).toMatchObject({ bank_swift: "DEUTDEFF", bank_remark: "", enabled: 1 });
    const wires = (await s.get("/api/quickCharge/wire_info?bank_coin=EUR", user)).data as {
      id: number;
    }[];
    expect(wires.map((w) => w.id)).toEqual([wire.data.id]);

    // A withdrawal currency: a rate below 1, min not above max, a network for coins only.
    const coin = {
      type: "1",
      code: "USDC",
      protocol: "ERC20",
      draw_rate: "0.01",
      fee_type: "2",
      usd_price: "1",
      min: "20",
      max: "5000",
    };
    expect((await post("/admin/api/draw_currencies", { ...coin, draw_rate: "1.5" })).msg).toBe(
      "A fee rate is a share of the amount and must be below 1 (0.01 is 1%)",
    );
    expect((await post("/admin/api/draw_currencies", { ...coin, min: "9000" })).msg).toBe(
      "The minimum must not be above the maximum",
    );
    expect((await post("/admin/api/draw_currencies", { ...coin, protocol: "" })).msg).toBe(
      "Invalid value: protocol",
    );
    expect((await post("/admin/api/draw_currencies", { ...coin, fee_type: "7" })).msg).toBe(
      "Invalid value: fee_type",
    );
    const cur = await post("/admin/api/draw_currencies", coin);
    expect(cur.data).toMatchObject({
      type: 1,
      code: "USDC",
      min: 20,
      max: 5000,
      draw_rate: "0.01",
    });
    const symbols = async () =>
      (await s.get("/api/account/draw_symbol_list?type=1", user)).data as {
        id: number;
        min: number;
      }[];
    expect((await symbols()).find((c) => c.id === cur.data.id)?.min).toBe(20);
    const curPath = `/admin/api/draw_currencies/${cur.data.id}`;
    expect((await post(curPath, { type: "2" })).msg).toBe("Invalid value: type");
    expect((await post(curPath, { min: "50" })).data.min).toBe(50);
    expect((await symbols()).find((c) => c.id === cur.data.id)?.min).toBe(50);

    // Lists carry hidden entries too; every change is in the audit log with what changed.
    const channels = (await s.get("/admin/api/charge_channels", op)).data as { id: number }[];
    expect(channels.map((c) => c.id)).toContain(added.data.id);
    const log = (await s.get("/admin/api/audit", op)).data.data as {
      action: string;
      remark: string;
    }[];
    // The change itself (by the approver), then its approval.
    expect(log[0]).toMatchObject({ action: "request.approve", actor: "harness-approver" });
    expect(log[1]).toMatchObject({
      action: "draw_currency.update",
      actor: "harness-approver",
      remark: "min_micro: 20000000 -> 50000000",
    });
    expect(log.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        "charge_channel.add",
        "charge_channel.update",
        "wire_account.add",
        "draw_currency.add",
      ]),
    );

    // Closed to users.
    expect((await s.post("/admin/api/charge_channels", { currency_code: "X" }, user)).code).toBe(
      999,
    );
  });
});
