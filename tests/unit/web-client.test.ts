/**
 * The web's upstream client against the real reference upstream (fresh temporary database) and,
 * for wire-format details the upstream never produces on purpose, a plain local HTTP server.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as tradingApi from "@contract/api/trading";
import { buildUpstream, type Upstream } from "../../upstream/app.js";
import { loadConfig } from "../../upstream/platform/config.js";
import {
  callerFor,
  call,
  get,
  networkErrorCode,
  send,
  toResult,
  type Caller,
} from "../../app/upstream/client.server";
import {
  createAccountDemoForU,
  getBalance,
  loginDemo,
  loginForU,
  userInfo,
  sendEmail,
} from "../../app/upstream/account.server";
import {
  abbreviatedCacheKline,
  getCategories,
  kline,
  tradeList,
} from "../../app/upstream/market.server";
import { logoPath } from "../../app/upstream/views";
import {
  areaList,
  captchaRequired,
  getBasicInfo,
  isShowMobile,
} from "../../app/upstream/settings.server";
import { commitSession, getSession } from "../../app/utils/session.server";

/** Account values as the contract describes them (GET /v1/api/main/account/forexDetail). */
const FOREX_DETAIL = {
  balance: 100,
  lock_balance: 0,
  total: 100,
  all_caution_money: 0,
  can_use: 12.5,
  HazardRate: null,
};

let up: Upstream;
let base: string;
let dir: string;

function req(url: string, init: { cookie?: string; lang?: string } = {}): Request {
  const headers = new Headers();
  if (init.cookie) headers.set("Cookie", init.cookie);
  if (init.lang) headers.set("Accept-Language", init.lang);
  return new Request(url, { headers });
}

async function callerWithToken(
  token: string | null,
  url = "http://web.test/user?tab=1",
): Promise<Caller> {
  const session = await getSession(req(url));
  if (token) {
    session.set("token", token);
    session.set("user", {
      id: 1,
      uid: "1",
      email: null,
      mobile: null,
      is_demo: 1,
      invite_code: null,
    });
  }
  const cookie = (await commitSession(session)).split(";")[0];
  return callerFor(req(url, { cookie }));
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-webclient-"));
  const config = loadConfig({} as NodeJS.ProcessEnv, {
    port: 0,
    dbFile: path.join(dir, "up.sqlite"),
    rateLimit: false,
    devOutbox: true,
    simulate: false,
    smtpUrl: null,
  });
  up = await buildUpstream(config);
  base = await up.listen();
  process.env.UPSTREAM_URL = base;
});

// The unit files share a process (vitest.config.ts): the address goes back as it was.
const upstreamUrlBefore = process.env.UPSTREAM_URL;
afterAll(async () => {
  if (upstreamUrlBefore === undefined) delete process.env.UPSTREAM_URL;
  else process.env.UPSTREAM_URL = upstreamUrlBefore;
  await up?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("account calls", () => {
  it("creates a demo account, logs in with it and reads user info and balance", async () => {
    const c = await callerWithToken(null, "http://web.test/login");
    const created = await createAccountDemoForU(c);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.data.demo_id).toMatch(/^[0-9a-f]{32}$/);
    const login = await loginDemo(c, created.data.demo_id);
    expect(login.ok).toBe(true);
    if (!login.ok) return;
    expect(login.data.user.is_demo).toBe(1);
    const signed = await callerWithToken(login.data.token);
    const info = await userInfo(signed);
    expect(info.ok && info.data.uid).toBe(login.data.user.uid);
    const bal = await getBalance(signed);
    expect(bal.ok && bal.data.balance).toBeGreaterThan(0);
  });

  it("returns the upstream's refusal in the caller's language", async () => {
    const en = await callerWithToken(null, "http://web.test/login?lng=en");
    const fr = await callerWithToken(null, "http://web.test/login?lng=fr");
    const a = await loginForU(en, {
      account: "nobody@example.com",
      password: "whatever1",
      login_type: "email",
    });
    const b = await loginForU(fr, {
      account: "nobody@example.com",
      password: "whatever1",
      login_type: "email",
    });
    expect(a.ok).toBe(false);
    expect(b.ok).toBe(false);
    expect(a.code).toBe(0);
    expect(a.msg).not.toBe("");
    expect(b.msg).not.toBe(a.msg);
  });

  it("sends a code (POST form body) and reports the resend wait", async () => {
    const c = await callerWithToken(null, "http://web.test/register");
    const r = await sendEmail(c, { to: "client-test@example.com", type: 1 });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.data.resend_in).toBe(60);
    const again = await sendEmail(c, { to: "client-test@example.com", type: 1 });
    expect(again.ok).toBe(false);
  });
});

describe("code 999", () => {
  it("destroys the session and redirects to /login?from=PATH with its query", async () => {
    const c = await callerWithToken("0".repeat(32), "http://web.test/user?tab=1");
    let thrown: unknown;
    try {
      await userInfo(c);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?from=%2Fuser%3Ftab%3D1");
    const cookie = res.headers.get("Set-Cookie")!;
    const after = await getSession(req("http://web.test/", { cookie: cookie.split(";")[0] }));
    expect(after.get("token")).toBeUndefined();
    expect(after.get("user")).toBeUndefined();
    expect(after.get("toast")?.type).toBe("error");
  });

  it("is returned, not redirected, for an initialisation call", async () => {
    const c = await callerWithToken("0".repeat(32));
    const r = await userInfo(c, { init: true });
    expect(r.ok).toBe(false);
    expect(r.code).toBe(999);
  });
});

describe("market and settings calls", () => {
  it("reads categories, instruments, candles and sparklines", async () => {
    const c = await callerWithToken(null, "http://web.test/");
    const [cats, list] = await Promise.all([getCategories(c), tradeList(c)]);
    expect(cats.ok && cats.data.length).toBeGreaterThanOrEqual(6);
    expect(list.ok && list.data.length).toBeGreaterThanOrEqual(24);
    if (!list.ok) return;
    const first = list.data[0];
    expect(typeof first.ForexQuotations.Close).toBe("number");
    expect(logoPath(first.Logo)).toMatch(/^\/media\/logos\/[A-Za-z0-9._-]+\.svg$/);
    const search = await tradeList(c, { searchCurrency: first.Code.slice(0, 3) });
    expect(search.ok && search.data.some((i) => i.Code === first.Code)).toBe(true);
    const k = await kline(c, { forex_id: first.Id, period: "1min" });
    expect(k.ok && k.data.length).toBeGreaterThanOrEqual(200);
    const s = await abbreviatedCacheKline(c, { forex_id: [first.Id] });
    expect(s.ok && s.data[0].points.length).toBeGreaterThan(1);
  });

  it("reads the settings", async () => {
    const c = await callerWithToken(null, "http://web.test/register");
    const [basic, areas, mobile, captcha] = await Promise.all([
      getBasicInfo(c),
      areaList(c),
      isShowMobile(c),
      captchaRequired(c),
    ]);
    expect(basic.ok && typeof basic.data.service_link).toBe("string");
    expect(areas.ok && areas.data.length).toBeGreaterThan(0);
    expect(mobile.ok && typeof mobile.data).toBe("boolean");
    expect(captcha.ok && captcha.data).toBe(false);
  });
});

describe("network failures", () => {
  async function withClosedPort(fn: () => Promise<void>) {
    const srv = http.createServer();
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const port = (srv.address() as AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const saved = process.env.UPSTREAM_URL;
    process.env.UPSTREAM_URL = `http://127.0.0.1:${port}`;
    try {
      await fn();
    } finally {
      process.env.UPSTREAM_URL = saved;
    }
  }

  it("throw a 503 response asking to retry later (a page renders it as 'unavailable')", async () => {
    await withClosedPort(async () => {
      const c = await callerWithToken("abc");
      const thrown = await userInfo(c).then(
        () => null,
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(Response);
      const res = thrown as Response;
      expect(res.status).toBe(503);
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
      // The cause is logged, never sent to the browser.
      expect(await res.json()).toEqual({ unavailable: true });
    });
  });

  it("become a result carrying the error code for soft calls", async () => {
    await withClosedPort(async () => {
      const c = await callerWithToken("abc");
      const r = await userInfo(c, { soft: true });
      expect(r.ok).toBe(false);
      expect(r.ok ? null : r.network).toBe(true);
      expect(r.msg).toBe("ECONNREFUSED");
    });
  });

  it("names a time-out ETIMEDOUT", () => {
    const e = new DOMException("timed out", "TimeoutError");
    expect(networkErrorCode(e)).toBe("ETIMEDOUT");
  });
});

describe("wire format", () => {
  let srv: http.Server;
  let seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  let reply: { status: number; body: string } = {
    status: 200,
    body: '{"code":1,"msg":"ok","data":{"x":1}}',
  };
  let wire: string;

  beforeAll(async () => {
    srv = http.createServer((rq, rs) => {
      let body = "";
      rq.on("data", (d) => (body += d));
      rq.on("end", () => {
        seen.push({ method: rq.method!, url: rq.url!, headers: rq.headers, body });
        rs.writeHead(reply.status, { "content-type": "application/json" });
        rs.end(reply.body);
      });
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    wire = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => srv.close(() => r())));

  async function withWire<T>(fn: () => Promise<T>): Promise<T> {
    const saved = process.env.UPSTREAM_URL;
    process.env.UPSTREAM_URL = wire;
    seen = [];
    try {
      return await fn();
    } finally {
      process.env.UPSTREAM_URL = saved;
    }
  }

  it("GET and DELETE carry t, lang and authorization; POST sends a form body and Idempotency-Key", async () => {
    const c = await callerWithToken("tok123", "http://web.test/?lng=de");
    await withWire(async () => {
      const g = await get<{ x: number }>(c, "/v1/api/forex/trade_list", {
        searchCurrency: "EUR",
        empty: undefined,
      });
      expect(g.ok && g.data.x).toBe(1);
      await call(c, "DELETE", "/api/thing", { id: 5 });
      await call(
        c,
        "POST",
        "/api/order",
        { cont: 1.5, note: "a b&c" },
        { idempotencyKey: "key-1" },
      );
    });
    const [g, d, p] = seen;
    const gu = new URL(g.url, wire);
    expect(g.method).toBe("GET");
    expect(gu.searchParams.get("searchCurrency")).toBe("EUR");
    expect(gu.searchParams.has("empty")).toBe(false);
    expect(Number(gu.searchParams.get("t"))).toBeGreaterThan(1_600_000_000_000);
    expect(g.headers.lang).toBe("de");
    expect(g.headers.authorization).toBe("tok123");
    expect(new URL(d.url, wire).searchParams.has("t")).toBe(true);
    expect(p.method).toBe("POST");
    expect(new URL(p.url, wire).searchParams.has("t")).toBe(false);
    expect(p.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(p.body))).toEqual({ cont: "1.5", note: "a b&c" });
    expect(p.headers["idempotency-key"]).toBe("key-1");
  });

  it("turns a non-JSON answer or an HTTP error into a failed result", async () => {
    const c = await callerWithToken(null);
    reply = { status: 500, body: "<html>oops</html>" };
    const r = await withWire(() => get(c, "/x"));
    expect(r).toMatchObject({ ok: false, code: 500 });
    reply = { status: 429, body: '{"code":429,"msg":"Too many requests","data":null}' };
    const limited = await withWire(() => get(c, "/x"));
    expect(limited).toMatchObject({ ok: false, code: 429, msg: "Too many requests" });
    reply = { status: 200, body: '{"code":1,"msg":"ok","data":{"x":1}}' };
  });

  it("refuses an answer that drifts from the contract as the upstream being unavailable, naming the field in the log", async () => {
    // The tests run with CHECK_ANSWERS=1 (vitest.config.ts), as a web in front of a foreign
    // upstream (UPSTREAM_URL set) does by default.
    const c = await callerWithToken("tok123");
    const errors: string[] = [];
    const logged = vi.spyOn(console, "error").mockImplementation((m: string) => errors.push(m));
    try {
      reply = {
        status: 200,
        body: JSON.stringify({ code: 1, msg: "ok", data: { ...FOREX_DETAIL, can_use: "12.5" } }),
      };
      const thrown = await withWire(() => send(c, tradingApi.forexDetail).catch((e: unknown) => e));
      expect((thrown as Response).status).toBe(503);
      expect(errors.map((e) => JSON.parse(e) as Record<string, string>)).toEqual([
        expect.objectContaining({
          msg: "upstream answer drifts from the contract",
          endpoint: "GET /v1/api/main/account/forexDetail",
          field: "data.can_use",
        }),
      ]);
      // A field the contract does not know is read past (a foreign upstream may add its own).
      reply = {
        status: 200,
        body: JSON.stringify({ code: 1, msg: "ok", data: { ...FOREX_DETAIL, bonus: 5 } }),
      };
      const r = await withWire(() => send(c, tradingApi.forexDetail));
      expect(r).toMatchObject({ ok: true, data: { can_use: 12.5 } });
      // A refusal carries no data to check.
      reply = { status: 200, body: '{"code":0,"msg":"Refused","data":null}' };
      expect(await withWire(() => send(c, tradingApi.forexDetail))).toMatchObject({
        ok: false,
        msg: "Refused",
      });
    } finally {
      logged.mockRestore();
      reply = { status: 200, body: '{"code":1,"msg":"ok","data":{"x":1}}' };
    }
  });

  it("counts a proxy's 502 without an envelope as an unreachable upstream", async () => {
    const c = await callerWithToken(null);
    reply = { status: 502, body: "<html>bad gateway</html>" };
    const thrown = await withWire(() => get(c, "/x").catch((e: unknown) => e));
    expect((thrown as Response).status).toBe(503);
    const soft = await withWire(() => get(c, "/x", {}, { soft: true }));
    expect(soft).toMatchObject({ ok: false, network: true, msg: "HTTP 502" });
    reply = { status: 200, body: '{"code":1,"msg":"ok","data":{"x":1}}' };
  });

  it("unwraps envelopes", () => {
    expect(toResult({ code: 1, msg: "Success", data: [1, 2] })).toEqual({
      ok: true,
      code: 1,
      msg: "Success",
      data: [1, 2],
    });
    expect(toResult({ code: 0, msg: "No", data: null })).toEqual({
      ok: false,
      code: 0,
      msg: "No",
      data: null,
    });
    expect(toResult({ nope: true }, 200)).toMatchObject({ ok: false, code: 500 });
    expect(toResult(null, 404)).toMatchObject({ ok: false, code: 404 });
  });
});
