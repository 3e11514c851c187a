/**
 * TRUST_PROXY through a real proxy hop: the web behind a reverse proxy that adds X-Forwarded-For
 * (as nginx or HAProxy do), two visitors connecting to the proxy from different addresses. With
 * TRUST_PROXY=1 (one hop, the documented example) each keeps their own sign-in limit: one locked
 * out by wrong passwords leaves the other signing in. A value that means nothing stops start-up.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE } from "@contract/envelope";
import {
  approveAsSecondOperator,
  registerEmailOverApi,
  startWeb,
  type WebServer,
} from "./web-harness.js";

const OPERATOR = "trust-proxy-operator-token-0123456789";
const PASSWORD = "Passw0rd!x";
let web: WebServer;
let proxy: http.Server;
let proxyBase: string;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request from a given local address (a visitor on their own machine). */
function request(
  url: string,
  from: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: opts.method ?? "GET", headers: opts.headers, localAddress: from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** A visitor posting the sign-in form through the proxy: the page, then the form with its token. */
async function signIn(from: string, account: string, password: string): Promise<number> {
  const page = await request(`${proxyBase}/login`, from);
  const cookies = (page.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
  if (!csrf) throw new Error(`no csrf token (${page.status})`);
  const res = await request(`${proxyBase}/login`, from, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookies,
      origin: proxyBase,
    },
    body: new URLSearchParams({
      csrf,
      intent: "login",
      login_type: "email",
      account,
      password,
    }).toString(),
  });
  return res.status;
}

beforeAll(async () => {
  web = await startWeb({
    env: { RATE_LIMIT: "1", TRUST_PROXY: "1", OPERATOR_TOKEN: OPERATOR },
  });
  // Three failed sign-ins an hour from one address (instead of 30), set as operators would.
  const set = await fetch(`${web.upstreamBase}/admin/api/settings`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${OPERATOR}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ key: "limit.login_ip", value: "3/3600" }).toString(),
  });
  // An abuse limit is a four-eyes setting: filed with the token, approved by a second operator.
  const filed = (await set.json()) as { code: number; data: { pending_request: { id: number } } };
  expect(filed.code).toBe(CODE.OK);
  await approveAsSecondOperator(web, filed.data.pending_request.id);

  // The proxy: forwards every request to the web, adding the visitor's address to X-Forwarded-For.
  const target = new URL(web.base);
  proxy = http.createServer((req, res) => {
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress]
      .filter(Boolean)
      .join(", ");
    const up = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": forwarded },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await web?.close();
});

describe("TRUST_PROXY=1 behind one proxy", () => {
  it("keeps each visitor's sign-in limit apart: one locked out, the other signs in", async () => {
    const email = `proxy-${process.pid}@example.com`;
    await registerEmailOverApi(web, email, PASSWORD);
    // Visitor A: three wrong passwords, then even the right one is refused for the hour.
    for (let i = 0; i < 3; i++) expect(await signIn("127.0.0.2", email, "wrong-pass-1")).toBe(400);
    expect(await signIn("127.0.0.2", email, "wrong-pass-1")).toBe(429);
    // Visitor B, through the same proxy: their own limit, untouched.
    expect(await signIn("127.0.0.3", email, PASSWORD)).toBe(302);
  });
});

describe("TRUST_PROXY that means nothing", () => {
  it("stops the web at start-up, naming the variable", async () => {
    const bad = await startWeb({ env: { TRUST_PROXY: "one hop" } }).catch((e: Error) => e);
    expect(bad).toBeInstanceOf(Error);
    expect(String((bad as Error).message)).toMatch(/TRUST_PROXY/);
  }, 60_000);
});
