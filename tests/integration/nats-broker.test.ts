/**
 * Pushes between upstream nodes (upstream/platform/ws/broker.ts) on a real nats-server: two hubs,
 * each on its own HTTP server and NATS connection, over one store. A client of hub B receives what
 * hub A publishes (public and private), each push once; revocations and presence cross nodes; the
 * leader's ticks reach the other node only; after nats-server restarts on the same port, pushes
 * resume and the producing hub republishes its snapshots. The in-process broker keeps the
 * single-process behaviour, and the upstream built with NATS_URL connects its broker.
 *
 * Needs Debian's nats-server: as root the suite installs it (scripts/ensure-services.sh); as
 * another user without it, the file is skipped with a message saying how to install it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOPIC } from "@contract/constants";
import { connect } from "@nats-io/transport-node";
import { hasNatsServer, startNats, type NatsServer } from "../../scripts/services/nats.js";
import { freePort } from "../../scripts/services/ports.js";
import { openDb, type DB } from "../../upstream/platform/db.js";
import { issueToken, tokenHash } from "../../upstream/platform/http/auth.js";
import {
  connectNatsBroker,
  createLocalBroker,
  type PushBroker,
} from "../../upstream/platform/ws/broker.js";
import { createHub, type Hub } from "../../upstream/platform/ws/hub.js";
import type { Quote } from "../../upstream/modules/market/feed.js";
import { startUpstream } from "./upstream-harness.js";
import { Client, type Msg } from "./ws-client.js";
import { until } from "../support/wait.js";

const isRoot = process.getuid?.() === 0;
const runnable = hasNatsServer() || isRoot;
if (!runnable)
  console.warn(
    "nats-broker.test.ts skipped: nats-server is not installed and this user cannot install it. " +
      "Run `sudo bash scripts/ensure-services.sh` (or `sudo apt-get install nats-server`).",
  );

interface Node {
  hub: Hub;
  broker: PushBroker;
  server: http.Server;
  url: string;
}

async function startNode(db: DB, broker: PushBroker): Promise<Node> {
  const server = http.createServer((_req, res) => res.end());
  const hub = createHub(server, db, broker);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { hub, broker, server, url: `ws://127.0.0.1:${port}/v1/ws` };
}

async function stopNode(n: Node): Promise<void> {
  await n.hub.close();
  await n.broker.close();
  await new Promise((r) => n.server.close(r));
}

/** A message the client received at any time (Client.next waits only for new ones by default). */
const seen = (c: Client, pred: (m: Msg) => boolean, ms = 3000) => c.next(pred, ms, 0);

const isPush = (topic: string, pred: (data: any) => boolean) => (m: Msg) =>
  m.op === "push" && m.topic === topic && pred(m.data);

async function subscribed(c: Client, topics: string[]): Promise<void> {
  const from = c.msgs.length;
  c.send({ op: "subscribe", topics });
  const ack = await c.next((m) => m.op === "subscribe", 3000, from);
  expect(ack.code).toBe(1);
}

async function loggedIn(c: Client, token: string): Promise<void> {
  const from = c.msgs.length;
  c.send({ op: "login", token });
  expect((await c.next((m) => m.op === "login", 3000, from)).code).toBe(1);
}

let nats: NatsServer;
let dir: string;
let db: DB;
let a: Node;
let b: Node;
const clients: Client[] = [];
const users: { id: number; token: string }[] = [];

async function client(n: Node): Promise<Client> {
  const c = await Client.open(n.url);
  clients.push(c);
  return c;
}

describe.skipIf(!runnable)("push broker on NATS", () => {
  beforeAll(async () => {
    if (!hasNatsServer())
      execFileSync("bash", ["scripts/ensure-services.sh"], { stdio: "inherit" });
    nats = await startNats();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-nats-"));
    db = openDb(path.join(dir, "up.sqlite"));
    for (const n of [1, 2, 3]) {
      const id = Number(
        db
          .prepare("INSERT INTO users (uid, email, invite_code, created_at) VALUES (?, ?, ?, ?)")
          .run(`nats${n}`, `nats${n}@example.com`, `NATSI${n}`, Date.now()).lastInsertRowid,
      );
      users.push({ id, token: issueToken(db, id, 3600, 3600) });
    }
    const opts = { url: nats.url, reconnectWaitMs: 100 };
    a = await startNode(db, await connectNatsBroker(opts));
    b = await startNode(db, await connectNatsBroker(opts));
  }, 300_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    if (a) await stopNode(a);
    if (b) await stopNode(b);
    await nats?.stop();
    db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("delivers a public push of hub A to the clients of both hubs, each once", async () => {
    const onA = await client(a);
    const onB = await client(b);
    // A code with dots: the topic must stay one subject token.
    const topics = [TOPIC.DAY_MARKET, "KLINE.EURUSD", "KLINE.X..Y"];
    await subscribed(onA, topics);
    await subscribed(onB, topics);
    for (const t of topics) a.hub.publish(t, { n: 1, t });
    for (const t of topics)
      await seen(
        onB,
        isPush(t, (d) => d.n === 1 && d.t === t),
      );
    // A fence from B: once it reaches A's client, an echo of A's own push would have too.
    b.hub.publish(TOPIC.DAY_MARKET, { fence: true });
    await seen(
      onA,
      isPush(TOPIC.DAY_MARKET, (d) => d.fence === true),
    );
    await seen(
      onB,
      isPush(TOPIC.DAY_MARKET, (d) => d.fence === true),
    );
    for (const c of [onA, onB])
      for (const t of topics)
        expect(c.msgs.filter(isPush(t, (d) => d.n === 1))).toEqual([
          { op: "push", topic: t, data: { n: 1, t } },
        ]);
  });

  it("delivers a private push of hub A to its user's client on hub B only, after B announces the user", async () => {
    const [u1, u2] = users;
    const mine = await client(b);
    const other = await client(b);
    await loggedIn(mine, u1.token);
    await loggedIn(other, u2.token);
    await subscribed(mine, [TOPIC.FOREX_TRADE]);
    // The leader's trading pushes ask the hub whom to push: B's subscriber counts on A.
    await until("presence on A", () => a.hub.subscribedUsers(TOPIC.FOREX_TRADE).includes(u1.id));
    expect(a.hub.subscribedUsers(TOPIC.FOREX_TRADE)).not.toContain(u2.id);
    await subscribed(other, [TOPIC.FOREX_TRADE]);
    await until("u2 on A", () => a.hub.subscribedUsers(TOPIC.FOREX_TRADE).includes(u2.id));

    a.hub.publishToUser(u1.id, TOPIC.FOREX_TRADE, { for: u1.id });
    a.hub.publishToUser(u2.id, TOPIC.FOREX_TRADE, { for: u2.id });
    await seen(
      mine,
      isPush(TOPIC.FOREX_TRADE, (d) => d.for === u1.id),
    );
    await seen(
      other,
      isPush(TOPIC.FOREX_TRADE, (d) => d.for === u2.id),
    );
    expect(mine.msgs.filter((m) => m.op === "push" && m.data?.for === u2.id)).toEqual([]);
    expect(other.msgs.filter((m) => m.op === "push" && m.data?.for === u1.id)).toEqual([]);

    // A revocation on A logs out the token's connections on B, and B stops announcing the user.
    a.hub.dropTokenHash(tokenHash(u2.token));
    await seen(other, (m) => m.op === "revoked");
    await until("u2 gone on A", () => !a.hub.subscribedUsers(TOPIC.FOREX_TRADE).includes(u2.id));
    expect(a.hub.subscribedUsers(TOPIC.FOREX_TRADE)).toContain(u1.id);
  });

  it("carries the leader's ticks to the other node, never back to the leader", async () => {
    const onA: Quote[][] = [];
    const onB: Quote[][] = [];
    const offA = a.broker.onTick((q) => onA.push(q));
    const offB = b.broker.onTick((q) => onB.push(q));
    const quote: Quote = {
      id: 1,
      code: "EURUSD",
      price: 1.0842,
      open: 1.08,
      high: 1.09,
      low: 1.07,
      volume: 12.5,
      change: 0.39,
      time: Date.now(),
    };
    a.broker.publishTick([quote]);
    await until("the tick on B", () => onB.length === 1);
    expect(onB[0]).toEqual([quote]);
    b.broker.publishTick([{ ...quote, price: 2 }]); // a fence: A's own tick would have come first
    await until("the fence on A", () => onA.length === 1);
    expect(onA[0][0].price).toBe(2);
    offA();
    offB();
  });

  it("resumes pushes after nats-server restarts on the same port, republishing A's snapshots", async () => {
    const u3 = users[2];
    const c = await client(b);
    await loggedIn(c, u3.token);
    await subscribed(c, [TOPIC.DAY_MARKET, TOPIC.FOREX_TRADE]);
    await until("u3 on A", () => a.hub.subscribedUsers(TOPIC.FOREX_TRADE).includes(u3.id));
    // What a resync republishes: the snapshot of each topic hub A has published.
    a.hub.onSubscribe(
      (t) => t === TOPIC.DAY_MARKET,
      () => ({ snapshot: "day" }),
    );
    a.hub.onSubscribe(
      (t) => t === TOPIC.FOREX_TRADE,
      (_t, who) => (who.userId === null ? undefined : { snapshotFor: who.userId }),
    );
    const pid = nats.pid;
    await nats.restart();
    expect(nats.pid).not.toBe(pid);
    await until(
      "both brokers reconnected",
      () => a.broker.status().connected && b.broker.status().connected,
      10_000,
    );
    await seen(
      c,
      isPush(TOPIC.DAY_MARKET, (d) => d.snapshot === "day"),
      5_000,
    );
    await seen(
      c,
      isPush(TOPIC.FOREX_TRADE, (d) => d.snapshotFor === u3.id),
      5_000,
    );
    // Live pushes flow again (published until one arrives: a push while down is dropped).
    let n = 0;
    const after = seen(
      c,
      isPush(TOPIC.DAY_MARKET, (d) => d.after === true),
      5_000,
    );
    const timer = setInterval(() => a.hub.publish(TOPIC.DAY_MARKET, { after: true, n: ++n }), 100);
    try {
      await after;
    } finally {
      clearInterval(timer);
    }
    expect(a.broker.status()).toEqual({ kind: "nats", connected: true, url: nats.url });
  }, 15_000);

  it("builds an upstream whose broker is NATS when NATS_URL is set", async () => {
    const s = await startUpstream({
      tmpPrefix: "tp-nats-up-",
      manualFeed: true,
      config: { natsUrl: nats.url, strategies: "off", logLevel: "warn" },
    });
    try {
      expect(s.up.ctx.broker.status()).toEqual({ kind: "nats", connected: true, url: nats.url });
    } finally {
      await s.close();
    }
    // A node that cannot reach NATS at start does not start, and says where it looked.
    const down = `nats://127.0.0.1:${await freePort()}`;
    await expect(connectNatsBroker({ url: down })).rejects.toThrow(
      `cannot connect to NATS at ${down}`,
    );
  });
});

describe.skipIf(!hasNatsServer())("NATS with one user per role (npm run cluster)", () => {
  let secured: NatsServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-nats-users-"));
  // A password with an @ and a quote of its own: written and read back whole.
  const upstreamPassword = 'up@ss"word-0123';
  beforeAll(async () => {
    secured = await startNats({
      configDir: dir,
      users: [
        {
          user: "upstream",
          password: upstreamPassword,
          publish: ["tradepost.>"],
          subscribe: ["tradepost.>"],
        },
        { user: "observer", password: "observer-pass", publish: [], subscribe: ["tradepost.>"] },
      ],
    });
  });
  afterAll(async () => {
    await secured?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const withUser = (user: string, password: string) =>
    secured.url.replace("nats://", `nats://${user}:${encodeURIComponent(password)}@`);

  it("lets the upstream user's broker in, and no client without a user or with a wrong password", async () => {
    const b = await connectNatsBroker({ url: withUser("upstream", upstreamPassword) });
    try {
      expect(b.status()).toMatchObject({ kind: "nats", connected: true });
    } finally {
      await b.close();
    }
    await expect(connectNatsBroker({ url: secured.url })).rejects.toThrow(/cannot connect/);
    await expect(connectNatsBroker({ url: withUser("upstream", "wrong") })).rejects.toThrow(
      /cannot connect/,
    );
  });

  it("gives each user only its own permissions: the observer cannot publish", async () => {
    const upstream = await connect({
      servers: secured.url,
      user: "upstream",
      pass: upstreamPassword,
    });
    const observer = await connect({
      servers: secured.url,
      user: "observer",
      pass: "observer-pass",
    });
    const seen: string[] = [];
    const sub = upstream.subscribe("tradepost.check");
    const done = (async () => {
      for await (const m of sub) {
        seen.push(m.string());
        if (m.string() === "marker") break;
      }
    })();
    await upstream.flush();
    // The server handles the observer's publish before answering its flush: had it been allowed,
    // it would reach the subscriber before the marker the upstream user sends afterwards.
    observer.publish("tradepost.check", "forged");
    await observer.flush();
    upstream.publish("tradepost.check", "marker");
    await done;
    expect(seen).toEqual(["marker"]);
    await observer.close();
    await upstream.close();
    const cfg = fs.readFileSync(path.join(dir, `nats-${secured.port}.conf`), "utf8");
    expect(
      (fs.statSync(path.join(dir, `nats-${secured.port}.conf`)).mode & 0o777).toString(8),
    ).toBe("600");
    expect(JSON.parse(cfg).authorization.users[0].password).toBe(upstreamPassword);
  });
});

describe("push broker in process (no NATS_URL)", () => {
  it("delivers each push once to this hub's connections, as before", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tp-local-"));
    const ldb = openDb(path.join(tmp, "up.sqlite"));
    const id = Number(
      ldb
        .prepare("INSERT INTO users (uid, email, invite_code, created_at) VALUES (?, ?, ?, ?)")
        .run("local1", "local1@example.com", "LOCAL1", Date.now()).lastInsertRowid,
    );
    const token = issueToken(ldb, id, 3600, 3600);
    const broker = createLocalBroker();
    const node = await startNode(ldb, broker);
    const c = await Client.open(node.url);
    try {
      await loggedIn(c, token);
      await subscribed(c, [TOPIC.DAY_MARKET, TOPIC.FOREX_TRADE]);
      expect(node.hub.subscribedUsers(TOPIC.FOREX_TRADE)).toEqual([id]);
      node.hub.publish(TOPIC.DAY_MARKET, { n: 1 });
      node.hub.publishToUser(id, TOPIC.FOREX_TRADE, { mine: true });
      node.hub.publishToUser(id + 1, TOPIC.FOREX_TRADE, { mine: false });
      node.hub.dropTokenHash(tokenHash(token));
      await seen(c, (m) => m.op === "revoked");
      expect(c.msgs.filter((m) => m.op === "push")).toEqual([
        { op: "push", topic: TOPIC.DAY_MARKET, data: { n: 1 } },
        { op: "push", topic: TOPIC.FOREX_TRADE, data: { mine: true } },
      ]);
      expect(node.hub.subscribedUsers(TOPIC.FOREX_TRADE)).toEqual([]);
      expect(broker.status()).toEqual({ kind: "local", connected: true });
      let ticks = 0;
      broker.onTick(() => ticks++);
      broker.publishTick([]);
      expect(ticks).toBe(0);
    } finally {
      c.close();
      await stopNode(node);
      ldb.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
