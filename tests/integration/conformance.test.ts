/**
 * The conformance kit (conformance/kit.ts, `npm run conformance -- URL`) against the reference
 * upstream, which passes every check; and against the same upstream behind a proxy that changes one
 * answer (a figure of the account values sent as text), which fails the check that read it and
 * names the field.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { runConformance, type CheckResult } from "../../conformance/kit.js";
import { HARNESS_OPERATOR_TOKEN, startUpstream, type Server } from "./upstream-harness.js";

/**
 * A reference upstream as a broker's users meet it: its abuse limits on, deposits open; the outbox
 * lets the kit sign a real account up. One per run of the kit: its last check trips a limit of the
 * address, which then holds for a while.
 */
async function reference(): Promise<Server> {
  const s = await startUpstream({
    tmpPrefix: "tp-conformance-",
    config: { devOutbox: true, smtpUrl: null, rateLimit: true, marketAlwaysOpen: true },
    manualFeed: true,
    seededDeposits: "shown",
  });
  servers.push(s);
  // The hand-driven market has a price once it is set: the instrument the kit trades (the first
  // open one with a leverage).
  await s.tick("EURUSD", 1.1);
  return s;
}

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/**
 * A proxy to `target` that passes everything through (the websocket too) but rewrites the answer
 * of `path` with `rewrite`.
 */
async function rewritingProxy(
  target: string,
  path: string,
  rewrite: (body: { data: Record<string, unknown> }) => unknown,
): Promise<{ base: string; close: () => Promise<void> }> {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const up = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (ur) => {
        if (!req.url?.startsWith(path)) {
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          ur.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        ur.on("data", (c: Buffer) => chunks.push(c));
        ur.on("end", () => {
          const body = JSON.stringify(rewrite(JSON.parse(Buffer.concat(chunks).toString())));
          const headers = { ...ur.headers, "content-length": String(Buffer.byteLength(body)) };
          res.writeHead(ur.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    req.pipe(up);
  });
  // The websocket's upgrade is passed through as bytes.
  server.on("upgrade", (req, socket, head) => {
    const up = net.connect(Number(to.port), to.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(lines.join("\r\n") + "\r\n\r\n");
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on("error", () => socket.destroy());
    socket.on("error", () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const failed = (checks: CheckResult[]) => checks.filter((c) => c.outcome === "fail");

describe("the conformance kit", () => {
  it("passes the reference upstream: trading, the websocket, money with the console, refusals", async () => {
    const s = await reference();
    const report = await runConformance({ base: s.base, operatorToken: HARNESS_OPERATOR_TOKEN });
    expect(failed(report.checks)).toEqual([]);
    expect(report.checks.filter((c) => c.outcome === "skip")).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.passed).toBe(true);
    const names = report.checks.map((c) => c.name);
    for (const part of [
      "websocket: FOREX_TRADE push with the position",
      "websocket: FOREX_CLOSED push with the position",
      "trade: a pending order is listed and cancelled",
      "money: a deposit is declared and listed",
      "operator: the deposit is in the queue and approved",
      "money: a withdrawal is requested and cancelled",
      "refusal: a bad field answers 400 with the envelope",
      "refusal: a demo account on a money call",
      "refusal: the rate limit answers 429 with Retry-After",
    ])
      expect(names).toContain(part);
  }, 60_000);

  it("fails a back end whose answer drifts, naming the endpoint and the field", async () => {
    const s = await reference();
    const proxy = await rewritingProxy(s.base, "/v1/api/main/account/forexDetail", (body) => ({
      ...body,
      data: { ...body.data, can_use: String(body.data.can_use) },
    }));
    try {
      const report = await runConformance({
        base: proxy.base,
        operatorToken: HARNESS_OPERATOR_TOKEN,
      });
      expect(report.passed).toBe(false);
      // The check that read the changed answer fails, naming it; so does the withdrawal's, which
      // reads the same figure; nothing else.
      const drift =
        /^GET \/v1\/api\/main\/account\/forexDetail: data\.can_use does not match the contract: Expected number, received string$/;
      expect(failed(report.checks).map((c) => c.name)).toEqual([
        "account: values",
        "money: a withdrawal is requested and cancelled",
      ]);
      for (const c of failed(report.checks)) expect(c.detail).toMatch(drift);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
