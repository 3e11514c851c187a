/**
 * Property fuzz of every upstream endpoint of the contract (contract/api/*.ts): random and hostile
 * values (fuzz-values.ts) in the query, a form or a JSON body, signed in as a funded real account,
 * as a demo account (operator paths: with the operator token) or not at all, with hostile
 * Idempotency-Key and lang headers. Never an HTTP 5xx nor an INTERNAL envelope; always a valid
 * envelope; and a refused call (any code but OK) leaves the users' balances and secrets, the
 * orders, the ledger, the money tables (deposits, withdrawals, destinations, the catalogue,
 * uploads), the audit log, the settings, the idempotency keys and the tokens exactly as they were.
 * PROPERTY_SEED replays a run (the seed is printed).
 */
import fc from "fast-check";
import path from "node:path";
import { openStoreReadOnly, type DB } from "../../upstream/platform/db.js";
import { testDialect } from "../support/test-store.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import * as adminApi from "@contract/api/admin";
import * as chartApi from "@contract/api/chart";
import * as alertsApi from "@contract/api/alerts";
import * as commonApi from "@contract/api/common";
import * as companyApi from "@contract/api/company";
import * as contentApi from "@contract/api/content";
import * as copyApi from "@contract/api/copy";
import * as devApi from "@contract/api/dev";
import * as followApi from "@contract/api/follow";
import * as financeApi from "@contract/api/finance";
import * as identityApi from "@contract/api/identity";
import * as marketApi from "@contract/api/market";
import * as notifyApi from "@contract/api/notify";
import * as profileApi from "@contract/api/profile";
import * as securityApi from "@contract/api/security";
import * as settingsApi from "@contract/api/settings";
import * as statementsApi from "@contract/api/statements";
import * as tradingApi from "@contract/api/trading";
import * as verifyApi from "@contract/api/verify";
import * as watchlistsApi from "@contract/api/watchlists";
import type { EndpointDef } from "@contract/api/endpoint";
import { CODE } from "@contract/envelope";
import { asTeam, HARNESS_OPERATOR_TOKEN, startUpstream, type Server } from "./upstream-harness.js";
import { loginEmail, registerEmail } from "./accounts-helpers.js";
import { SEED, assertOptions, fieldsFor, formText, scalar } from "./fuzz-values.js";
import { byLane } from "../support/lane.js";

/** Every module of contract/api/ (a test below holds this list complete). */
const MODULES: Record<string, object> = {
  admin: adminApi,
  alerts: alertsApi,
  chart: chartApi,
  common: commonApi,
  company: companyApi,
  content: contentApi,
  dev: devApi,
  follow: followApi,
  copy: copyApi,
  finance: financeApi,
  identity: identityApi,
  market: marketApi,
  notify: notifyApi,
  profile: profileApi,
  security: securityApi,
  settings: settingsApi,
  statements: statementsApi,
  trading: tradingApi,
  verify: verifyApi,
  watchlists: watchlistsApi,
};
const ENDPOINTS: EndpointDef[] = Object.values(MODULES)
  .flatMap((m) => Object.values(m) as unknown[])
  .filter(
    (v): v is EndpointDef =>
      !!v && typeof v === "object" && "method" in v && "path" in v && "summary" in v,
  );
const CODES = new Set<number>(Object.values(CODE));

/**
 * Runs per endpoint (FUZZ_RUNS overrides): 6 from a fixed seed in `npm test`, each reaching every
 * endpoint with hostile values of several kinds; in the full lane 60 on SQLite and 20 on
 * PostgreSQL (where each run reads the snapshot's 23 tables once or twice, each read a round trip
 * of about 0.4 ms against SQLite's 0.02 ms in process), from a new seed each time, so the values
 * reached add up across full runs.
 */
const RUNS = Number(
  process.env.FUZZ_RUNS || (testDialect() === "postgres" ? byLane(6, 20) : byLane(6, 60)),
);

let s: Server;
let db: DB;
/**
 * The snapshot after the last run, when that run was refused (so it equals the one before it): the
 * next run's "before", as nothing else writes these tables between two runs. Null after a success.
 */
let unchanged: string | null = null;
/** The funded real account's token, and the demo account's. */
let token = "";
let demoToken = "";
let demoId = "";
const EMAIL = `fuzz-${process.pid}@example.com`;

/** The rows a refused call must leave alone. */
function snapshot(): string {
  const q = (sql: string) => JSON.stringify(db.prepare(sql).all());
  return [
    q(
      "SELECT id, email, mobile, area_id, password_hash, is_demo, demo_id, balance_micro, lock_balance_micro FROM users ORDER BY id",
    ),
    q("SELECT * FROM orders ORDER BY id"),
    q("SELECT * FROM ledger ORDER BY id"),
    q("SELECT user_id, key, route, request_hash, response FROM idempotency ORDER BY user_id, key"),
    q("SELECT token_hash, user_id, expires_at, revoked_at FROM tokens ORDER BY token_hash"),
    // A refused operator sign-in is recorded on purpose (who tried which name, from where).
    q("SELECT * FROM audit WHERE action <> 'operator.login_failed' ORDER BY id"),
    ...[
      "charges",
      "draws",
      "draw_methods",
      "charge_channels",
      "wire_accounts",
      "draw_currencies",
      "uploads",
      "settings",
      "operator_requests",
      "operators",
      "real_name_requests",
      "companies",
      "feedback",
      "news_categories",
      "news",
      "notices",
      "statement_mail_prefs",
      "statement_mails",
      // Each table's first column is its key (id, or settings' key, uploads' name).
    ].map((t) => q(`SELECT * FROM ${t} ORDER BY 1`)),
  ].join("\n");
}

/** Signs both accounts in again (a run may have signed one out or reset it). */
async function signIn(): Promise<void> {
  const demo = await s.post("/api/user/loginForU", { demo_id: demoId });
  if (demo.code !== CODE.OK) throw new Error(`demo sign-in refused: ${JSON.stringify(demo)}`);
  demoToken = demo.data.token;
  const real = await loginEmail(s, EMAIL);
  if (real.code !== CODE.OK) throw new Error(`sign-in refused: ${JSON.stringify(real)}`);
  token = real.data.token;
}

beforeAll(async () => {
  s = await startUpstream({
    manualFeed: true,
    seededDeposits: "shown",
    config: { marketAlwaysOpen: true, devOutbox: true, smtpUrl: null },
  });
  db = openStoreReadOnly(s.store.where);
  for (const i of s.feed!.instruments()) s.feed!.set(i.code, i.base_price);
  demoId = (await s.post("/api/user/createAccountDemoForU")).data.demo_id;
  await registerEmail(s, EMAIL);
  await signIn();
  // The real account gets money the way an operator books it, so money calls reach their rules.
  const uid = (await s.get("/api/user/info", { token })).data.uid;
  // Above the four-eyes amount: booked once the harness's second operator approves.
  const funded = await asTeam(
    s,
    s.post(
      "/admin/api/adjustments",
      { uid, amount: "10000", remark: "fuzz funding" },
      { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } },
    ),
  );
  expect(funded.code).toBe(CODE.OK);
  // Orders to aim at: an open position and a pending order of the signed-in account.
  const inst = (await s.get("/v1/api/forex/trade_list")).data.find((i: any) => i.Code === "EURUSD");
  const base = {
    type: 1,
    cont: "0.01",
    forex_id: inst.Id,
    multiple: inst.HasForexMultiple[0].Value,
  };
  expect((await s.post("/v1/api/forex/submit", base, { token })).code).toBe(CODE.OK);
  const pend = { ...base, status: 0, target_price: (inst.ForexQuotations.Close * 0.9).toFixed(5) };
  expect((await s.post("/v1/api/forex/submit", pend, { token })).code).toBe(CODE.OK);
  console.log(
    `upstream fuzz seed ${SEED}, ${ENDPOINTS.length} endpoints x ${RUNS} runs (replay: PROPERTY_SEED=${SEED} npx vitest run tests/integration/fuzz-upstream.test.ts)`,
  );
}, 60_000);

afterAll(async () => {
  db?.close();
  await s?.close();
});

interface Call {
  auth: "token" | "demo" | "none" | "garbage";
  encoding: "json" | "form" | "raw";
  fields: Record<string, unknown>;
  raw: string;
  idemKey: unknown;
  lang: unknown;
}

const headerText = (v: unknown) =>
  String(v)
    .replace(/[^\x20-\x7e]/g, "?")
    .slice(0, 4000);

async function send(def: EndpointDef, c: Call): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  if (c.auth === "token")
    headers.authorization = def.path.startsWith("/admin/")
      ? `Bearer ${HARNESS_OPERATOR_TOKEN}`
      : token;
  else if (c.auth === "demo") headers.authorization = demoToken;
  else if (c.auth === "garbage") headers.authorization = headerText(c.raw) || "x";
  if (c.idemKey !== undefined) headers["idempotency-key"] = headerText(c.idemKey);
  if (c.lang !== undefined) headers.lang = headerText(c.lang);
  let url = s.base + def.path;
  let body: string | undefined;
  if (def.method === "GET") {
    const qs = formText(c.fields);
    if (qs) url += `?${qs}`;
  } else if (c.encoding === "json") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(c.fields) ?? "null";
  } else if (c.encoding === "form") {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = formText(c.fields);
  } else {
    headers["content-type"] = c.raw.length % 2 ? "application/json" : "text/plain";
    body = c.raw;
  }
  const r = await fetch(url, { method: def.method, headers, body });
  return { status: r.status, text: await r.text() };
}

describe("upstream fuzz", () => {
  it("covers every endpoint module of the contract", () => {
    const dir = path.resolve(__dirname, "../../contract/api");
    const files = fs
      .readdirSync(dir)
      // endpoint.ts defines endpoints; <area>-rules.ts hold an area's values, no endpoint.
      .filter((f) => f.endsWith(".ts") && f !== "endpoint.ts" && !f.endsWith("-rules.ts"))
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    expect(Object.keys(MODULES).sort()).toEqual(files);
  });

  it("answers an envelope to a URL or headers beyond the size limit, and to a body beyond it", async () => {
    const long = await fetch(`${s.base}/api/default/area_list?t=${"x".repeat(70_000)}`);
    expect(long.status).toBe(431);
    expect(await long.json()).toEqual({ code: 0, msg: "The request is too large", data: null });
    const big = await fetch(`${s.base}/v1/api/forex/submit`, {
      method: "POST",
      headers: { authorization: token, "content-type": "application/json", lang: "de" },
      body: JSON.stringify({ cont: "1".repeat(7 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ code: 0, msg: "Die Anfrage ist zu groß", data: null });
  });

  it.each(ENDPOINTS.map((d) => [`${d.method} ${d.path}`, d] as const))(
    "%s: never a 500, always an envelope, a refusal changes nothing",
    async (_name, def) => {
      const names = Object.keys({
        ...(def.query?.shape ?? {}),
        ...(def.body?.shape ?? {}),
      });
      const call: fc.Arbitrary<Call> = fc.record({
        auth: fc.constantFrom(
          "token" as const,
          "demo" as const,
          "none" as const,
          "garbage" as const,
        ),
        encoding: fc.constantFrom("json" as const, "form" as const, "raw" as const),
        fields: fieldsFor(names),
        raw: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('{"a":', "[1,2", "\u0000{}")),
        idemKey: fc.option(scalar, { nil: undefined }),
        lang: fc.option(scalar, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(call, async (c) => {
          const before = unchanged ?? snapshot();
          unchanged = null;
          const { status, text } = await send(def, c);
          let env: { code: unknown; msg: unknown; data: unknown };
          try {
            env = JSON.parse(text);
          } catch {
            throw new Error(`not JSON (HTTP ${status}): ${text.slice(0, 300)}`);
          }
          expect(status, text.slice(0, 300)).toBeLessThan(500);
          expect(typeof env.code).toBe("number");
          expect(CODES.has(env.code as number), `code ${String(env.code)}`).toBe(true);
          expect(env.code).not.toBe(CODE.INTERNAL);
          expect(typeof env.msg).toBe("string");
          expect(env).toHaveProperty("data");
          if (env.code !== CODE.OK) {
            const after = snapshot();
            expect(after, `refused with ${JSON.stringify(env)}`).toBe(before);
            unchanged = after;
          }
          // A successful logout or reset ends or changes the session: start the next run signed in.
          if (env.code === CODE.OK && c.auth !== "none" && def.method === "POST") await signIn();
        }),
        assertOptions(RUNS),
      );
    },
    60_000,
  );

  // PostgreSQL's text cannot hold U+0000 (SQLite's can): such a value must be refused as any bad
  // field is, before it reaches a statement, on either store. Every field (and path parameter) in
  // turn, the others "1"; last in the file, as a call may succeed and change the accounts. The fast
  // lane calls each endpoint as the caller it serves (the operator's paths with the operator
  // token), whose fields its handler reads; the full lane also as the other, who is refused first.
  it("refuses U+0000 in any field or path parameter without a 5xx", async () => {
    const failures: string[] = [];
    for (const def of ENDPOINTS) {
      const names = Object.keys({ ...(def.query?.shape ?? {}), ...(def.body?.shape ?? {}) });
      const own = def.path.startsWith("/admin/");
      for (const operator of byLane([own], [false, true]))
        for (const v of ["\u0000", "a\u0000b"])
          for (const only of [null, ...names]) {
            const fields = Object.fromEntries(names.map((n) => [n, only === n ? v : "1"]));
            const pathValue = only === null ? encodeURIComponent(v) : "1";
            let url = s.base + def.path.replace(/:(\w+)/g, pathValue);
            const headers: Record<string, string> = {
              authorization: operator ? `Bearer ${HARNESS_OPERATOR_TOKEN}` : token,
            };
            let body: string | undefined;
            if (def.method === "GET") url += `?${new URLSearchParams(fields)}`;
            else {
              headers["content-type"] = "application/json";
              body = JSON.stringify(fields);
            }
            const r = await fetch(url, { method: def.method, headers, body });
            const text = await r.text();
            if (r.status >= 500)
              failures.push(`${def.method} ${def.path} ${only ?? "path"}: ${text}`);
            // A sign-out or a reset that went through: sign in again before the next call.
            if (def.method === "POST" && r.status === 200 && JSON.parse(text).code === CODE.OK)
              await signIn();
          }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
