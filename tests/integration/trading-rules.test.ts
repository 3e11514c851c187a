/**
 * Trading rules over real HTTP where the clock, the market-hours calendar and the operator settings
 * decide (trading-rules.md): closing on a stale quote or a closed market, a pending order reached
 * while the market is closed, risk and trade settings at non-default values, and idempotency keys
 * of cancel_trade, set_stop_price and resetForexDemoAccount. The upstream's manual feed follows the
 * market-hours calendar; `market.always_open` keeps markets open outside the calendar tests, whose
 * clock is Date only (vi fake timers), so HTTP and timers stay real.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Upstream } from "../../upstream/app.js";
import type { ManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { getEnv, startUpstream, type Env, type Server } from "./upstream-harness.js";

let server: Server;
let up: Upstream;
let base: string;
let feed: ManualFeed;

/** Changes a setting as an operator does (the operator API checks the value). */
function setSetting(key: string, value: string): Promise<void> {
  return server.setting(key, value);
}

function get<T = any>(p: string, token?: string): Promise<Env<T>> {
  return getEnv<T>(base, p + (p.includes("?") ? "&" : "?") + `t=${Date.now()}`, { token });
}

/** POST a form; the HTTP status and the envelope. */
async function post(
  p: string,
  body: Record<string, string | number>,
  token?: string,
  key?: string,
): Promise<{ status: number; env: Env }> {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
  };
  if (token) headers.authorization = token;
  if (key) headers["idempotency-key"] = key;
  const r = await fetch(base + p, {
    method: "POST",
    headers,
    body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
  });
  return { status: r.status, env: (await r.json()) as Env };
}

/** A demo account through the real endpoints, starting with `initial` USD. */
async function demo(initial = 10000): Promise<{ token: string; id: number }> {
  await setSetting("demo.initial_balance", String(initial));
  const c = await post("/api/user/createAccountDemoForU", {});
  expect(c.env.code).toBe(1);
  const l = await post("/api/user/loginForU", { demo_id: c.env.data.demo_id });
  expect(l.env.code).toBe(1);
  const id = (
    up.ctx.db.prepare("SELECT id FROM users WHERE demo_id = ?").get(c.env.data.demo_id) as {
      id: number;
    }
  ).id;
  return { token: l.env.data.token, id };
}

const EUR = () => feed.quote("EURUSD")!.id;
const market = (extra: Record<string, string | number> = {}) => ({
  type: 1,
  cont: "0.1",
  forex_id: EUR(),
  status: 1,
  multiple: 100,
  ...extra,
});
const ledgerRows = (userId: number) =>
  (up.ctx.db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE user_id = ?").get(userId) as any)
    .n as number;
const deals = async (token: string, status: 0 | 1 | 3) =>
  (await get(`/v1/api/forex/my_deal?status=${status}`, token)).data.data as any[];

beforeAll(async () => {
  server = await startUpstream({
    tmpPrefix: "tp-rules-",
    manualFeed: true,
    manualFeedOptions: { alwaysOpen: false },
    config: { devOutbox: true, simulate: false, smtpUrl: null },
  });
  ({ up, base } = server);
  feed = server.feed!;
  await setSetting("market.always_open", "1");
  feed.set("EURUSD", 1.1);
});

afterAll(async () => {
  await server?.close();
});

describe("closing needs a fresh quote and an open market", () => {
  it("a close on a quote older than market.stale_after_s is refused, translated, and changes nothing", async () => {
    const { token, id } = await demo();
    feed.set("EURUSD", 1.1);
    const o = await post("/v1/api/forex/submit", market(), token);
    expect(o.env.code).toBe(1);
    feed.set("EURUSD", 1.1, { at: Date.now() - 40_000 });
    const n = ledgerRows(id);
    const c = await post("/v1/api/forex/close", { id: o.env.data.Id }, token);
    expect(c).toEqual({
      status: 200,
      env: { code: 0, msg: "No current price right now, please try again shortly", data: null },
    });
    expect(ledgerRows(id)).toBe(n);
    expect((await deals(token, 1)).map((x) => x.Id)).toEqual([o.env.data.Id]);
    // market.stale_after_s = 60 accepts the same 40-second-old quote.
    await setSetting("market.stale_after_s", "60");
    try {
      const c2 = await post("/v1/api/forex/close", { id: o.env.data.Id }, token);
      expect(c2.env).toMatchObject({ code: 1, data: { Id: o.env.data.Id, Status: 3 } });
    } finally {
      await setSetting("market.stale_after_s", "30");
    }
  });

  describe("by the market-hours calendar", () => {
    /** The next `weekday` (0 Sunday) at hh:mm UTC after now. */
    function next(weekday: number, hh: number, mm: number): number {
      const d = new Date();
      d.setUTCHours(hh, mm, 0, 0);
      while (d.getUTCDay() !== weekday || d.getTime() <= Date.now())
        d.setUTCDate(d.getUTCDate() + 1);
      return d.getTime();
    }
    afterEach(async () => {
      vi.useRealTimers();
      await setSetting("market.always_open", "1");
    });

    it("closes are refused from Friday 21:00 UTC; a pending order reached then fills on Sunday's open", async () => {
      const friday = next(5, 20, 59);
      // Before the clock moves: the setting waits for a second operator, whose sign-in is today's.
      await setSetting("market.always_open", "0");
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(friday);
      const { token, id } = await demo();
      feed.set("EURUSD", 1.1);
      const o = await post("/v1/api/forex/submit", market(), token);
      expect(o.env.code).toBe(1);
      const p = await post(
        "/v1/api/forex/submit",
        market({ status: 0, target_price: "1.09" }),
        token,
      );
      expect(p.env.code).toBe(1);

      vi.setSystemTime(friday + 60_000); // Friday 21:00: forex closed
      feed.set("EURUSD", 1.085); // fresh, and reaches the buy limit
      const n = ledgerRows(id);
      const c = await post("/v1/api/forex/close", { id: o.env.data.Id }, token);
      expect(c.env).toEqual({ code: 0, msg: "The market is closed", data: null });
      expect((await deals(token, 0)).map((x) => x.Id)).toEqual([p.env.data.Id]);
      expect(ledgerRows(id)).toBe(n);

      vi.setSystemTime(friday + 60_000 + 2 * 86_400_000); // Sunday 21:00: forex opens
      feed.set("EURUSD", 1.0875);
      const held = await deals(token, 1);
      expect(held.find((x) => x.Id === p.env.data.Id)).toMatchObject({ Price: 1.0875 });
      expect(await deals(token, 0)).toEqual([]);
      const c2 = await post("/v1/api/forex/close", { id: o.env.data.Id }, token);
      expect(c2.env).toMatchObject({ code: 1, data: { Status: 3 } });
      expect(moneyOf(up.ctx.db).ledgerSum(id)).toBe(
        (up.ctx.db.prepare("SELECT balance_micro FROM users WHERE id = ?").get(id) as any)
          .balance_micro,
      );
    });
  });
});

describe("settings at non-default values", () => {
  it("trade.max_lots refuses larger orders with a translated message", async () => {
    const { token, id } = await demo(1_000_000);
    feed.set("EURUSD", 1.1);
    expect((await post("/v1/api/forex/submit", market({ cont: "3" }), token)).env.code).toBe(1);
    await setSetting("trade.max_lots", "2");
    try {
      const n = ledgerRows(id);
      const r = await post("/v1/api/forex/submit", market({ cont: "3" }), token);
      expect(r.env).toEqual({ code: 0, msg: "Lots must be at most 2", data: null });
      expect(ledgerRows(id)).toBe(n);
      expect((await deals(token, 1)).length).toBe(1);
    } finally {
      await setSetting("trade.max_lots", "100");
    }
  });

  it("risk.stop_out_pct and risk.margin_call_pct move the levels that act", async () => {
    const { token, id } = await demo(400);
    feed.set("EURUSD", 1.1);
    const o = await post("/v1/api/forex/submit", market(), token);
    expect(o.env.code).toBe(1);
    feed.set("EURUSD", 1.08); // level 181.6 %
    expect(up.ctx.engine!.accountValues(id).marginCall).toBe(false);
    await setSetting("risk.margin_call_pct", "200");
    await setSetting("risk.stop_out_pct", "190");
    try {
      expect(up.ctx.engine!.accountValues(id).marginCall).toBe(true);
      expect((await deals(token, 1)).length).toBe(1);
      feed.set("EURUSD", 1.0801); // 182.5 % <= 190 %: stop-out
      const h = await deals(token, 3);
      expect(h.find((x) => x.Id === o.env.data.Id)).toMatchObject({ CloseReason: "stop_out" });
      expect(await deals(token, 1)).toEqual([]);
    } finally {
      // Stop-out first: the margin call level must stay above it at every step.
      await setSetting("risk.stop_out_pct", "50");
      await setSetting("risk.margin_call_pct", "100");
    }
  });
});

describe("idempotency keys: another body with the same key answers 422 and changes nothing", () => {
  it("cancel_trade", async () => {
    const a = await demo();
    const b = await demo();
    feed.set("EURUSD", 1.1);
    const pend = (t: string) =>
      post("/v1/api/forex/submit", market({ status: 0, target_price: "1.05" }), t);
    const p1 = (await pend(a.token)).env.data.Id;
    const p2 = (await pend(a.token)).env.data.Id;
    const pb = (await pend(b.token)).env.data.Id;
    const c1 = await post("/v1/api/forex/cancel_trade", { id: p1 }, a.token, "kc");
    expect(c1.env).toMatchObject({ code: 1, data: { Id: p1, Status: 4 } });
    expect(await post("/v1/api/forex/cancel_trade", { id: p1 }, a.token, "kc")).toEqual(c1);
    const other = await post("/v1/api/forex/cancel_trade", { id: p2 }, a.token, "kc");
    expect(other.status).toBe(422);
    expect(other.env.code).toBe(0);
    expect((await deals(a.token, 0)).map((x) => x.Id)).toEqual([p2]);
    // B's "kc" is B's own.
    const cb = await post("/v1/api/forex/cancel_trade", { id: pb }, b.token, "kc");
    expect(cb.env).toMatchObject({ code: 1, data: { Id: pb, Status: 4 } });
  });

  it("set_stop_price", async () => {
    const a = await demo();
    feed.set("EURUSD", 1.1);
    const o = (await post("/v1/api/forex/submit", market(), a.token)).env.data.Id;
    const s1 = await post(
      "/v1/api/forex/set_stop_price",
      { id: o, target_profit_price: "1.2" },
      a.token,
      "ks",
    );
    expect(s1.env.code).toBe(1);
    const s2 = await post(
      "/v1/api/forex/set_stop_price",
      { id: o, target_profit_price: "1.2", stop_loss_price: "1.0" },
      a.token,
      "ks",
    );
    expect(s2.status).toBe(422);
    const [held] = await deals(a.token, 1);
    expect(held).toMatchObject({ Id: o, TargetProfitPrice: 1.2 });
    expect(held.TargetLossPrice === 0 || held.TargetLossPrice === null).toBe(true);
  });

  it("resetForexDemoAccount", async () => {
    const a = await demo(5000);
    feed.set("EURUSD", 1.1);
    const o = (await post("/v1/api/forex/submit", market(), a.token, "kr")).env.data.Id;
    const n = ledgerRows(a.id);
    const r = await post("/v1/api/main/user/resetForexDemoAccount", {}, a.token, "kr");
    expect(r.status).toBe(422);
    expect(ledgerRows(a.id)).toBe(n);
    expect((await deals(a.token, 1)).map((x) => x.Id)).toEqual([o]);
  });
});
