/**
 * Two upstream nodes on one PostgreSQL store and one NATS server, in this process
 * (upstream/cluster.ts): one leads, one stands by. What a client of the standby notices: reads of
 * the store answered by it, commands and engine reads answered by the leader (forms, JSON and a
 * multipart upload carried as sent), the leader's prices mirrored, the leader's refusals relayed
 * as they are; and when the leader stops, the standby takes over and serves the same account.
 * (The kill -9 of a leader under load is tests/integration/cluster.test.ts.)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../../scripts/services/postgres.js";
import { startNats, type NatsServer } from "../../scripts/services/nats.js";
import { startClusterNode, type ClusterNode } from "../../upstream/cluster.js";
import { loadConfig } from "../../upstream/platform/config.js";
import { getEnv, postEnv, type Server } from "./upstream-harness.js";
import { loginEmail, registerEmail } from "./accounts-helpers.js";

const OPERATOR_TOKEN = "standby-test-operator-token-0123456789";
let pg: PostgresServer;
let nats: NatsServer;
let dataDir: string;
const nodes: ClusterNode[] = [];
const quiet = { info() {}, warn() {}, error() {} };

async function node(name: string, databaseUrl: string): Promise<ClusterNode> {
  const config = loadConfig(
    { NODE_ENV: "test" },
    {
      host: "127.0.0.1",
      port: 0,
      dataDir,
      databaseUrl,
      natsUrl: nats.url,
      nodeName: name,
      operatorToken: OPERATOR_TOKEN,
      operatorSecretKey: "c".repeat(64),
      devOutbox: true,
      smtpUrl: null,
      rateLimit: false,
      // Every market open whatever the day: the test prices EURUSD itself.
      marketFeed: "manual",
      marketAlwaysOpen: true,
      strategies: "off",
      logLevel: "silent",
    },
  );
  const n = await startClusterNode(
    { ...config, databaseUrl },
    { log: quiet, onLostLeadership: () => undefined },
  );
  nodes.push(n);
  return n;
}

/** The harness's Server calls over one node's URL (what accounts-helpers needs). */
function client(base: () => string): Server {
  return {
    get base() {
      return base();
    },
    get: (p: string, o?: object) => getEnv(base(), p, o),
    post: (p: string, b?: Record<string, string | number>, o?: object) => postEnv(base(), p, b, o),
  } as unknown as Server;
}

let leader: ClusterNode;
let standby: ClusterNode;
let token: string;
let demoToken: string;
const operator = { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } };

async function setPriceOn(base: string, price: string): Promise<void> {
  const set = await postEnv(base, "/dev/market/price", { code: "EURUSD", price }, operator);
  expect(set.code).toBe(1);
}
const setPrice = (price: string) => setPriceOn(leader.url, price);

beforeAll(async () => {
  execFileSync("bash", ["scripts/ensure-services.sh"], { stdio: "ignore" });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-standby-"));
  pg = await startPostgres({ durable: false });
  nats = await startNats();
  const url = await pg.createDatabase("standby_test");
  leader = await node("node-a", url);
  standby = await node("node-b", url);
  const s = client(() => standby.url);
  await registerEmail(s, "standby@example.com");
  token = (await loginEmail(s, "standby@example.com")).data.token;
  const demo = await s.post<{ demo_id: string }>("/api/user/createAccountDemoForU");
  demoToken = (await s.post("/api/user/loginForU", { demo_id: demo.data.demo_id })).data.token;
}, 120_000);

afterAll(async () => {
  for (const n of nodes.reverse()) await n.close().catch(() => undefined);
  await nats?.stop();
  await pg?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("a standby upstream node", () => {
  it("says which role each node has", async () => {
    const a = await getEnv(leader.url, "/healthz");
    const b = await getEnv(standby.url, "/healthz");
    expect(a.data).toMatchObject({
      node: "node-a",
      role: "leader",
      store: { dialect: "postgres", ok: true },
      broker: { kind: "nats", connected: true },
    });
    expect(b.data).toMatchObject({ node: "node-b", role: "standby", store: { ok: true } });
    // Only the leader writes batches: its figures are there for operators, a standby has none.
    expect(a.data.sequencer).toEqual({
      batches: expect.any(Number),
      commands: expect.any(Number),
      largestBatch: expect.any(Number),
      loopMs: expect.any(Number),
      writeMs: expect.any(Number),
      longestWriteMs: expect.any(Number),
      waiting: expect.any(Number),
    });
    expect(b.data.sequencer).toBeNull();
  });

  it("mirrors the leader's prices and answers quotes itself", async () => {
    await setPrice("1.2345");
    await expect
      .poll(
        async () =>
          (await getEnv(standby.url, "/v1/api/forex/trade_list")).data.find(
            (q: { Code: string }) => q.Code === "EURUSD",
          )?.ForexQuotations?.Close,
        { timeout: 10_000 },
      )
      .toBe(1.2345);
  });

  it("sends an order (JSON) to the leader once per key, and the leader's figures back", async () => {
    await setPrice("1.2");
    const submit = () =>
      postEnv(
        standby.url,
        "/v1/api/forex/submit",
        { type: 1, cont: "0.01", forex_id: 1, status: 1, target_price: "", multiple: 100 },
        { token: demoToken, json: true, headers: { "idempotency-key": "standby-order-1" } },
      );
    const written = async () => (await getEnv(leader.url, "/healthz")).data.sequencer.commands;
    const before = await written();
    const order = await submit();
    expect(order.code).toBe(1);
    expect((await submit()).data.Id).toBe(order.data.Id);
    // The order and its replay were each a command of the leader's batches: a replay is answered
    // there, from the stored key, in order with the writes (no second order was made: same Id).
    expect((await written()) - before).toBe(2);
    const open = await getEnv(standby.url, "/v1/api/forex/my_deal?status=1&page=1", {
      token: demoToken,
    });
    expect(open.data.data.map((o: { Id: number }) => o.Id)).toEqual([order.data.Id]);
    // A real account without money: the leader's rule refuses, and the standby relays it.
    const refused = await postEnv(
      standby.url,
      "/v1/api/forex/submit",
      { type: 1, cont: "0.01", forex_id: 1, status: 1, target_price: "", multiple: 100 },
      { token, json: true },
    );
    expect(refused.code).toBe(0);
  });

  it("sends every read of the engine (the contract's readsEngine) to the leader", async () => {
    // A copy of a provider (the real account, made one in the store), started through the standby.
    const db = leader.upstream().ctx.db;
    const providerId = (
      db.prepare("SELECT id FROM users WHERE email = ?").get("standby@example.com") as {
        id: number;
      }
    ).id;
    db.prepare(
      "INSERT INTO strategy_traders (user_id, name, style, start_capital_micro, created_at) VALUES (?, 'Standby Desk', 'user', 0, ?)",
    ).run(providerId, Date.now());
    const started = await postEnv(
      standby.url,
      "/api/follow/copy",
      { provider_id: providerId, amount: "100" },
      { token: demoToken },
    );
    expect(started.code, started.msg).toBe(1);
    // Operators' copies and users carry live figures: answered through the leader, not 503.
    for (const path of ["/admin/api/copies", "/admin/api/users"]) {
      const r = await fetch(standby.url + path, operator);
      expect(r.status, path).toBe(200);
      const body = (await r.json()) as { code: number; data: unknown };
      expect(body.code, path).toBe(1);
    }
    const copies = await getEnv(standby.url, "/admin/api/copies", operator);
    expect(copies.data.data.map((c: { id: number }) => c.id)).toContain(started.data.id);
    const detail = await getEnv(standby.url, "/v1/api/main/account/forexDetail", {
      token: demoToken,
    });
    expect(detail.code).toBe(1);
  });

  it("relays a field refusal of the leader with its status and translated message", async () => {
    const r = await fetch(standby.url + "/v1/api/forex/submit", {
      method: "POST",
      headers: {
        authorization: token,
        lang: "de",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "type=1&cont=1e5&forex_id=1&status=1&multiple=100",
    });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { code: number; msg: string };
    expect(body.code).toBe(0);
    expect(body.msg.length).toBeGreaterThan(0);
  });

  it("carries a multipart upload to the leader, and serves the stored picture", async () => {
    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 40, b: 40 } },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "proof.png");
    const r = await fetch(standby.url + "/api/common/image_upload", {
      method: "POST",
      headers: { authorization: token },
      body: form,
    });
    const body = (await r.json()) as { code: number; data: { url?: string; name?: string } };
    expect(body.code).toBe(1);
    expect(fs.readdirSync(path.join(dataDir, "uploads")).length).toBe(1);
  });

  it("takes over when the leader stops, and serves the same account", async () => {
    // The leader's last tick, as the standby mirrored it: the new leader trades from it at once.
    await setPrice("1.2468");
    const eurusd = async (base: string) =>
      (await getEnv(base, "/v1/api/forex/trade_list")).data.find(
        (q: { Code: string }) => q.Code === "EURUSD",
      )?.ForexQuotations;
    await expect.poll(async () => (await eurusd(standby.url))?.Close).toBe(1.2468);
    const lastTick = (await eurusd(leader.url)).Time;
    await leader.close();
    // How fast it takes over is bench:cluster's figure (failover); here, that it does.
    await expect
      .poll(async () => (await getEnv(standby.url, "/healthz").catch(() => null))?.data?.role, {
        timeout: 30_000,
        interval: 100,
      })
      .toBe("leader");
    // Its price is that tick, with the tick's own time (the store holds the price with its
    // candle's start, which the stale rule could refuse).
    expect(await eurusd(standby.url)).toMatchObject({ Close: 1.2468, Time: lastTick });
    const info = await getEnv(standby.url, "/api/user/info", { token });
    expect(info.data.email).toBe("standby@example.com");
    // The engine's memory, rebuilt from the store: the open order is there, and trading goes on.
    const open = await getEnv(standby.url, "/v1/api/forex/my_deal?status=1&page=1", {
      token: demoToken,
    });
    expect(open.data.data).toHaveLength(1);
    await setPriceOn(standby.url, "1.21");
    const closed = await postEnv(
      standby.url,
      "/v1/api/forex/close",
      { id: open.data.data[0].Id },
      { token: demoToken, headers: { "idempotency-key": "standby-close-1" } },
    );
    expect(closed.code).toBe(1);
  }, 60_000);
});
