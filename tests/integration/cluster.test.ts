/**
 * The whole product as a cluster (scripts/cluster/launch.ts): PostgreSQL, NATS, two upstream nodes
 * (one leads the order engine, one stands by), two web nodes in cluster mode and HAProxy in front,
 * real processes on loopback. The market is hand-driven (MARKET_FEED=manual): every price is one
 * this test sets. Codes are mailed to a real SMTP server (the message sink), as in production.
 *
 * In order, sharing one cluster and one user:
 * - a person signs up and signs in through web node A's forms, an operator credits the account,
 *   the person places an order through web node B's form, and the live streams of both nodes show
 *   the prices the test sets and the account's open profit (B's stream comes through the standby
 *   upstream node, over NATS);
 * - NATS restarts: the pushes resume on both web nodes' streams;
 * - the leader is killed with SIGKILL while clients place and close orders with idempotency keys
 *   through both upstream nodes (tests/soak/cluster.ts, one round): the standby leads within 10 s,
 *   no acknowledged order is lost, no key makes two orders, `npm run ledger:check` is clean;
 * - web node A is killed: the browser (an EventSource through HAProxy) that was on it reconnects to
 *   web node B and starts again from a fresh snapshot.
 */
import { EventSource } from "eventsource";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_TYPE } from "../../contract/enums";
import { floatArith, profitUsd, units } from "../../contract/formulas";
import type { DayMarketItem, ForexTradePush } from "../../contract/ws";
import {
  ensureServices,
  operatorPost,
  setPrice,
  startTestCluster,
  upstreamGet,
  type TestCluster,
} from "../support/cluster";
import { EventReader, type SseEvent } from "../support/event-reader";
import { startMessageSink, waitForCode, type MessageSink } from "../support/message-sink";
import { until } from "../support/wait";
import { SUITE_TAKE_OVER_BOUND_MS, formatClusterSoak, runClusterSoak } from "../soak/cluster";
import { expectClusterSoakHeld } from "./cluster-soak-expect";
import { cookieHeader, ensureBuild, keepCookies, postForm } from "./web-harness";

const PASSWORD = "Tr4de-post!cluster";
const CODE = "EURUSD";
/** Bound of each wait for an event on a stream. */
const EVENT_MS = 15_000;

let tc: TestCluster | null = null;
let sink: MessageSink | null = null;
const open: Array<{ cancel(): unknown } | { close(): unknown }> = [];

beforeAll(async () => {
  ensureServices();
  ensureBuild();
  sink = await startMessageSink();
  tc = await startTestCluster({
    name: "cluster-test",
    ports: [21_000, 25_000],
    env: { SMTP_URL: sink.smtpUrl },
  });
}, 240_000);

afterAll(async () => {
  for (const s of open) void ("cancel" in s ? s.cancel() : s.close());
  await tc?.close();
  await sink?.close();
}, 60_000);

const cluster = () => tc!.cluster;

/** A page as a browser gets it (its cookies kept in `jar`): its HTML and its forms' CSRF token. */
async function getPage(
  base: string,
  page: string,
  jar: Map<string, string>,
): Promise<{ html: string; csrf: string }> {
  const res = await fetch(base + page, { headers: { cookie: cookieHeader(jar) } });
  keepCookies(res, jar);
  const html = await res.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error(`no CSRF token on ${page} (${res.status})`);
  return { html, csrf };
}

/** A browser's stream of /live on a web node (or HAProxy), with the session's cookie. */
async function liveStream(base: string, jar: Map<string, string>, topics: string) {
  const res = await fetch(`${base}/live?topics=${topics}`, {
    headers: { cookie: cookieHeader(jar) },
  });
  expect(res.status).toBe(200);
  const reader = new EventReader(res);
  open.push(reader);
  await reader.next((e) => e.event === "ready", EVENT_MS);
  return reader;
}

const quoteIs = (id: number, price: number) => (e: SseEvent) =>
  e.event === "DAY_MARKET" &&
  (e.data as Partial<DayMarketItem>[]).some((q) => q.Id === id && q.Close === price);

/** A FOREX_TRADE push showing the position at `price` with the open profit `profit`. */
const profitIs = (orderId: number, price: number, profit: number) => (e: SseEvent) => {
  if (e.event !== "FOREX_TRADE") return false;
  const d = e.data as ForexTradePush;
  return (
    d.TransOrder.some((o) => o.Id === orderId && o.UpdatePrice === price) &&
    Math.abs(d.ProfitsTotal - profit) < 0.005
  );
};

interface Instrument {
  Id: number;
  Code: string;
  PricePrecision: number;
  ForexMinCont: number;
  ForexContNum: number;
  HasForexMultiple: { Value: number }[];
  ForexQuotations: { Close: number };
}

/** What the scenarios share: the person's session, their streams, the instrument and its price. */
const user = {
  jar: new Map<string, string>(),
  email: `cluster-${Date.now().toString(36)}@example.com`,
  orderId: 0,
  openPrice: 0,
};
let streamA: EventReader;
let streamB: EventReader;
let inst: Instrument;
let price = 0;

/** The next price of the instrument: `steps` of its smallest price step up (default 10). */
function nextPrice(steps = 10): number {
  const f = 10 ** inst.PricePrecision;
  price = Math.round((price + steps / f) * f) / f;
  return price;
}

function expectedProfit(at: number): number {
  const held = units(floatArith, inst.ForexMinCont, inst.ForexContNum);
  return profitUsd(floatArith, ORDER_TYPE.BUY, user.openPrice, at, held, 1);
}

describe("the product as a cluster", () => {
  it("runs on PostgreSQL with passwords and no superuser: the web's role touches its web_ tables only", async () => {
    const asWeb = new pg.Client({ connectionString: cluster().webDatabaseUrl });
    await asWeb.connect();
    try {
      await asWeb.query("SELECT COUNT(*) FROM web_pending_signouts");
      await expect(asWeb.query("SELECT COUNT(*) FROM users")).rejects.toThrow(/permission denied/);
      await expect(asWeb.query("CREATE TABLE web_other (x int)")).rejects.toThrow(
        /permission denied/,
      );
      const roles = await asWeb.query<{ rolname: string; rolsuper: boolean }>(
        "SELECT rolname, rolsuper FROM pg_roles WHERE rolname IN ('upstream', 'web')",
      );
      expect(roles.rows.sort((a, b) => a.rolname.localeCompare(b.rolname))).toEqual([
        { rolname: "upstream", rolsuper: false },
        { rolname: "web", rolsuper: false },
      ]);
    } finally {
      await asWeb.end();
    }
    // Never trust: without its password a role is refused.
    const noPassword = new URL(cluster().webDatabaseUrl);
    noPassword.password = "";
    const bare = new pg.Client({ connectionString: noPassword.toString() });
    await expect(bare.connect()).rejects.toThrow(/password/i);
    await bare.end().catch(() => undefined);
  });

  it("signs up on web node A, trades on web node B, and shows live prices and profit on both", async () => {
    const [A, B] = cluster().webs;
    const list = await upstreamGet<Instrument[]>(
      cluster().upstreams[0].url,
      "/v1/api/forex/trade_list",
    );
    inst = list.data.find((i) => i.Code === CODE)!;
    price = inst.ForexQuotations.Close;

    // Sign-up through A's form, with the code the upstream mailed; then sign-in on A.
    const jar = user.jar;
    let { csrf } = await getPage(A.url, "/register", jar);
    const sent = await postForm(
      A.url,
      "/register",
      { csrf, intent: "send_code", type: "email", account: user.email },
      jar,
    );
    expect(sent.status).toBe(200);
    const code = await waitForCode(sink!.httpUrl, user.email);
    const registered = await postForm(
      A.url,
      "/register",
      {
        csrf,
        intent: "register",
        type: "email",
        account: user.email,
        password: PASSWORD,
        re_password: PASSWORD,
        sms_code: code,
      },
      jar,
    );
    expect(registered.status).toBe(302);
    expect(registered.headers.get("location")).toMatch(/^\/login/);
    ({ csrf } = await getPage(A.url, "/login", jar));
    const signedIn = await postForm(
      A.url,
      "/login",
      { csrf, intent: "login", login_type: "email", account: user.email, password: PASSWORD },
      jar,
    );
    expect(signedIn.status).toBe(302);

    // An operator credits the new account (through whichever upstream node: the leader books it).
    const users = await upstreamGet<{ uid: string; email?: string }[]>(
      cluster().upstreams[1].url,
      `/admin/api/users?q=${encodeURIComponent(user.email)}`,
      { authorization: `Bearer ${cluster().secrets.OPERATOR_TOKEN}` },
    );
    expect(users.data).toHaveLength(1);
    await operatorPost(cluster(), "/admin/api/adjustments", {
      uid: users.data[0].uid,
      amount: "500",
      remark: "Cluster test deposit",
    });

    // The person's pages on both nodes, each with its live stream.
    streamA = await liveStream(A.url, jar, "DAY_MARKET,FOREX_TRADE");
    streamB = await liveStream(B.url, jar, "DAY_MARKET,FOREX_TRADE");
    const p1 = nextPrice();
    await setPrice(cluster(), CODE, p1);
    await streamA.next(quoteIs(inst.Id, p1), EVENT_MS);
    await streamB.next(quoteIs(inst.Id, p1), EVENT_MS);

    // A market buy through B's order form (a session made on A: no sticky sessions).
    const trade = await getPage(B.url, `/trade?code=${CODE}`, jar);
    const key = /name="idempotency_key" value="([^"]+)"/.exec(trade.html)![1];
    const placed = await postForm(
      B.url,
      `/trade?code=${CODE}`,
      {
        csrf: trade.csrf,
        intent: "submit",
        idempotency_key: key,
        forex_id: String(inst.Id),
        status: "1",
        type: "1",
        cont: String(inst.ForexMinCont),
        multiple: String(inst.HasForexMultiple[0].Value),
        target_price: "",
        target_profit_price: "",
        stop_loss_price: "",
      },
      jar,
    );
    expect(placed.status).toBe(200);
    user.openPrice = p1;

    // Both nodes' streams show the position, then its profit once the price moves.
    const opened = await streamB.next(
      (e) => e.event === "FOREX_TRADE" && (e.data as ForexTradePush).TransOrder.length === 1,
      EVENT_MS,
    );
    user.orderId = (opened.data as ForexTradePush).TransOrder[0].Id;
    const p2 = nextPrice();
    await setPrice(cluster(), CODE, p2);
    const profit = expectedProfit(p2);
    expect(profit).toBeGreaterThan(0);
    for (const s of [streamA, streamB]) {
      await s.next(quoteIs(inst.Id, p2), EVENT_MS);
      await s.next(profitIs(user.orderId, p2, profit), EVENT_MS);
    }
  }, 90_000);

  it("resumes both web nodes' pushes after NATS restarts", async () => {
    // Web node A's upstream connection is to the leader, B's to the standby (its pushes cross NATS).
    for (const u of cluster().upstreams) expect((await u.health())?.ws).toBeGreaterThan(0);
    await cluster().nats.restart();
    // Ticks until one reaches both streams: the nodes reconnect to NATS on their own schedule.
    const setAfter: number[] = [];
    const afterRestart = (e: SseEvent) => setAfter.some((q) => quoteIs(inst.Id, q)(e));
    const resumed = new Set<EventReader>();
    await until(
      "a price set after the restart on both streams",
      async () => {
        const p = nextPrice();
        setAfter.push(p);
        await setPrice(cluster(), CODE, p);
        for (const s of [streamA, streamB])
          if (!resumed.has(s))
            await s.next(afterRestart, 250).then(
              () => resumed.add(s),
              () => undefined, // not yet: another tick
            );
        return resumed.size === 2;
      },
      30_000,
    );
    const p = nextPrice();
    await setPrice(cluster(), CODE, p);
    for (const s of [streamA, streamB]) {
      await s.next(quoteIs(inst.Id, p), EVENT_MS);
      await s.next(profitIs(user.orderId, p, expectedProfit(p)), EVENT_MS);
    }
  }, 60_000);

  it("keeps every acknowledged order when the leader is killed under load", async () => {
    const r = await runClusterSoak(cluster(), {
      kills: 1,
      clients: 3,
      runMs: 1_000,
      takeOverBoundMs: SUITE_TAKE_OVER_BOUND_MS,
    });
    console.log(formatClusterSoak(r));
    expectClusterSoakHeld(r, 1);
    expect(r.retriedCommands).toBeGreaterThan(0);
  }, 90_000);

  it("moves a browser's stream from a killed web node to the other through HAProxy", async () => {
    const [A, B] = cluster().webs;
    await Promise.all([streamA.cancel(), streamB.cancel()]);
    // Far from every price the soak's ticks set: a price seen below is one set here.
    nextPrice(1_000);
    // Two browsers through HAProxy one after the other: round robin puts one on each web node.
    const browsers: Browser[] = [];
    for (const n of [1, 2]) {
      const b = new Browser(cluster().url, user.jar);
      browsers.push(b);
      await until(`browser ${n}'s snapshot`, () => b.snapshots() === 1, EVENT_MS);
    }

    // A dies and stays down for the rest of the test; a price moves meanwhile.
    A.kill9({ restartAfterMs: 120_000 });
    const p = nextPrice();
    await setPrice(cluster(), CODE, p);
    await until(
      "a browser back with a new snapshot",
      () => browsers.some((b) => b.snapshots() === 2),
      30_000,
    );
    const [moved] = browsers.filter((b) => b.snapshots() === 2);
    const [stayed] = browsers.filter((b) => b.snapshots() === 1);
    expect(moved).toBeDefined();
    expect(stayed).toBeDefined();
    expect(moved.errors).toBeGreaterThan(0);
    expect(await A.health()).toBeNull(); // so the new stream is B's
    expect(await (await fetch(B.url + "/healthz")).json()).toEqual({ ok: true });
    // The fresh snapshot: every instrument, with the price set while the browser was away.
    const snap = moved.lastSnapshot();
    expect(snap.length).toBe(moved.firstSnapshot().length);
    expect(snap.find((q) => q.Id === inst.Id)?.Close).toBe(p);
    // Both browsers follow the market from B.
    const q = nextPrice();
    await setPrice(cluster(), CODE, q);
    for (const b of browsers)
      await until("the next price on both browsers", () => b.sawPrice(inst.Id, q), EVENT_MS);
  }, 60_000);
});

/** A browser's EventSource on /live?topics=DAY_MARKET (reconnecting as browsers do). */
class Browser {
  private readonly es: EventSource;
  private readonly events: { type: string; data: unknown }[] = [];
  errors = 0;

  constructor(base: string, jar: Map<string, string>) {
    const cookie = cookieHeader(jar);
    this.es = new EventSource(`${base}/live?topics=DAY_MARKET`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as object), cookie } }),
    });
    open.push(this.es);
    for (const type of ["ready", "DAY_MARKET"])
      this.es.addEventListener(type, (e) =>
        this.events.push({ type, data: JSON.parse((e as MessageEvent<string>).data) }),
      );
    this.es.addEventListener("error", () => this.errors++);
  }

  /** The DAY_MARKET snapshots received: the first event after each `ready`. */
  private snapshotList(): Partial<DayMarketItem>[][] {
    const out: Partial<DayMarketItem>[][] = [];
    this.events.forEach((e, i) => {
      if (e.type === "ready" && this.events[i + 1]?.type === "DAY_MARKET")
        out.push(this.events[i + 1].data as Partial<DayMarketItem>[]);
    });
    return out;
  }

  snapshots(): number {
    return this.snapshotList().length;
  }

  firstSnapshot() {
    return this.snapshotList()[0];
  }

  lastSnapshot() {
    return this.snapshotList().at(-1)!;
  }

  sawPrice(id: number, price: number): boolean {
    return this.events.some(
      (e) =>
        e.type === "DAY_MARKET" &&
        (e.data as Partial<DayMarketItem>[]).some((q) => q.Id === id && q.Close === price),
    );
  }
}
