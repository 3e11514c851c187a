/**
 * Section "failover" of `npm run bench:cluster`: the time from the leader's kill -9 to the first
 * order acknowledged by the standby, over KILLS kills.
 *
 * The cluster is scripts/cluster/launch.ts with PostgreSQL (fsync on), NATS and two upstream nodes,
 * and no web node (orders go to the upstream nodes directly; HAProxy runs with an empty backend).
 * The market is hand-driven (MARKET_FEED=manual): the bench sets the price on the leader before
 * each kill, as a live feed would have ticked, so the quote the standby mirrored, which it starts
 * its market from, is current (within market.stale_after_s) when it takes over. (The staleness
 * bound itself is a four-eyes setting: a bench cannot raise it alone.)
 *
 * Each kill: the bench checks that the standby answers a forwarded order (code 1), kills the
 * leader's process (SIGKILL), then sends one market order to the standby every RETRY_MS with the
 * same idempotency key (as a client retrying) until one answer is code 1: the standby forwards it
 * while the leader lives, answers 503 while no node leads, then takes the leadership, rebuilds the
 * engine from the store and serves on its port. The launcher's supervisor starts the killed node
 * again after 500 ms as a standby; the next kill waits until it answers as one.
 *
 * At the end every acknowledged order of the kills is sent again with its key to the last leader,
 * which must answer the same order (nothing acknowledged was lost).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { CODE } from "@contract/envelope";
import { until } from "../support/wait.js";
import { startCluster, type Cluster, type NodeProcess } from "../../scripts/cluster/launch.js";
import {
  clusterBasePort,
  demoToken,
  log,
  mustBeOk,
  pct,
  placeOrder,
  setPrice,
  sleep,
  tradables,
  type Tradable,
} from "./cluster-common.js";

/** Interval between the orders sent to the standby after a kill, ms. */
const RETRY_MS = 10;
/** How long one order attempt may wait for its answer, ms. */
const ATTEMPT_TIMEOUT_MS = 3_000;
/** How long a kill may take to be followed by an acknowledged order before the bench fails, ms. */
const FAILOVER_BOUND_MS = 60_000;

export interface FailoverOptions {
  kills: number;
}

export interface FailoverFigures {
  kills: number;
  /** Kill to first acknowledged order, ms, per kill. */
  times: number[];
  p50Ms: number;
  maxMs: number;
  /** Answers other than code 1 received while no node led, by message. */
  refusals: Record<string, number>;
  /** Attempts that got no answer (connection refused, reset, timeout). */
  transportErrors: number;
  /** Acknowledged orders answered again with the same order id at the end. */
  replayed: number;
}

const CLUSTER_PORTS = [0, 101, 102, 200, 201];

export async function benchFailover(o: FailoverOptions): Promise<FailoverFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-bench-failover-"));
  // PostgreSQL runs as its own system user under root: it must reach its directory in here.
  fs.chmodSync(dataDir, 0o755);
  const port = await clusterBasePort(CLUSTER_PORTS);
  log(`failover: starting the cluster on ports ${port}.. (logs in ${dataDir}/logs)`);
  const cluster = await startCluster({
    port,
    dataDir,
    upstreams: 2,
    webs: 0,
    durable: true,
    env: { MARKET_FEED: "manual", MARKET_ALWAYS_OPEN: "1", RATE_LIMIT: "0", LOG_LEVEL: "warn" },
    log: (line) => log(line),
  });
  try {
    return await kills(cluster, o);
  } finally {
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function kills(cluster: Cluster, o: FailoverOptions): Promise<FailoverFigures> {
  const admin = cluster.secrets.OPERATOR_TOKEN;
  let leader = await cluster.leader();
  const [inst] = await tradables(leader.url);
  await setPrice(leader.url, admin, inst.code, inst.price);
  const token = await demoToken(leader.url);
  const figures: FailoverFigures = {
    kills: 0,
    times: [],
    p50Ms: NaN,
    maxMs: NaN,
    refusals: {},
    transportErrors: 0,
    replayed: 0,
  };
  const acked: { key: string; id: number }[] = [];
  for (let k = 0; k < o.kills; k++) {
    const standby = await standbyOf(cluster, leader);
    await setPrice(leader.url, admin, inst.code, inst.price);
    const check = await placeOrder(standby.url, token, inst, `bench-failover-check-${k}`);
    mustBeOk(`order through the standby before kill ${k + 1}`, check);
    const key = `bench-failover-${k}`;
    const t0 = performance.now();
    leader.kill9();
    const id = await firstAck(standby, admin, token, inst, key, figures);
    const ms = performance.now() - t0;
    figures.times.push(ms);
    figures.kills++;
    acked.push({ key, id });
    log(
      `failover: kill ${k + 1}/${o.kills}: ${leader.name} killed, ${standby.name} acknowledged order ${id} after ${ms.toFixed(0)} ms`,
    );
    leader = standby;
  }
  const last = await cluster.leader();
  for (const a of acked) {
    const again = mustBeOk("replay", await placeOrder(last.url, token, inst, a.key));
    if (again.Id !== a.id) throw new Error(`replay of ${a.key}: order ${again.Id}, not ${a.id}`);
    figures.replayed++;
  }
  const sorted = [...figures.times].sort((a, b) => a - b);
  figures.p50Ms = pct(sorted, 50);
  figures.maxMs = sorted.at(-1) ?? NaN;
  return figures;
}

/** The other upstream node, once it answers as a standby (after a restart: the new process). */
export async function standbyOf(cluster: Cluster, leader: NodeProcess): Promise<NodeProcess> {
  const other = cluster.upstreams.find((u) => u !== leader)!;
  const standby = async () => (await other.health())?.role === "standby";
  await until(`${other.name} comes back as a standby`, standby, 90_000, 100);
  return other;
}

/** How often the bench ticks the hand-driven market on the node it waits for (a live feed's pace). */
const FEED_TICK_MS = 250;

/**
 * Sends the order with `key` to `node` every RETRY_MS until it is acknowledged; its order id.
 * Meanwhile the price is set on `node` every FEED_TICK_MS, as a live feed would tick (a node that
 * takes over starts from the prices it mirrored, which stay current for market.stale_after_s).
 */
export async function firstAck(
  node: NodeProcess,
  admin: string,
  token: string,
  inst: Tradable,
  key: string,
  f: Pick<FailoverFigures, "refusals" | "transportErrors">,
): Promise<number> {
  const deadline = performance.now() + FAILOVER_BOUND_MS;
  let ticked = -Infinity;
  while (performance.now() < deadline) {
    const s = performance.now();
    if (s - ticked >= FEED_TICK_MS) {
      ticked = s;
      // Refused or unanswered while the node does not lead yet: the next tick tries again.
      await setPrice(node.url, admin, inst.code, inst.price).catch(() => undefined);
    }
    try {
      const answer = await placeOrder(node.url, token, inst, key, ATTEMPT_TIMEOUT_MS);
      if (answer.code === CODE.OK) return answer.data.Id;
      f.refusals[answer.msg] = (f.refusals[answer.msg] ?? 0) + 1;
    } catch {
      f.transportErrors++;
    }
    await sleep(Math.max(0, RETRY_MS - (performance.now() - s)));
  }
  throw new Error(
    `no order acknowledged by ${node.name} within ${FAILOVER_BOUND_MS} ms of the kill ` +
      `(answers so far: ${JSON.stringify(f.refusals)}, ${f.transportErrors} unanswered)`,
  );
}
