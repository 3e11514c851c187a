/**
 * The visitors' page cache (app/utils/visitor-page-cache.server.ts), mounted as server.ts mounts it:
 * behind the compression middleware and the per-response nonce, in front of a page handler that
 * records its CSRF token and form key as the app's do and writes its page in pieces, later, as a
 * streamed render does. The clock is the test's own.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  MAX_ENTRIES,
  markUncacheable,
  recordVolatile,
  visitorPageCache,
} from "~/utils/visitor-page-cache.server";

const TTL_MS = 1000;
let nowMs = 0;
let renders = 0;
/** The next render breaks off after its first piece (a connection or stream that failed). */
let breakNext = false;
let server: http.Server;
let base: string;

/** The fake CSRF scheme: the cookie holds the token; a visitor without one gets a new one. */
async function commitCsrf(cookie: string): Promise<readonly [string, string | null]> {
  const kept = /(?:^|; )csrf=([\w-]+)/.exec(cookie)?.[1];
  if (kept) return [kept, null];
  const token = crypto.randomBytes(32).toString("base64url");
  return [token, `csrf=${token}; Path=/; HttpOnly`];
}

/** A page as the app renders one: its values recorded, written in pieces after a wait. */
async function page(req: express.Request, res: express.Response) {
  renders += 1;
  const n = renders;
  const [token, setCookie] = await commitCsrf(req.headers.cookie ?? "");
  recordVolatile(token, "csrf");
  const key = crypto.randomUUID();
  recordVolatile(key, "key");
  if (setCookie) res.append("Set-Cookie", setCookie);
  if (req.query.personal) markUncacheable();
  if (req.query.extra) res.append("Set-Cookie", "lang=de; Path=/");
  const status = req.query.status ? Number(req.query.status) : 200;
  const lang = /lang=(\w+)/.exec(req.headers.cookie ?? "")?.[1] ?? "en";
  res.status(status).setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "private, no-store");
  const nonce = res.locals.nonce as string;
  res.write(`<html lang="${lang}"><script nonce="${nonce}">boot()</script>`);
  await new Promise((r) => setTimeout(r, 5));
  if (breakNext) {
    breakNext = false;
    res.destroy();
    return;
  }
  res.write(`<form><input name="csrf" value="${token}"><input name="key" value="${key}"></form>`);
  // Longer than the compression middleware's threshold (1 KB), as every page is.
  res.end(
    `<p id="render">${n}</p><p>${"EURUSD 1.08 ".repeat(120)}</p><script nonce="${nonce}">{"csrf":"${token}"}</script></html>`,
  );
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  nonce: string;
}

/** A GET with these request headers; the nonce is the one the server gave this response. */
function get(urlPath: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${urlPath}`, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          nonce: String(res.headers["x-nonce"]),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const values = (a: Answer) => ({
  nonces: [...a.body.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]),
  csrf: [...a.body.matchAll(/name="csrf" value="([^"]+)"|"csrf":"([^"]+)"/g)].map(
    (m) => m[1] ?? m[2],
  ),
  key: /name="key" value="([^"]+)"/.exec(a.body)?.[1],
  render: Number(/<p id="render">(\d+)<\/p>/.exec(a.body)?.[1]),
});

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.nonce = crypto.randomBytes(16).toString("base64");
    res.setHeader("X-Nonce", res.locals.nonce as string);
    next();
  });
  app.use(compression());
  app.use(
    visitorPageCache({
      ttlMs: TTL_MS,
      paths: ["/", "/trade"],
      csrfCookieName: "csrf",
      bypassCookieNames: ["session"],
      commitCsrf,
      now: () => nowMs,
    }),
  );
  app.all("*", (req, res, next) => void page(req, res).catch(next));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  // Every test starts after every page kept by the one before has expired.
  nowMs += 10 * TTL_MS;
});

describe("a visitor's page answered from the cache", () => {
  it("is the kept page with this answer's own nonce, CSRF token and form key", async () => {
    const first = await get("/trade?code=EURUSD");
    const second = await get("/trade?code=EURUSD");
    expect(first.headers["x-page-cache"]).toBeUndefined();
    expect(second.headers["x-page-cache"]).toBe("hit");
    const a = values(first);
    const b = values(second);
    expect(b.render).toBe(a.render);
    expect(a.nonces).toEqual([first.nonce, first.nonce]);
    expect(b.nonces).toEqual([second.nonce, second.nonce]);
    expect(second.nonce).not.toBe(first.nonce);
    expect(b.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.key).not.toBe(a.key);
    // A first visit each: a new token, in the page and in the cookie that comes with it.
    expect(b.csrf[0]).not.toBe(a.csrf[0]);
    expect(new Set(b.csrf).size).toBe(1);
    expect(String(second.headers["set-cookie"])).toContain(`csrf=${b.csrf[0]};`);
    expect(second.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(second.headers["cache-control"]).toBe("private, no-store");
  });

  it("carries a returning visitor's own token and sets no cookie", async () => {
    await get("/trade?code=GBPUSD");
    const mine = crypto.randomBytes(32).toString("base64url");
    const again = await get("/trade?code=GBPUSD", { cookie: `csrf=${mine}` });
    expect(again.headers["x-page-cache"]).toBe("hit");
    expect(new Set(values(again).csrf)).toEqual(new Set([mine]));
    expect(again.headers["set-cookie"]).toBeUndefined();
  });

  it("is compressed for a browser that takes it, like a rendered page", async () => {
    await get("/");
    const zipped = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${base}/`, { headers: { "accept-encoding": "gzip" } }, resolve),
    );
    zipped.resume();
    expect(zipped.headers["x-page-cache"]).toBe("hit");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
  });
});

describe("what decides which kept page a visitor gets", () => {
  it("the address, the cookies other than the token, and the language asked for", async () => {
    const en = await get("/trade?code=USDJPY");
    const de = await get("/trade?code=USDJPY", { cookie: "lang=de" });
    expect(de.headers["x-page-cache"]).toBeUndefined();
    expect(de.body).toContain('<html lang="de">');
    const other = await get("/trade?code=USDJPY&period=1h");
    expect(other.headers["x-page-cache"]).toBeUndefined();
    const accept = await get("/trade?code=USDJPY", { "accept-language": "fr" });
    expect(accept.headers["x-page-cache"]).toBeUndefined();
    // The token's cookie is not part of it.
    const withToken = await get("/trade?code=USDJPY", { cookie: "csrf=abc" });
    expect(withToken.headers["x-page-cache"]).toBe("hit");
    expect(values(withToken).render).toBe(values(en).render);
    const deAgain = await get("/trade?code=USDJPY", { cookie: "csrf=abc; lang=de" });
    expect(deAgain.headers["x-page-cache"]).toBe("hit");
    expect(deAgain.body).toContain('<html lang="de">');
  });

  it("a page is rendered again once PAGE_CACHE_MS has passed", async () => {
    const first = await get("/");
    nowMs += TTL_MS - 1;
    expect((await get("/")).headers["x-page-cache"]).toBe("hit");
    nowMs += 1;
    const later = await get("/");
    expect(later.headers["x-page-cache"]).toBeUndefined();
    expect(values(later).render).toBeGreaterThan(values(first).render);
  });

  it(`at most ${MAX_ENTRIES} pages are kept: the oldest go first`, async () => {
    for (let i = 0; i <= MAX_ENTRIES; i++) await get(`/trade?code=X${i}`);
    expect((await get(`/trade?code=X${MAX_ENTRIES}`)).headers["x-page-cache"]).toBe("hit");
    expect((await get("/trade?code=X0")).headers["x-page-cache"]).toBeUndefined();
  });
});

describe("what is never kept", () => {
  const twice = async (urlPath: string, headers: Record<string, string> = {}) => {
    const first = await get(urlPath, headers);
    const second = await get(urlPath, headers);
    return { first, second };
  };

  it("a render marked as someone's own (signed in, a one-time message)", async () => {
    const { second } = await twice("/trade?personal=1");
    expect(second.headers["x-page-cache"]).toBeUndefined();
  });

  it("a request with a session cookie, which is not even looked up", async () => {
    await get("/trade?code=AUDUSD");
    const signed = await get("/trade?code=AUDUSD", { cookie: "session=s1" });
    expect(signed.headers["x-page-cache"]).toBeUndefined();
  });

  it("an answer that is not a 200 page, or that sets another cookie", async () => {
    for (const q of ["status=404", "status=503", "extra=1"]) {
      const { first, second } = await twice(`/trade?${q}`);
      expect(second.headers["x-page-cache"], q).toBeUndefined();
      expect(values(second).render, q).toBeGreaterThan(values(first).render);
    }
  });

  it("a page whose stream broke off", async () => {
    breakNext = true;
    await expect(get("/trade?code=EURCHF")).rejects.toThrow();
    const next = await get("/trade?code=EURCHF");
    expect(next.headers["x-page-cache"]).toBeUndefined();
    expect(next.body).toMatch(/<\/html>$/);
  });

  it("other paths and other methods", async () => {
    const { second } = await twice("/login");
    expect(second.headers["x-page-cache"]).toBeUndefined();
    await get("/");
    const head = await new Promise<http.IncomingMessage>((resolve) =>
      http.request(`${base}/`, { method: "HEAD" }, resolve).end(),
    );
    head.resume();
    expect(head.headers["x-page-cache"]).toBeUndefined();
  });
});
