/**
 * OPERATOR_HOST: the console answers only on its own host name, and only the console does there.
 * A user page's host never serves a console page (404), the console host never serves a user page
 * (its root leads to the console); build assets load on both.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWeb, type WebServer } from "./web-harness.js";

const CONSOLE_HOST = "console.localhost";
let web: WebServer;

/** A GET with a given Host header and any other headers (not followed). */
function get(
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location?: string; body: string }> {
  const url = new URL(path, web.base);
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: { ...headers, host },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }),
        );
      },
    );
    req.on("error", reject);
  });
}

beforeAll(async () => {
  // Behind a proxy (TRUST_PROXY), as the console's recommended deployment runs.
  web = await startWeb({ env: { OPERATOR_HOST: CONSOLE_HOST, TRUST_PROXY: "1" } });
}, 120_000);

afterAll(async () => {
  await web?.close();
});

describe("OPERATOR_HOST", () => {
  it("serves the console only on its host, and only the console there", async () => {
    const users = new URL(web.base).host;
    for (const path of ["/operator/login", "/operator", "/operator/audit", "/operator/login.data"])
      expect((await get(path, users)).status, path).toBe(404);
    const login = await get("/operator/login", CONSOLE_HOST);
    expect(login.status).toBe(200);
    expect(login.body).toContain('name="code"');
    expect(await get("/", CONSOLE_HOST)).toMatchObject({ status: 302, location: "/operator" });
    for (const path of ["/login", "/trade?code=EURUSD", "/mine"])
      expect((await get(path, CONSOLE_HOST)).status, path).toBe(404);
    expect((await get("/login", users)).status).toBe(200);
    // The console page's own scripts and styles load from its host.
    const asset = /\/build\/[^"]+\.js/.exec(login.body)?.[0];
    expect(asset).toBeTruthy();
    expect((await get(asset!, CONSOLE_HOST)).status).toBe(200);
  });

  it("decides on the Host header: an X-Forwarded-Host of the console's name opens nothing on the users' host", async () => {
    const users = new URL(web.base).host;
    const forged = { "x-forwarded-host": CONSOLE_HOST };
    for (const path of ["/operator/login", "/operator", "/operator/login.data"])
      expect((await get(path, users, forged)).status, path).toBe(404);
    // And the users' pages still answer there, the console's host with a port too.
    expect((await get("/login", users, forged)).status).toBe(200);
    expect((await get("/operator/login", `${CONSOLE_HOST}:443`)).status).toBe(200);
  });

  it("stops the web at start-up when it is no host name", async () => {
    const bad = await startWeb({ env: { OPERATOR_HOST: "https://console.example.com/" } }).catch(
      (e: Error) => e,
    );
    expect(bad).toBeInstanceOf(Error);
    expect(String((bad as Error).message)).toMatch(/OPERATOR_HOST: must be a host name/);
  }, 60_000);
});
