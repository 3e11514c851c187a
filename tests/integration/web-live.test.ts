/**
 * GET /live through the production server (server.ts serves it with the app's plain Node handler):
 * an accepted stream starts with its `ready` event and the snapshot, a browser session beyond
 * LIVE_MAX_PER_SESSION gets 429 with a translated message and Retry-After, and a closed stream gives
 * its slot back.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, keepCookies, startWeb, type WebServer } from "./web-harness";

let web: WebServer;

beforeAll(async () => {
  web = await startWeb({ env: { STRATEGIES: "off", LIVE_MAX_PER_SESSION: "2" } });
}, 120_000);

afterAll(async () => {
  await web?.close();
});

interface Stream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Resolves with everything received once `text` contains `want`. */
  until(want: string): Promise<string>;
  close(): void;
}

function open(path: string, cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${web.base}${path}`, { headers: { cookie } }, (res) => {
      let text = "";
      const waiters: { want: string; done: (t: string) => void }[] = [];
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        text += d;
        for (const w of [...waiters])
          if (text.includes(w.want)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.done(text);
          }
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        until: (want) =>
          new Promise((done, fail) => {
            if (text.includes(want)) return done(text);
            waiters.push({ want, done });
            setTimeout(() => fail(new Error(`no ${want} in: ${text.slice(0, 500)}`)), 10_000);
          }),
        close: () => req.destroy(),
      });
    });
    req.on("error", reject);
  });
}

describe("/live", () => {
  it("streams ready and the snapshot, refuses a session's third stream, and frees a closed one's slot", async () => {
    const jar = new Map<string, string>();
    keepCookies(await fetch(`${web.base}/?lng=de`), jar);
    const cookie = cookieHeader(jar);

    const first = await open("/live?topics=DAY_MARKET", cookie);
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(first.headers["content-encoding"]).toBeUndefined();
    const seen = await first.until("event: DAY_MARKET");
    expect(seen).toMatch(/^event: ready\ndata: \{"topics":\["DAY_MARKET"\]\}/);
    const second = await open("/live?topics=DAY_MARKET", cookie);
    expect(second.status).toBe(200);

    const third = await fetch(`${web.base}/live?topics=DAY_MARKET`, { headers: { cookie } });
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("30");
    const body = (await third.json()) as { code: number; msg: string };
    expect(body.code).toBe(429);
    expect(body.msg).not.toMatch(/too_many/);
    expect(body.msg).toMatch(/2/);

    first.close();
    // The slot comes back once the server has seen the connection close.
    let again: Stream | null = null;
    for (let i = 0; i < 50 && !again; i++) {
      const s = await open("/live?topics=DAY_MARKET", cookie);
      if (s.status === 200) again = s;
      else {
        s.close();
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(again).not.toBeNull();
    await again!.until("event: ready");
    again!.close();
    second.close();
  });

  it("refuses an unknown topic with 400 and a message", async () => {
    const res = await fetch(`${web.base}/live?topics=NOPE`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { msg: string }).msg.length).toBeGreaterThan(0);
  });
});
