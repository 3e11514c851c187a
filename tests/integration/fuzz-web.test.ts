/**
 * Property fuzz of every web action (each route exporting `action`), and of the pages that read a
 * range or a page from their query (statements, their downloads and printed page, statistics):
 * hostile values (fuzz-values.ts)
 * posted as a browser would, with the session cookie and the CSRF token read from the page, to the
 * real server.ts (web-harness.ts). Never a 5xx; without a valid CSRF token 403 (413 when the body is
 * beyond FORM_MAX_BYTES, refused before it is read); with it a refused form answers 400 (413 for a
 * body too large), otherwise the page (200, showing the upstream's refusal) or the designed redirect;
 * and an answer other than a redirect leaves the users' balances, the orders, the ledger and the
 * tokens of the upstream's store as they were.
 * PROPERTY_SEED replays a run (the seed is printed).
 */
import Database from "better-sqlite3";
import fc from "fast-check";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cookieHeader,
  demoSignIn,
  keepCookies,
  showSeededDeposits,
  startWeb,
  type WebServer,
} from "./web-harness.js";
import { SEED, assertOptions, fieldsFor, formText, value } from "./fuzz-values.js";
import { byLane } from "../support/lane.js";

/** Runs per action (FUZZ_WEB_RUNS overrides): 4 from a fixed seed in `npm test`, 30 in the full lane. */
const RUNS = Number(process.env.FUZZ_WEB_RUNS || byLane(4, 30));

interface Jar {
  cookies: Map<string, string>;
  csrf: string;
}

/** The routes with an action: the page that holds the form, its fields and its intents. */
const ROUTES: { path: string; signedIn: boolean; intents: string[]; fields: string[] }[] = [
  {
    path: "/login",
    signedIn: false,
    intents: ["login", "demo"],
    fields: ["login_type", "account", "password", "area_id"],
  },
  {
    path: "/register",
    signedIn: false,
    intents: ["register", "send_code"],
    fields: ["type", "account", "sms_code", "password", "re_password", "invite_code", "area_id"],
  },
  {
    path: "/forgot",
    signedIn: false,
    intents: ["reset", "send_code"],
    fields: ["type", "account", "auth_code", "new_password", "secondary_password", "area_id"],
  },
  { path: "/language", signedIn: false, intents: [], fields: ["lng", "redirect_to"] },
  {
    path: "/trade",
    signedIn: true,
    intents: ["submit", "close"],
    fields: [
      "idempotency_key",
      "forex_id",
      "status",
      "target_price",
      "cont",
      "multiple",
      "target_profit_price",
      "stop_loss_price",
      "type",
      "step",
      "id",
    ],
  },
  {
    path: "/order",
    signedIn: true,
    intents: ["stop", "close", "cancel"],
    fields: ["id", "target_profit_price", "stop_loss_price", "idempotency_key"],
  },
  {
    path: "/user",
    signedIn: true,
    intents: ["toggle_balance", "reset_demo"],
    fields: ["hide", "idempotency_key"],
  },
  { path: "/mine/system", signedIn: true, intents: ["logout"], fields: [] },
  {
    path: "/mine/password",
    signedIn: true,
    intents: ["change", "send_code"],
    fields: ["auth_code", "new_password", "re_password"],
  },
  {
    path: "/mine/email",
    signedIn: true,
    intents: ["bind", "send_code"],
    fields: ["email", "auth_code"],
  },
  {
    path: "/mine/security",
    signedIn: true,
    intents: ["setup", "enable", "disable", "renew", "end", "end_others"],
    fields: ["code", "password", "id"],
  },
  { path: "/login/code", signedIn: false, intents: ["code", "restart"], fields: ["code"] },
  { path: "/mine/notifications", signedIn: true, intents: ["read_all"], fields: [] },
  {
    path: "/mine/notifications/settings",
    signedIn: true,
    intents: ["save", "push_subscribe", "push_unsubscribe", "statement_mail"],
    fields: ["endpoint", "p256dh", "auth", "email_take_profit", "push_take_profit", "monthly"],
  },
  {
    path: "/mine/alerts",
    signedIn: true,
    intents: ["create", "delete"],
    fields: ["forex_id", "condition", "target", "repeat", "cooldown_min", "until", "id"],
  },
  {
    path: "/mine/watchlists",
    signedIn: true,
    intents: [
      "star",
      "create",
      "rename",
      "delete",
      "list_up",
      "list_down",
      "item_add",
      "item_remove",
      "item_up",
      "item_down",
    ],
    fields: ["add", "remove", "back", "via", "name", "id", "list_id", "code"],
  },
  {
    path: "/mine/withdraw",
    signedIn: true,
    intents: ["calculate", "draw", "cancel"],
    fields: [
      "draw_currency_id",
      "draw_method_id",
      "number",
      "memo",
      "totp_code",
      "id",
      "idempotency_key",
    ],
  },
  {
    path: "/mine/withdraw-way",
    signedIn: true,
    intents: ["bind_address", "bind_bank"],
    fields: [
      "draw_id",
      "dc_address",
      "bank_name",
      "bank_address",
      "bank_swift",
      "payee_name",
      "payee_account",
      "remark",
      "totp_code",
      "back",
    ],
  },
  { path: "/mine/coin-address-list", signedIn: true, intents: ["delete"], fields: ["id"] },
  { path: "/mine/bank-card-list", signedIn: true, intents: ["delete"], fields: ["id"] },
  { path: "/logout", signedIn: true, intents: ["logout"], fields: [] },
  {
    path: "/mine/charge",
    signedIn: true,
    intents: ["coin", "bank"],
    fields: ["idempotency_key", "charge_id", "address", "number", "wire_id", "proof"],
  },
  {
    path: "/mine/charge/upload",
    signedIn: true,
    intents: ["coin", "bank"],
    fields: ["idempotency_key", "charge_id", "address", "number", "wire_id", "proof"],
  },
  { path: "/mine/auth", signedIn: true, intents: [], fields: ["name", "card_id", "front", "back"] },
];

let w: WebServer;
let db: Database.Database;
let anon: Jar;
let signed: Jar;

async function csrfOf(page: string, cookies: Map<string, string>): Promise<string> {
  const r = await fetch(w.base + page, {
    headers: { cookie: cookieHeader(cookies) },
    redirect: "manual",
  });
  keepCookies(r, cookies);
  const html = await r.text();
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no csrf token on ${page} (${r.status})`);
  return token;
}

async function anonJar(): Promise<Jar> {
  const cookies = new Map<string, string>();
  return { cookies, csrf: await csrfOf("/login", cookies) };
}

async function signedJar(): Promise<Jar> {
  const { jar } = await demoSignIn(w.base, "%2Fuser");
  return { cookies: jar, csrf: await csrfOf("/user", jar) };
}

function snapshot(): string {
  const q = (sql: string) => JSON.stringify(db.prepare(sql).all());
  return [
    q(
      "SELECT id, email, mobile, password_hash, balance_micro, lock_balance_micro FROM users ORDER BY id",
    ),
    q("SELECT * FROM orders ORDER BY id"),
    q("SELECT * FROM ledger ORDER BY id"),
    q("SELECT token_hash, user_id, expires_at, revoked_at FROM tokens ORDER BY token_hash"),
  ].join("\n");
}

/** The web's operator token: shows the seeded deposit channels, which fresh installs hide. */
const FUZZ_OPERATOR = "fuzz-web-operator-token-0123456789";

beforeAll(async () => {
  // The ranking's strategy traders ("auto" trades them on the simulated market) would open and
  // close positions of their own between a snapshot and the next: nothing but the fuzzed request
  // may write the tables a refusal must leave alone.
  w = await startWeb({ env: { OPERATOR_TOKEN: FUZZ_OPERATOR, STRATEGIES: "off" } });
  await showSeededDeposits(w, FUZZ_OPERATOR);
  db = new Database(path.join(w.dataDir, "upstream.sqlite"), { readonly: true });
  anon = await anonJar();
  signed = await signedJar();
  console.log(
    `web fuzz seed ${SEED}, ${ROUTES.length} actions x ${RUNS} runs (replay: PROPERTY_SEED=${SEED} npx vitest run tests/integration/fuzz-web.test.ts)`,
  );
}, 200_000);

afterAll(async () => {
  db?.close();
  await w?.close();
});

interface Post {
  csrf: "valid" | "missing" | "wrong";
  encoding: "form" | "multipart" | "raw";
  intent: unknown;
  fields: Record<string, unknown>;
  raw: string;
}

/** A form each action's schema refuses (with the route's own intent where it has one). */
const REFUSED: Record<string, Record<string, string>> = {
  "/login": { intent: "login", login_type: "email", account: "", password: "" },
  "/register": { intent: "register", type: "email", account: "not an address" },
  "/forgot": { intent: "reset", type: "email", account: "" },
  "/language": { lng: "xx" },
  "/trade": { intent: "submit", forex_id: "1", type: "1", cont: "abc", multiple: "x" },
  "/order": { intent: "close", id: "abc" },
  "/user": { intent: "nope" },
  "/mine/system": { intent: "nope" },
  "/mine/password": { intent: "change", auth_code: "", new_password: "a", re_password: "b" },
  "/mine/email": { intent: "bind", email: "not an address" },
  "/mine/security": { intent: "enable", code: "12ab" },
  "/login/code": { intent: "code", code: "" },
  "/mine/notifications": { intent: "nope" },
  "/mine/notifications/settings": { intent: "push_subscribe", endpoint: "not a url" },
  "/mine/alerts": { intent: "create", forex_id: "1", condition: "above", target: "abc" },
  "/mine/watchlists": { intent: "create", name: "   " },
  "/mine/withdraw": { intent: "draw", draw_currency_id: "1", number: "abc" },
  "/mine/withdraw-way": { intent: "bind_address", draw_id: "x" },
  "/mine/coin-address-list": { intent: "delete", id: "abc" },
  "/mine/bank-card-list": { intent: "delete", id: "abc" },
  "/logout": { intent: "nope" },
  "/mine/charge": { intent: "coin", charge_id: "1", number: "abc" },
  "/mine/charge/upload": { intent: "bank", wire_id: "x", number: "-1" },
  "/mine/auth": { name: " ", card_id: "" },
};

describe("web action fuzz", () => {
  it.each(ROUTES.map((r) => [r.path, r] as const))(
    "POST %s: a form the schema refuses answers 400 with the token, 403 without, and changes nothing",
    async (_p, route) => {
      const jar = route.signedIn ? signed : anon;
      for (const csrf of [jar.csrf, undefined]) {
        const before = snapshot();
        const res = await fetch(w.base + route.path, {
          method: "POST",
          redirect: "manual",
          headers: {
            cookie: cookieHeader(jar.cookies),
            origin: w.base,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({ ...REFUSED[route.path], ...(csrf ? { csrf } : {}) }),
        });
        expect(res.status, await res.text()).toBe(csrf ? 400 : 403);
        expect(snapshot()).toBe(before);
      }
    },
  );

  it.each(ROUTES.map((r) => [r.path, r] as const))(
    "POST %s: never a 500; 403 without CSRF; 400, the page or a redirect with it; only a redirect changes anything",
    async (_p, route) => {
      const post: fc.Arbitrary<Post> = fc.record({
        csrf: fc.constantFrom(
          "valid" as const,
          "valid" as const,
          "missing" as const,
          "wrong" as const,
        ),
        encoding: fc.constantFrom(
          "form" as const,
          "form" as const,
          "multipart" as const,
          "raw" as const,
        ),
        intent: route.intents.length
          ? fc.oneof(fc.constantFrom(...route.intents), value, fc.constant(undefined))
          : fc.option(value, { nil: undefined }),
        fields: fieldsFor(route.fields),
        raw: fc.string({ maxLength: 80 }),
      });
      await fc.assert(
        fc.asyncProperty(post, async (p) => {
          const jar = route.signedIn ? signed : anon;
          const fields: Record<string, unknown> = { ...p.fields };
          if (p.intent !== undefined) fields.intent = p.intent;
          if (p.csrf === "valid") fields.csrf = jar.csrf;
          else if (p.csrf === "wrong") fields.csrf = `${jar.csrf.slice(0, -2)}xx`;
          const headers: Record<string, string> = {
            cookie: cookieHeader(jar.cookies),
            origin: w.base,
          };
          let body: string | FormData;
          if (p.encoding === "multipart") {
            const fd = new FormData();
            for (const [k, v] of new URLSearchParams(formText(fields))) fd.append(k, v);
            body = fd;
          } else if (p.encoding === "raw") {
            headers["content-type"] = p.raw.length % 2 ? "application/json" : "text/plain";
            body = p.csrf === "valid" ? `csrf=${jar.csrf}&${p.raw}` : p.raw;
          } else {
            headers["content-type"] = "application/x-www-form-urlencoded";
            body = formText(fields);
          }
          const before = snapshot();
          const res = await fetch(w.base + route.path, {
            method: "POST",
            headers,
            body,
            redirect: "manual",
          });
          const text = await res.text();
          const what = `HTTP ${res.status} ${res.headers.get("location") ?? ""} ${text.slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          const csrfSent = p.csrf === "valid" && p.encoding !== "raw";
          if (!csrfSent) expect([403, 413], what).toContain(res.status);
          else expect([200, 302, 303, 400, 413, 429], what).toContain(res.status);
          // Success redirects (post, redirect, get): an answer that shows a page again refused the form.
          if (res.status < 300 || res.status >= 400) expect(snapshot(), what).toBe(before);
          // A redirect may have signed the jar in or out: start the next run as the route expects.
          if (res.status >= 300 && res.status < 400) {
            if (route.signedIn && /logout|system/.test(route.path)) signed = await signedJar();
            if (!route.signedIn) anon = await anonJar();
          }
        }),
        {
          ...assertOptions(RUNS),
          // Always tried: each field of the form posted nested (`cont[]=1,5`) with no intent (a
          // refused post whose page once failed to show such a value: a 500).
          examples: route.fields.map((f) => [
            {
              csrf: "valid" as const,
              encoding: "form" as const,
              intent: undefined,
              fields: { [f]: { "": "1,5" } },
              raw: "",
            },
          ]),
        },
      );
    },
    90_000,
  );
});

/** Pages that read their query (a statement's range and pages): what they may be asked. */
const QUERY_PAGES: { path: string; fields: string[] }[] = [
  { path: "/mine/statements", fields: ["from", "to", "preset", "rows_page", "positions_page"] },
  { path: "/mine/statements/print", fields: ["from", "to", "preset"] },
  { path: "/mine/statements/ledger.csv", fields: ["from", "to", "preset"] },
  { path: "/mine/statements/positions.csv", fields: ["from", "to", "preset"] },
  { path: "/mine/stats", fields: ["from", "to", "page"] },
];

describe("web query fuzz", () => {
  it.each(QUERY_PAGES.map((r) => [r.path, r] as const))(
    "GET %s: never a 500, whatever the query; nothing changes",
    async (_p, route) => {
      await fc.assert(
        fc.asyncProperty(fieldsFor(route.fields), async (fields) => {
          const before = snapshot();
          const res = await fetch(`${w.base}${route.path}?${formText(fields)}`, {
            headers: { cookie: cookieHeader(signed.cookies) },
            redirect: "manual",
          });
          const text = await res.text();
          const what = `HTTP ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          expect(snapshot(), what).toBe(before);
        }),
        assertOptions(RUNS),
      );
    },
    90_000,
  );
});
