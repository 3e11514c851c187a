/**
 * The /live handler's own bounds (app/live/node.server.ts, what server.ts serves /live with), with
 * the process's bridge replaced by one whose upstream is absent and the connection by a stand-in
 * whose unsent bytes the test sets: a stream whose connection holds more than LIVE_MAX_BUFFER_BYTES
 * unsent ends, and the per-session and per-address stream limits answer 429 with a translated
 * message.
 */
import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LiveBridge, installBridge } from "../../app/live/bridge.server";
import { StreamLimits } from "../../app/live/limits.server";
import { serveLive } from "../../app/live/node.server";
import { env } from "../../app/utils/env.server";
import { until } from "../support/wait";

let bridge: LiveBridge;

beforeAll(() => {
  // Port 9 on loopback: nothing listens, so the bridge keeps retrying and streams get heartbeats only.
  bridge = new LiveBridge({ wsUrl: "ws://127.0.0.1:9/v1/ws", heartbeatMs: 20, lingerMs: 0 });
  installBridge(bridge);
});

afterAll(() => bridge.close());

/** A response and its connection: what the handler wrote, and the bytes the socket holds unsent. */
class Connection extends EventEmitter {
  statusCode = 0;
  readonly headers = new Map<string, string>();
  ended = false;
  body = "";
  useChunkedEncodingByDefault = true;
  shouldKeepAlive = true;
  readonly destroyed = false;
  readonly socket = {
    destroyed: false,
    writableLength: 0,
    write: (chunk: Uint8Array) => {
      this.body += new TextDecoder().decode(chunk);
      return true;
    },
  };

  setHeader(name: string, value: string) {
    this.headers.set(name.toLowerCase(), value);
  }
  writeHead(status: number, headers: Record<string, string>) {
    this.statusCode = status;
    for (const [n, v] of Object.entries(headers)) this.setHeader(n, v);
  }
  flushHeaders() {}
  end(body?: Uint8Array) {
    if (body) this.body += new TextDecoder().decode(body);
    this.ended = true;
  }
  /** The browser goes away. */
  close() {
    this.socket.destroyed = true;
    this.emit("close");
  }
}

async function open(ip: string, cookie?: string): Promise<Connection> {
  const req = {
    url: "/live?topics=DAY_MARKET",
    headers: { host: "tradepost.test", ...(cookie ? { cookie } : {}) },
  };
  const conn = new Connection();
  await serveLive(req as unknown as IncomingMessage, conn as unknown as ServerResponse, ip);
  return conn;
}

describe("/live stream bounds", () => {
  it("drops a stream whose connection leaves more than the buffer bound unsent", async () => {
    const conn = await open("192.0.2.1");
    expect(conn.statusCode).toBe(200);
    expect(conn.headers.get("content-type")).toContain("text/event-stream");
    expect(conn.body).toContain("event: ready");
    expect(bridge.stats().streams).toBe(1);
    // The browser stops reading: the connection's buffer passes the bound; the next write ends it.
    conn.socket.writableLength = env().liveMaxBufferBytes + 1;
    await until("the stream ends", () => conn.ended);
    expect(bridge.stats().streams).toBe(0);
    conn.close();
  });

  it("keeps a stream whose browser reads, however long it runs", async () => {
    const conn = await open("192.0.2.2");
    await until("five heartbeats", () => (conn.body.match(/^: hb/gm) ?? []).length >= 5);
    expect(conn.ended).toBe(false);
    expect(bridge.stats().streams).toBe(1);
    conn.close();
    expect(bridge.stats().streams).toBe(0);
  });

  it("answers 429 with a translated message beyond the streams one address may hold", async () => {
    const max = env().liveMaxPerIp;
    const held: Connection[] = [];
    for (let i = 0; i < max; i++) held.push(await open("198.51.100.7"));
    expect(held.every((c) => c.statusCode === 200)).toBe(true);
    const refused = await open("198.51.100.7");
    expect(refused.statusCode).toBe(429);
    expect(refused.ended).toBe(true);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = JSON.parse(refused.body) as { code: number; msg: string };
    expect(body.code).toBe(429);
    expect(body.msg).toContain(String(max));
    expect(body.msg).not.toMatch(/too_many/);
    // Another address is not affected; a closed stream frees its slot.
    const other = await open("198.51.100.8");
    expect(other.statusCode).toBe(200);
    other.close();
    held.pop()!.close();
    const again = await open("198.51.100.7");
    expect(again.statusCode).toBe(200);
    for (const c of [...held, again]) c.close();
    expect(bridge.stats().streams).toBe(0);
  });

  it("answers 429 beyond the streams one session may hold", async () => {
    const max = env().liveMaxPerSession;
    const cookie = "tp_csrf=abc123";
    const held: Connection[] = [];
    for (let i = 0; i < max; i++) held.push(await open("203.0.113.9", cookie));
    const refused = await open("203.0.113.9", cookie);
    expect(refused.statusCode).toBe(429);
    // A browser without that session, from the same address, still gets one.
    const other = await open("203.0.113.9", "tp_csrf=other");
    expect(other.statusCode).toBe(200);
    for (const c of [...held, other]) c.close();
  });
});

describe("StreamLimits", () => {
  it("counts each admitted stream once per session and address, until released", () => {
    const l = new StreamLimits({ maxPerSession: 2, maxPerIp: 3 });
    const a = l.admit("ip", "s1");
    const b = l.admit("ip", "s1");
    expect(a.ok && b.ok).toBe(true);
    expect(l.admit("ip", "s1")).toEqual({ ok: false, reason: "session", limit: 2 });
    const c = l.admit("ip", null);
    expect(c.ok).toBe(true);
    expect(l.admit("ip", "s2")).toEqual({ ok: false, reason: "ip", limit: 3 });
    if (a.ok) {
      a.release();
      a.release();
    }
    expect(l.count("session", "s1")).toBe(1);
    expect(l.count("ip", "ip")).toBe(2);
    expect(l.admit("ip", "s1").ok).toBe(true);
  });

  it("has no bound where the bound is 0", () => {
    const l = new StreamLimits({ maxPerSession: 0, maxPerIp: 0 });
    for (let i = 0; i < 1000; i++) expect(l.admit("ip", "s").ok).toBe(true);
  });
});
