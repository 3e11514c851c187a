/**
 * The real server.ts over HTTP: where sign-in redirects to, the session secret it keeps, /healthz
 * the headers of every response, and where desktop visitors are sent.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cookieHeader,
  demoSignIn,
  keepCookies,
  postForm,
  startWeb,
  type WebServer,
} from "./web-harness";

let web: WebServer;

beforeAll(async () => {
  // Visitors' pages are kept for ten minutes here, so that a page asked for twice is surely kept.
  web = await startWeb({ env: { PAGE_CACHE_MS: "600000" } });
}, 180_000);

afterAll(async () => {
  await web?.close();
}, 30_000);

describe("redirect after sign-in", () => {
  it("follows same-origin paths only; tabs, newlines and backslashes go to /", async () => {
    const ok = await demoSignIn(web.base, encodeURIComponent("/user?x=1"));
    expect(ok.res.status).toBe(302);
    expect(ok.res.headers.get("location")).toBe("/user?x=1");

    for (const from of ["/%09/evil.example", "/%0A/x", "/%0D%0A/x", "/%5C/evil.example"]) {
      const { res, jar } = await demoSignIn(web.base, from);
      expect(res.status, from).toBe(302);
      expect(res.headers.get("location"), from).toBe("/");
      // Already signed in: the login page's loader redirects to `from` as well.
      const again = await fetch(`${web.base}/login?from=${from}`, {
        redirect: "manual",
        headers: { cookie: cookieHeader(jar) },
      });
      expect(again.status, from).toBe(302);
      expect(again.headers.get("location"), from).toBe("/");
    }
  }, 60_000);
});

describe("session secret without SESSION_SECRET", () => {
  it("is generated at the first start in DATA_DIR (mode 600), and the start says so", async () => {
    const file = path.join(web.dataDir, "session-secret");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8").trim().length).toBeGreaterThanOrEqual(32);
    await web.waitForLine(/generated a new session secret/, 1000);
  });
});

describe("health and headers", () => {
  it("/healthz answers {ok:true} and nothing about the configuration", async () => {
    const res = await fetch(`${web.base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("sends a Permissions-Policy refusing unused browser features on every response", async () => {
    for (const p of ["/healthz", "/", "/login", "/manifest.json", "/no-such-page", "/live.json"]) {
      const res = await fetch(`${web.base}${p}`, { redirect: "manual" });
      await res.arrayBuffer();
      const policy = res.headers.get("permissions-policy") ?? "";
      for (const feature of ["camera", "microphone", "geolocation", "payment"])
        expect(policy, `${p} ${feature}`).toContain(`${feature}=()`);
    }
  });
});

describe("desktop visitors", () => {
  const WINDOWS =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
  const IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

  /** A GET sent with its own Host header (fetch may not set one). */
  const get = (p: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const u = new URL(web.base);
      const req = http.get(
        { host: u.hostname, port: u.port, path: p, headers: { accept: "text/html", ...headers } },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        },
      );
      req.on("error", reject);
    });

  it("sends a desktop browser on m.host to pc.host, keeping the path", async () => {
    const r = await get("/trade?code=EURUSD", { host: "m.tradepost.test", "user-agent": WINDOWS });
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe("http://pc.tradepost.test/trade?code=EURUSD");
    expect(String(r.headers.vary)).toMatch(/User-Agent/i);
  });

  it("leaves phones, the console and a host without subdomain on the mobile site", async () => {
    expect((await get("/", { host: "m.tradepost.test", "user-agent": IPHONE })).status).toBe(200);
    const console = await get("/operator/login", {
      host: "m.tradepost.test",
      "user-agent": WINDOWS,
    });
    expect(console.status).toBe(200);
    const bare = await get("/", { host: new URL(web.base).host, "user-agent": WINDOWS });
    expect(bare.status).toBe(200);
  });

  it("keeps a visitor who chose the mobile site there", async () => {
    const choose = await get("/trade?view=mobile", {
      host: "m.tradepost.test",
      "user-agent": WINDOWS,
    });
    expect(choose.status).toBe(302);
    expect(choose.headers.location).toBe("/trade");
    const cookie = String(choose.headers["set-cookie"]?.[0] ?? "");
    expect(cookie).toMatch(/^tp_view=mobile;/);
    expect(cookie).toMatch(/Max-Age=31536000/);
    const after = await get("/trade", {
      host: "m.tradepost.test",
      "user-agent": WINDOWS,
      cookie: cookie.split(";")[0],
    });
    expect(after.status).toBe(200);
  });
});

describe("visitors' page cache", () => {
  /** A page as a browser without cookies gets it: its answer, body, cookie jar and CSP nonce. */
  const visit = async (p: string, jar = new Map<string, string>()) => {
    const res = await fetch(`${web.base}${p}`, { headers: { cookie: cookieHeader(jar) } });
    keepCookies(res, jar);
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    return { res, html, jar, nonce };
  };
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  const keysOf = (html: string) =>
    new Set(html.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g));

  it("answers the second visitor of /trade from the kept page, with their own nonce, token and keys", async () => {
    const a = await visit("/trade?code=EURUSD");
    const b = await visit("/trade?code=EURUSD");
    expect(a.res.headers.get("x-page-cache")).toBeNull();
    expect(b.res.headers.get("x-page-cache")).toBe("hit");
    // Every script carries this answer's nonce, which its CSP allows.
    for (const v of [a, b]) {
      const nonces = new Set([...v.html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]));
      expect(nonces).toEqual(new Set([v.nonce]));
    }
    expect(b.nonce).not.toBe(a.nonce);
    // The order form's key is not another visitor's.
    expect(keysOf(b.html).size).toBeGreaterThan(0);
    for (const k of keysOf(b.html)) expect(a.html).not.toContain(k);
    // Each visitor's token works with their own cookie only.
    const tokenA = csrfOf(a.html)!;
    const tokenB = csrfOf(b.html)!;
    expect(tokenB).not.toBe(tokenA);
    expect(b.html.split(tokenB).length).toBeGreaterThan(2);
    const login = {
      intent: "login",
      login_type: "email",
      account: "nobody@example.test",
      password: "wrong-password-1",
    };
    expect((await postForm(web.base, "/login", { ...login, csrf: tokenB }, b.jar)).status).toBe(
      400,
    );
    expect((await postForm(web.base, "/login", { ...login, csrf: tokenA }, b.jar)).status).toBe(
      403,
    );
  }, 30_000);

  it("never keeps a signed-in trader's page, nor answers one from the cache", async () => {
    const { jar } = await demoSignIn(web.base, "%2F");
    const own = await visit("/trade?code=GBPUSD", jar);
    expect(own.res.headers.get("x-page-cache")).toBeNull();
    const again = await visit("/trade?code=GBPUSD", jar);
    expect(again.res.headers.get("x-page-cache")).toBeNull();
    // The next visitor of the same page gets a page rendered for a visitor.
    const visitor = await visit("/trade?code=GBPUSD");
    expect(visitor.res.headers.get("x-page-cache")).toBeNull();
    // The page's data (root's `signedIn`, in the streamed loader data) says whose page it is.
    const signedIn = (h: string) => /\\"signedIn\\",(true|false)/.exec(h)?.[1];
    expect(signedIn(own.html)).toBe("true");
    expect(signedIn(visitor.html)).toBe("false");
  }, 30_000);

  it("keeps one page per language", async () => {
    // ?lng= remembers the language in a cookie (that answer, setting a cookie, is not kept).
    const jar = new Map<string, string>();
    await visit("/?lng=de", jar);
    const de = await visit("/", jar);
    expect(de.html).toMatch(/<html lang="de/);
    const other = await visit("/", new Map([["lng", jar.get("lng")!]]));
    expect(other.res.headers.get("x-page-cache")).toBe("hit");
    expect(other.html).toMatch(/<html lang="de/);
    const en = await visit("/");
    expect(en.html).toMatch(/<html lang="en/);
  }, 30_000);
});
