/**
 * The real server.ts over HTTP: where sign-in redirects to, the session secret it keeps, /healthz
 * and the headers of every response.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, demoSignIn, startWeb, type WebServer } from "./web-harness";

let web: WebServer;

beforeAll(async () => {
  web = await startWeb();
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
