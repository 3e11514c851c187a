/**
 * Section "failover-load" of `npm run bench:cluster` (issue 32): a failover while the dying leader
 * carries a busy deployment's load: COPIES open copies (each holding a copied position) and STREAMS
 * live streams on the web nodes, with the market ticking every TICK_MS.
 *
 * The cluster is scripts/cluster/launch.ts with PostgreSQL (fsync on), NATS, two upstream nodes,
 * two web nodes and HAProxy, on the hand-driven market (MARKET_FEED=manual). Before the first
 * upstream node starts, the store is filled as a deployment that has run for a while would have
 * it (prepareStore): a provider and COPIES copiers made through the engine, the copy service and
 * the money service (tests/bench/copiers.ts), and one fill of the provider, which every copy
 * mirrors. The leader then rebuilds its engine from that store, as after a restart.
 *
 * Then, with every stream open and the ticker on the leader:
 * 1. kill -9 of the leader; one market order is sent to the standby every 10 ms with one
 *    idempotency key until it is acknowledged (cluster-failover.ts's firstAck): the failover time,
 *    kill to first acknowledged order (goal: at most 10 s);
 * 2. from that acknowledgement, the time until every stream has received a tick again (the web
 *    node that read the dead leader reconnects to the new one);
 * 3. for WATCH_S seconds, both upstream nodes' roles every 250 ms and an order a second on the new
 *    leader: a second failover (the new leader stepping down, or the other node leading) is the
 *    failure this section exists to catch (a leader busy rebuilding or pushing must not lose its
 *    lock); the killed node, restarted by the launcher's supervisor, must come back as a standby;
 * 4. the store still holds every copied position open, and the new leader lists every copy.
 */
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import type { ChildProcess } from "node:child_process";
import { CODE } from "@contract/envelope";
import { ORDER_STATUS } from "@contract/enums";
import { adminCopies, COPY_STATUSES } from "@contract/api/copy";
import type { Cluster, NodeProcess } from "../../scripts/cluster/launch.js";
import { openStore, openStoreReadOnly } from "../../upstream/platform/db.js";
import { CopyTrading } from "../../upstream/modules/copy/service.js";
import { fundProvider } from "../../upstream/modules/follow/strategies.js";
import { createManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { Engine } from "../../upstream/modules/trading/engine.js";
import { makeCopiers, providerBuys } from "./copiers.js";
import {
  call,
  demoToken,
  log,
  mustBeOk,
  placeOrder,
  sleep,
  tradables,
  type Tradable,
} from "./cluster-common.js";
import {
  connected,
  startTicker,
  startWorkers,
  startStreamsCluster,
  type Pool,
} from "./cluster-fanout.js";
import { firstAck, standbyOf } from "./cluster-failover.js";

export interface FailoverLoadOptions {
  copies: number;
  streams: number;
  perWorker: number;
  rampPerSecond: number;
  connectTimeoutS: number;
  clientNice: number;
  tickMs: number;
  /** How long the roles are watched after the failover, s. */
  watchS: number;
}

export interface FailoverLoadFigures {
  copies: number;
  /** Copied positions open before the cluster started (in the store). */
  copiedBefore: number;
  streams: number;
  /** Streams ready with their first snapshot before the kill. */
  streamsReady: number;
  connectSeconds: number;
  /** Kill -9 of the leader to the first order the standby acknowledged, ms. */
  failoverMs: number;
  /** From that acknowledgement until every stream had a tick again, ms (NaN: not all did). */
  streamsResumedMs: number;
  /** Streams that had a tick after the acknowledgement, by the end of the wait. */
  streamsResumed: number;
  /** Times the new leader was seen not leading, or another node leading, while watched. */
  secondFailovers: number;
  watchS: number;
  /** Orders sent to the new leader while watched, and those not acknowledged. */
  watchOrders: number;
  watchOrdersFailed: number;
  /** The killed node back as a standby after the kill, ms (NaN: not within the watch). */
  standbyBackMs: number;
  /** After the watch: copied positions open in the store, and copies the new leader lists. */
  copiedAfter: number;
  copiesListed: number;
}

/** How long the streams may take to have a tick again after the failover, ms. */
const RESUME_BOUND_MS = 60_000;
const quiet = { error: (o: unknown) => console.error(o), warn: () => {} };

export async function benchFailoverLoad(o: FailoverLoadOptions): Promise<FailoverLoadFigures> {
  let filled: Filled | null = null;
  const { cluster, dataDir } = await startStreamsCluster("failover-load", {
    prepareStore: async (databaseUrl) => {
      filled = fillStore(databaseUrl, o.copies);
    },
  });
  const workers: ChildProcess[] = [];
  try {
    return await measure(cluster, workers, filled!, o);
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL");
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Filled {
  providerOrderId: number;
}

/** Copied positions open in the store: the copies' orders of the provider's order. */
function copiedOpen(databaseUrl: string, providerOrderId: number): number {
  const db = openStoreReadOnly(databaseUrl);
  try {
    return (
      db
        .prepare(
          `SELECT COUNT(*) AS n FROM copy_trades ct JOIN orders o ON o.id = ct.order_id
           WHERE ct.provider_order_id = ? AND o.status = ?`,
        )
        .get(providerOrderId, ORDER_STATUS.OPEN) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** The provider, `copies` copiers, and one fill of the provider that every copy mirrors. */
function fillStore(databaseUrl: string, copies: number): Filled {
  const t0 = performance.now();
  const db = openStore(databaseUrl);
  const feed = createManualFeed(db, { alwaysOpen: true });
  const money = moneyOf(db);
  const engine = new Engine({ db, feed, money, log: quiet });
  const copying = new CopyTrading({ db, money, engine, log: quiet });
  try {
    feed.set("EURUSD", feed.quote("EURUSD")!.price);
    const provider = fundProvider(db, money, {
      name: "Bench Desk",
      style: "manual",
      capital: 10_000e6,
    });
    makeCopiers(db, money, copying, provider, copies);
    // A tick just before the fill: making the copiers takes longer than a quote stays current.
    feed.set("EURUSD", feed.quote("EURUSD")!.price);
    const order = providerBuys(engine, feed, provider);
    log(
      `failover-load: ${copies} copies made and the provider's fill mirrored in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    return { providerOrderId: order.id };
  } finally {
    copying.stop();
    engine.stop();
    feed.stop();
    db.close();
  }
}

async function measure(
  cluster: Cluster,
  workers: ChildProcess[],
  filled: Filled,
  o: FailoverLoadOptions,
): Promise<FailoverLoadFigures> {
  const admin = cluster.secrets.OPERATOR_TOKEN;
  const copiedBefore = copiedOpen(cluster.databaseUrl, filled.providerOrderId);
  let leader = await cluster.leader();
  const ticker = startTicker(() => leader.url, admin, o.tickMs);
  try {
    await ticker.first;
    const [inst] = await tradables(leader.url);
    const token = await demoToken(leader.url);
    const pool = startWorkers(cluster, workers, {
      clients: o.streams,
      perWorker: o.perWorker,
      rampPerSecond: o.rampPerSecond,
      clientNice: o.clientNice,
    });
    const connectSeconds = await connected(pool, {
      clients: o.streams,
      connectTimeoutS: o.connectTimeoutS,
    });
    const streamsReady = [...pool.progress.values()].reduce((a, p) => a + p.ready, 0);
    const standby = await standbyOf(cluster, leader);
    mustBeOk(
      "order through the standby before the kill",
      await placeOrder(standby.url, token, inst, "bench-failover-load-check"),
    );
    const refusals = { refusals: {} as Record<string, number>, transportErrors: 0 };
    const killed = leader;
    const t0 = performance.now();
    killed.kill9();
    await firstAck(standby, admin, token, inst, "bench-failover-load-first", refusals);
    const failoverMs = performance.now() - t0;
    leader = standby;
    log(
      `failover-load: ${standby.name} acknowledged its first order ${failoverMs.toFixed(0)} ms after the kill`,
    );
    const resumed = await streamsResume(pool, o.streams);
    log(
      `failover-load: ${resumed.count}/${o.streams} streams had a tick again` +
        (Number.isNaN(resumed.ms)
          ? ` (not all within ${RESUME_BOUND_MS} ms)`
          : ` within ${resumed.ms.toFixed(0)} ms`),
    );
    const watch = await watchRoles(leader, killed, token, inst, o.watchS, t0);
    const copiedAfter = copiedOpen(cluster.databaseUrl, filled.providerOrderId);
    const listed = mustBeOk(
      "copies on the new leader",
      await call<{ total: number }>(
        leader.url,
        "GET",
        `${adminCopies.path}?status=${COPY_STATUSES.indexOf("active") + 1}&page=1`,
        {
          headers: { authorization: `Bearer ${admin}` },
        },
      ),
    );
    await pool.stop();
    return {
      copies: o.copies,
      copiedBefore,
      streams: o.streams,
      streamsReady,
      connectSeconds,
      failoverMs,
      streamsResumedMs: resumed.ms,
      streamsResumed: resumed.count,
      ...watch,
      watchS: o.watchS,
      copiedAfter,
      copiesListed: listed.total,
    };
  } finally {
    await ticker.stop();
  }
}

/**
 * Marks the streams now, then waits (bounded) until each has had a change since: the time from the
 * mark to the latest stream's first change, by the workers' clocks (the same machine's).
 */
async function streamsResume(pool: Pool, streams: number): Promise<{ ms: number; count: number }> {
  const markAt = Date.now();
  pool.send({ type: "mark", at: markAt });
  const marked = () => [...pool.progress.values()].filter((p) => p.markAt === markAt);
  const resumed = () => marked().reduce((a, p) => a + p.sinceMark, 0);
  while (Date.now() - markAt < RESUME_BOUND_MS) {
    if (resumed() >= streams)
      return { ms: Math.max(...marked().map((p) => p.lastResumeAt)) - markAt, count: streams };
    await sleep(100);
  }
  return { ms: NaN, count: resumed() };
}

/**
 * Watches both nodes' roles every 250 ms for `seconds`, with an order a second on the new leader:
 * how often another node led or the new leader did not, and when the killed node came back as a
 * standby (ms after `killedAt`).
 */
async function watchRoles(
  leader: NodeProcess,
  killed: NodeProcess,
  token: string,
  inst: Tradable,
  seconds: number,
  killedAt: number,
): Promise<{
  secondFailovers: number;
  watchOrders: number;
  watchOrdersFailed: number;
  standbyBackMs: number;
}> {
  let secondFailovers = 0;
  let standbyBackMs = NaN;
  let watchOrders = 0;
  let watchOrdersFailed = 0;
  let lastOrder = -Infinity;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const [mine, other] = await Promise.all([leader.health(), killed.health()]);
    if (mine?.role !== "leader" || other?.role === "leader") {
      secondFailovers++;
      log(
        `failover-load: roles ${leader.name} ${mine?.role ?? "-"}, ${killed.name} ${other?.role ?? "-"}`,
      );
    }
    if (other?.role === "standby" && Number.isNaN(standbyBackMs))
      standbyBackMs = performance.now() - killedAt;
    if (performance.now() - lastOrder >= 1_000) {
      lastOrder = performance.now();
      watchOrders++;
      const answer = await placeOrder(
        leader.url,
        token,
        inst,
        `bench-failover-load-watch-${watchOrders}`,
        5_000,
      ).catch(() => null);
      if (answer?.code !== CODE.OK) watchOrdersFailed++;
    }
    await sleep(250);
  }
  return { secondFailovers, watchOrders, watchOrdersFailed, standbyBackMs };
}
