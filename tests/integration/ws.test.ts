/** The websocket protocol of /v1/ws with a real client against a fresh upstream (real simulator). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Upstream } from "../../upstream/app.js";
import { startUpstream, type Server } from "./upstream-harness.js";
import { issueToken } from "../../upstream/platform/http/auth.js";
import { Client } from "./ws-client.js";
import { PERIODS } from "@contract/constants";

let server: Server;
let up: Upstream;
let url: string;
let instruments: number;

beforeAll(async () => {
  server = await startUpstream({
    tmpPrefix: "tp-ws-",
    config: { marketAlwaysOpen: true, tickMs: 100 },
  });
  up = server.up;
  url = server.base.replace(/^http/, "ws") + "/v1/ws";
  instruments = (
    up.ctx.db.prepare("SELECT COUNT(*) n FROM instruments WHERE enabled = 1").get() as { n: number }
  ).n;
});
afterAll(async () => {
  await server?.close();
});

describe("websocket /v1/ws", () => {
  it("answers ping with pong", async () => {
    const c = await Client.open(url);
    c.send({ op: "ping" });
    const pong = await c.next((m) => m.op === "pong");
    expect(typeof pong.ts).toBe("number");
    expect(Math.abs(Date.now() - pong.ts!)).toBeLessThan(5000);
    c.close();
  });

  it("DAY_MARKET: a snapshot of every instrument, then the quotes that changed in each tick", async () => {
    const c = await Client.open(url);
    const from = c.msgs.length;
    c.send({ op: "subscribe", topics: ["DAY_MARKET"] });
    const ack = await c.next((m) => m.op === "subscribe", 3000, from);
    expect(ack.code).toBe(1);
    const snap = await c.next((m) => m.op === "push" && m.topic === "DAY_MARKET", 3000, from);
    expect(snap.data).toHaveLength(instruments);
    const item = snap.data.find((q: any) => q.Code === "EURUSD");
    expect(Object.keys(item).sort()).toEqual(
      [
        "Change",
        "Close",
        "Code",
        "High",
        "Id",
        "Low",
        "MarketStatus",
        "Open",
        "Time",
        "Volume",
      ].sort(),
    );
    expect(item.MarketStatus).toBe(1);
    const snapIdx = c.msgs.indexOf(snap);
    const tick = await c.next(
      (m) => m.op === "push" && m.topic === "DAY_MARKET",
      3000,
      snapIdx + 1,
    );
    expect(tick.data.length).toBeGreaterThan(0);
    const later = tick.data.find((q: any) => q.Id === item.Id);
    expect(later.Time).toBeGreaterThan(item.Time);
    expect(later.Low).toBeLessThanOrEqual(later.Close);
    expect(later.High).toBeGreaterThanOrEqual(later.Close);

    // Unsubscribe stops the pushes. A topic that is pushed on every tick too (KLINE.BTCUSD) proves
    // that ticks went on after the acknowledgement: two of its pushes after it span a whole tick, on
    // which a DAY_MARKET push would have come first on this one ordered socket.
    c.send({ op: "subscribe", topics: ["KLINE.BTCUSD"] });
    await c.next((m) => m.op === "push" && m.topic === "KLINE.BTCUSD");
    c.send({ op: "unsubscribe", topics: ["DAY_MARKET"] });
    const unsubscribed = await c.next((m) => m.op === "unsubscribe");
    const n = c.msgs.indexOf(unsubscribed) + 1;
    const k1 = await c.next((m) => m.op === "push" && m.topic === "KLINE.BTCUSD", 3000, n);
    await c.next(
      (m) => m.op === "push" && m.topic === "KLINE.BTCUSD",
      3000,
      c.msgs.indexOf(k1) + 1,
    );
    expect(c.msgs.slice(n).filter((m) => m.topic === "DAY_MARKET")).toEqual([]);
    c.close();
  });

  it("KLINE.{code}: the forming candle of every period, as a snapshot then on every tick", async () => {
    const c = await Client.open(url);
    c.send({ op: "subscribe", topics: ["KLINE.BTCUSD"] });
    const snap = await c.next((m) => m.op === "push" && m.topic === "KLINE.BTCUSD");
    expect(snap.data.map((k: any) => k.period)).toEqual([...PERIODS]);
    for (const k of snap.data) {
      expect(Object.keys(k).sort()).toEqual([
        "Close",
        "High",
        "Low",
        "Open",
        "Time",
        "Volume",
        "period",
      ]);
      expect(k.High).toBeGreaterThanOrEqual(Math.max(k.Open, k.Close));
      expect(k.Low).toBeLessThanOrEqual(Math.min(k.Open, k.Close));
    }
    const next = await c.next(
      (m) => m.op === "push" && m.topic === "KLINE.BTCUSD",
      3000,
      c.msgs.indexOf(snap) + 1,
    );
    const closes = new Set(next.data.map((k: any) => k.Close));
    expect(closes.size).toBe(1); // every period's forming candle closes at the same last price
    expect(next.data[0].Time % 60_000).toBe(0);
    // Only the subscribed instrument's candles arrive.
    expect(c.msgs.filter((m) => m.op === "push" && m.topic !== "KLINE.BTCUSD")).toEqual([]);
    c.close();
  });

  it("refuses private topics without login (code 999) and accepts them after login", async () => {
    const c = await Client.open(url, "fr");
    c.send({ op: "subscribe", topics: ["FOREX_TRADE"] });
    const refused = await c.next((m) => m.op === "subscribe");
    expect(refused.code).toBe(999);
    expect(refused.msg).toBeTruthy();

    c.send({ op: "login", token: "0".repeat(32) });
    expect((await c.next((m) => m.op === "login")).code).toBe(999);

    const db = up.ctx.db;
    const uid = Number(
      db
        .prepare(
          "INSERT INTO users (uid, email, invite_code, created_at) VALUES ('ws1', 'ws1@example.com', 'WSINV1', ?)",
        )
        .run(Date.now()).lastInsertRowid,
    );
    const token = issueToken(db, uid, 3600, 3600);
    const from = c.msgs.length;
    c.send({ op: "login", token });
    expect((await c.next((m) => m.op === "login", 3000, from)).code).toBe(1);
    const from2 = c.msgs.length;
    c.send({ op: "subscribe", topics: ["FOREX_CLOSED"] });
    expect((await c.next((m) => m.op === "subscribe", 3000, from2)).code).toBe(1);
    c.close();
  });

  it("refuses malformed messages and unknown topics with a message instead of closing", async () => {
    const c = await Client.open(url);
    c.ws.send("not json");
    expect((await c.next((m) => m.op === "error")).code).toBe(0);
    c.send({ op: "subscribe", topics: ["NOT A TOPIC"] });
    expect((await c.next((m) => m.op === "subscribe")).code).toBe(0);
    c.send({ op: "ping" });
    await c.next((m) => m.op === "pong");
    c.close();
  });
});
