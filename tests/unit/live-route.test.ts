/**
 * The /live route's own bounds, with the process's bridge replaced by one whose upstream is absent:
 * a stream whose connection holds more than LIVE_MAX_BUFFER_BYTES unsent ends, and the per-session
 * and per-address stream limits answer 429 with a translated message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LiveBridge, installBridge } from "../../app/live/bridge.server";
import { StreamLimits } from "../../app/live/limits.server";
import { loader } from "../../app/routes/live";
import { env } from "../../app/utils/env.server";

let bridge: LiveBridge;

beforeAll(() => {
  // Port 9 on loopback: nothing listens, so the bridge keeps retrying and streams get heartbeats only.
  bridge = new LiveBridge({ wsUrl: "ws://127.0.0.1:9/v1/ws", heartbeatMs: 20, lingerMs: 0 });
  installBridge(bridge);
});

afterAll(() => bridge.close());

function liveRequest(ip: string, cookie?: string): Request {
  return new Request("http://tradepost.test/live?topics=DAY_MARKET", {
    headers: { "x-tradepost-client-ip": ip, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

async function open(ip: string, context: Record<string, unknown> = {}, cookie?: string) {
  const res = (await loader({
    request: liveRequest(ip, cookie),
    context: context as never,
    params: {},
  })) as Response;
  return res;
}

async function readUntilDone(res: Response, limitMs: number): Promise<number> {
  const reader = res.body!.getReader();
  const end = Date.now() + limitMs;
  let bytes = 0;
  while (Date.now() < end) {
    const r = await Promise.race([
      reader.read(),
      new Promise<null>((ok) => setTimeout(() => ok(null), end - Date.now())),
    ]);
    if (r === null) break;
    if (r.done) return bytes;
    bytes += r.value.byteLength;
  }
  throw new Error(`the stream was still open after ${limitMs} ms (${bytes} bytes read)`);
}

describe("/live stream bounds", () => {
  it("drops a stream whose connection leaves more than the buffer bound unsent", async () => {
    let unsent = 0;
    const res = await open("192.0.2.1", { liveBufferedBytes: () => unsent });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("event: ready");
    expect(bridge.stats().streams).toBe(1);
    // The browser stops reading: the connection's buffer passes the bound; the next write ends it.
    unsent = env().liveMaxBufferBytes + 1;
    reader.releaseLock();
    await readUntilDone(res, 2000);
    expect(bridge.stats().streams).toBe(0);
  });

  it("keeps a stream whose browser reads, however long it runs", async () => {
    const res = await open("192.0.2.2", { liveBufferedBytes: () => 0 });
    const reader = res.body!.getReader();
    let heartbeats = 0;
    while (heartbeats < 5) {
      const r = await reader.read();
      expect(r.done).toBe(false);
      if (new TextDecoder().decode(r.value).startsWith(": hb")) heartbeats++;
    }
    expect(bridge.stats().streams).toBe(1);
    await reader.cancel();
    expect(bridge.stats().streams).toBe(0);
  });

  it("answers 429 with a translated message beyond the streams one address may hold", async () => {
    const max = env().liveMaxPerIp;
    const held: Response[] = [];
    for (let i = 0; i < max; i++) held.push(await open("198.51.100.7"));
    expect(held.every((r) => r.status === 200)).toBe(true);
    const refused = await open("198.51.100.7");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = (await refused.json()) as { code: number; msg: string };
    expect(body.code).toBe(429);
    expect(body.msg).toContain(String(max));
    expect(body.msg).not.toMatch(/too_many/);
    // Another address is not affected; a closed stream frees its slot.
    const other = await open("198.51.100.8");
    expect(other.status).toBe(200);
    await other.body!.cancel();
    await held.pop()!.body!.cancel();
    const again = await open("198.51.100.7");
    expect(again.status).toBe(200);
    for (const r of [...held, again]) await r.body!.cancel();
    expect(bridge.stats().streams).toBe(0);
  });

  it("answers 429 beyond the streams one session may hold", async () => {
    const max = env().liveMaxPerSession;
    const cookie = "tp_csrf=abc123";
    const held: Response[] = [];
    for (let i = 0; i < max; i++) held.push(await open("203.0.113.9", {}, cookie));
    const refused = await open("203.0.113.9", {}, cookie);
    expect(refused.status).toBe(429);
    // A browser without that session, from the same address, still gets one.
    const other = await open("203.0.113.9", {}, "tp_csrf=other");
    expect(other.status).toBe(200);
    for (const r of [...held, other]) await r.body!.cancel();
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
