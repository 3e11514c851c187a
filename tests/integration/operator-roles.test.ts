/**
 * Operator roles over real HTTP (contract/operators.ts): every operator endpoint of the contract
 * answers 403 with a translated message to a signed-in role without its permission, and lets a role
 * with it through; a refused action changes nothing; a new role or a disabled account ends the
 * operator's sign-ins; each account change is audited; no operator may be named `token`.
 */
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as admin from "@contract/api/admin";
import * as company from "@contract/api/company";
import * as content from "@contract/api/content";
import * as dev from "@contract/api/dev";
import * as verify from "@contract/api/verify";
import type { EndpointDef } from "@contract/api/endpoint";
import { pathOf } from "@contract/api/endpoint";
import { CODE } from "@contract/envelope";
import { can, OPERATOR_ROLES, type OperatorRole } from "@contract/operators";
import {
  createOperator,
  currentCode,
  disableOperator,
  setOperatorRole,
} from "../../upstream/modules/operators/accounts.js";
import { loadSecretKey } from "../../upstream/platform/secret-box.js";
import { secretKeyDir } from "../../upstream/platform/config.js";
import { HARNESS_OPERATOR_TOKEN, startUpstream, type Server } from "./upstream-harness.js";
import sharp from "sharp";
import { loginEmail, registerEmail } from "./accounts-helpers.js";
import { nodeArgsFor } from "../support/node-bundle.js";

let s: Server;
const bearer: Partial<Record<OperatorRole, string>> = {};

/** Every operator endpoint the contract declares, with the permission it needs. */
const ENDPOINTS: EndpointDef[] = [admin, company, content, dev, verify]
  .flatMap((m) => Object.values(m) as unknown[])
  .filter((v): v is EndpointDef => !!v && typeof v === "object" && "operator" in v);

async function call(def: EndpointDef, token: string, body: Record<string, string> = {}) {
  const params = Object.fromEntries(
    (def.path.match(/:(\w+)/g) ?? []).map((p) => [p.slice(1), "1"]),
  );
  const res = await fetch(s.base + pathOf(def, params), {
    method: def.method,
    headers: {
      authorization: `Bearer ${token}`,
      lang: "de",
      ...(def.method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: def.method === "POST" ? new URLSearchParams(body).toString() : undefined,
  });
  const text = await res.text();
  let env: { code?: number; msg?: string } = {};
  try {
    env = JSON.parse(text) as typeof env;
  } catch {
    // An image or another body that is not the envelope.
  }
  return { status: res.status, code: env.code, msg: env.msg };
}

async function signedIn(name: string, role: OperatorRole): Promise<string> {
  const key = loadSecretKey(s.up.ctx.config.operatorSecretKey, secretKeyDir(s.up.ctx.config));
  const op = await createOperator(s.up.ctx.db, key, name, role);
  const r = await s.post("/admin/api/login", {
    name,
    password: op.password,
    code: await currentCode(op.secret),
  });
  expect(r.data, r.msg).toMatchObject({ name, role });
  return r.data.token as string;
}

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-roles-",
    manualFeed: true,
    config: { devOutbox: true, smtpUrl: null, marketFeed: "manual" },
  });
}, 60_000);

beforeEach(async () => {
  for (const role of OPERATOR_ROLES)
    bearer[role] = await signedIn(`r-${role}-${Math.random().toString(36).slice(2, 8)}`, role);
});

afterAll(async () => {
  await s?.close();
});

describe("operator roles", () => {
  it("every /admin/api/ endpoint but sign-in declares the permission it needs", () => {
    const operatorPaths = new Set(ENDPOINTS.map((d) => `${d.method} ${d.path}`));
    const adminDefs = [admin, company, content, verify]
      .flatMap((m) => Object.values(m) as unknown[])
      .filter(
        (v): v is EndpointDef =>
          !!v && typeof v === "object" && "path" in v && String(v.path).startsWith("/admin/api/"),
      );
    expect(adminDefs.length).toBeGreaterThan(30);
    for (const d of adminDefs)
      if (d.path !== admin.login.path)
        expect(operatorPaths.has(`${d.method} ${d.path}`), `${d.method} ${d.path}`).toBe(true);
  });

  it("answers 403 and a translated message to every role without the endpoint's permission, and lets the others through", async () => {
    expect(ENDPOINTS.length).toBeGreaterThan(30);
    // Signing out ends the token: last.
    const last = (d: EndpointDef) => (d.path === admin.logout.path ? 1 : 0);
    for (const def of [...ENDPOINTS].sort((a, b) => last(a) - last(b)))
      for (const role of OPERATOR_ROLES) {
        const r = await call(def, bearer[role]!);
        const where = `${role} ${def.method} ${def.path}`;
        if (can(role, def.operator!)) {
          expect(r.status, where).not.toBe(403);
          expect(r.status, where).not.toBe(401);
        } else {
          expect(r, where).toEqual({
            status: 403,
            code: CODE.FORBIDDEN,
            msg: "Ihre Betreiberrolle erlaubt diese Aktion nicht",
          });
        }
      }
  });

  it("opens an identity document only to roles that decide verifications, another upload to every reader", async () => {
    await registerEmail(s, "roles-docs@example.com");
    const userId = (
      s.up.ctx.db.prepare("SELECT id FROM users WHERE email = ?").get("roles-docs@example.com") as {
        id: number;
      }
    ).id;
    const png = (r: number) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: { r, g: 0, b: 0 } } })
        .png()
        .toBuffer();
    const [front, back, proof] = await Promise.all(
      [10, 20, 30].map(async (r) => (await s.up.ctx.uploads.store(userId, await png(r))).name),
    );
    s.up.ctx.db
      .prepare(
        `INSERT INTO real_name_requests (user_id, name, card_id, front_pic, reverse_pic, status, created_at)
         VALUES (?, 'Ada Lovelace', 'X1234567', ?, ?, 1, ?)`,
      )
      .run(userId, front, back, Date.now());
    const status = async (name: string, role: OperatorRole) =>
      (
        await fetch(`${s.base}/admin/api/uploads/${name}`, {
          headers: { authorization: `Bearer ${bearer[role]}` },
        })
      ).status;
    for (const role of OPERATOR_ROLES) {
      const expected = can(role, "support") ? 200 : 403;
      expect([role, await status(front, role), await status(back, role)]).toEqual([
        role,
        expected,
        expected,
      ]);
      expect([role, await status(proof, role)]).toEqual([role, 200]);
    }
  });

  it("OPERATOR_TOKEN acts as an admin named `token`", async () => {
    const r = await call(admin.settings, HARNESS_OPERATOR_TOKEN);
    expect(r.status).toBe(200);
    const seen = await s.post(
      "/admin/api/settings",
      { key: "trade.max_orders", value: "500" },
      { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } },
    );
    expect(seen.code).toBe(1);
    const log = await s.get("/admin/api/audit?actor=token", {
      headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` },
    });
    expect(log.data.data[0]).toMatchObject({ actor: "token", target: "setting:trade.max_orders" });
  });

  it("a refused adjustment books nothing; finance's goes through", async () => {
    const email = `roles-${process.pid}@example.com`;
    await registerEmail(s, email);
    const l = await loginEmail(s, email);
    const uid = String(l.data.user.uid);
    const balance = async () =>
      (await s.get("/v1/api/main/account/forexDetail", { token: l.data.token })).data
        .balance as number;
    const adjust = (role: OperatorRole) =>
      call(admin.adjustments, bearer[role]!, { uid, amount: "25", remark: "Goodwill" });
    for (const role of ["viewer", "support"] as const)
      expect((await adjust(role)).status).toBe(403);
    expect(await balance()).toBe(0);
    expect((await adjust("finance")).code).toBe(1);
    expect(await balance()).toBe(25);
  });

  it("a new role or a disabled account ends the operator's sign-ins, and each change is audited", async () => {
    const token = await signedIn("r-moving", "viewer");
    expect((await call(admin.charges, token)).status).toBe(200);
    expect(setOperatorRole(s.up.ctx.db, "r-moving", "finance")).toBe(true);
    expect(await call(admin.charges, token)).toMatchObject({
      status: 401,
      code: CODE.SESSION_INVALID,
    });
    const again = await signedIn("r-disabled", "support");
    expect(disableOperator(s.up.ctx.db, "r-disabled")).toBe(true);
    expect((await call(admin.charges, again)).status).toBe(401);
    expect(setOperatorRole(s.up.ctx.db, "r-disabled", "admin")).toBe(false);

    const log = await s.get("/admin/api/audit?actor=cli", {
      headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` },
    });
    const rows = (log.data.data as { action: string; target: string; remark: string | null }[])
      .filter((r) => r.target === "operator:r-moving" || r.target === "operator:r-disabled")
      .map((r) => [r.action, r.target, r.remark]);
    expect(rows).toEqual([
      ["operator.disable", "operator:r-disabled", null],
      ["operator.add", "operator:r-disabled", "role support"],
      ["operator.role", "operator:r-moving", "role viewer -> finance"],
      ["operator.add", "operator:r-moving", "role viewer"],
    ]);
  });

  it("the command line gives roles, refuses the name `token` and an unknown role", () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [...nodeArgsFor("operator"), ...args], {
        cwd: path.resolve(__dirname, "../.."),
        env: { ...process.env, ...s.store.env, DATA_DIR: s.dir },
        encoding: "utf8",
        timeout: 60_000,
      });
    const added = cli("add", "carol", "--role", "support");
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain("Operator carol (support) created");
    expect(cli("add", "dave").status).toBe(2);
    expect(cli("add", "dave", "--role", "root").status).toBe(2);
    const token = cli("add", "Token", "--role", "admin");
    expect(token.status).toBe(1);
    expect(token.stderr).toContain("OPERATOR_TOKEN");
    expect(cli("role", "carol", "finance").status).toBe(0);
    expect(cli("role", "nobody", "finance").status).toBe(1);
    expect(cli("list").stdout).toMatch(/^carol\tfinance\t.*\tactive$/m);
    expect(cli("disable", "carol").status).toBe(0);
    expect(cli("list").stdout).toMatch(/^carol\tfinance\t.*\tdisabled$/m);
    // Ten processes started one after the other, each a Node.js start and a store opened: about
    // 1-2 s each beside the rest of the suite, more under test:calendar's clock on a weekday.
  }, 120_000);
});
