/**
 * Section "fanout" of `npm run bench:cluster`: CLIENTS live-stream clients spread evenly over the
 * two web nodes of a cluster (scripts/cluster/launch.ts: PostgreSQL with fsync on, NATS, two
 * upstream nodes, two web nodes, HAProxy), while the bench ticks the hand-driven market
 * (MARKET_FEED=manual) every TICK_MS through the leader's POST /dev/market/price: one instrument
 * per tick, in turn, its price moving up and down by 0.05 %.
 *
 * The clients are tests/bench/live-clients.ts (one raw TCP connection per client, GET
 * /live?topics=DAY_MARKET, no reconnect), PER_WORKER per forked process (BENCH_PER_WORKER). They connect to the web
 * nodes directly, not through HAProxy: a proxied stream holds two descriptors in HAProxy's one
 * process (client and server side), and 20,000 streams would need 40,000, twice the hard limit of
 * open files here; the web nodes themselves are what is measured.
 *
 * The clients share the machine's two cores with the servers they measure; in production they are
 * other devices. Two settings keep them from being most of what is measured:
 * - the client workers run at a lower scheduling priority (nice `clientNice`, 19 by default): at
 *   equal priority every one of the twenty thousand waking clients preempts its web node in the
 *   middle of the write loop over its streams;
 * - 2,500 clients per worker (8 workers): fewer processes, so each wake-up reads many streams and
 *   the scheduler switches less.
 * On the machine measured, at 250 ms ticks: nice 19 with 8 workers, p99 226–235 ms; nice 0 with 8
 * workers, 464 ms; nice 19 with 20 workers, 257–452 ms; nice 0 with 20 workers, 525–540 ms. A niced
 * client still counts in its latency the time it waited for a core: the measurement is not
 * shortened, only the clients' interference with the servers is.
 *
 * Measured for SECONDS once every stream is open: streams open per web node at the end (every
 * client, counted by the workers), client errors by kind, tick-to-client latency (receive time
 * minus the newest quote `Time` in the event: the leader's clock when it recorded the tick, the
 * same machine's clock as the clients'), each web node's memory and CPU, and every second each
 * upstream node's websocket connections (its GET /healthz `ws`): one web node per upstream node,
 * as the web nodes start their URL lists at different nodes, so exactly one each, two in all.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startCluster, type Cluster, type ClusterOptions } from "../../scripts/cluster/launch.js";
import { clusterBasePort, log, ROOT, rssOf, setPrice, sleep, tradables } from "./cluster-common.js";
import { cpuTicksOf } from "./cpu-use.js";

export interface FanoutOptions {
  clients: number;
  perWorker: number;
  /** New streams per second, all workers together. */
  rampPerSecond: number;
  seconds: number;
  tickMs: number;
  connectTimeoutS: number;
  /** The client workers' nice value (0..19). */
  clientNice: number;
}

export interface FanoutFigures {
  clients: number;
  /** Streams open at the end, per web node. */
  openPerWeb: number[];
  ready: number;
  errors: number;
  errorKinds: Record<string, number>;
  /** Client workers that sent no report (their clients count as not connected). */
  missingReports: number;
  connectSeconds: number;
  /** Ticks while measuring; ticks the leader refused or did not answer over the whole run. */
  ticks: number;
  tickErrors: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  /** p99 of the clients of each web node (web-1 reads upstream-1, the leader; web-2 the standby). */
  p99PerWebMs: number[];
  /**
   * Within one client process, from its first copy of a tick to each later copy (p50, p99): how
   * long one tick takes to reach all of a web node's streams, as the clients see it.
   */
  spreadP50Ms: number;
  spreadP99Ms: number;
  maxMs: number;
  webRssMiB: number[];
  webCpuPct: number[];
  /** Per upstream node: the least and most websocket connections seen while measuring. */
  upstreamWs: { name: string; min: number; max: number }[];
  workers: number;
  clientNice: number;
  clientCpuPct: number[];
  load: number;
}

interface Report {
  hist: number[];
  /** Per client process: from its first copy of a tick to each later copy, ms (its own lag). */
  spread: number[];
  samples: number;
  ready: number;
  errors: number;
  errorKinds?: Record<string, number>;
  open: number;
  cpuPct: number;
}

interface Progress {
  ready: number;
  snapshots: number;
  /** The last mark (ms since the epoch) the worker had when it reported. */
  markAt: number;
  /** Streams that received a change since that mark, and when the latest of them had its first. */
  sinceMark: number;
  lastResumeAt: number;
}

const CLUSTER_PORTS = [0, 1, 2, 101, 102, 200, 201];

/** The nodes' environment of a cluster that bench clients stream from. */
const STREAMS_CLUSTER_ENV = {
  MARKET_FEED: "manual",
  MARKET_ALWAYS_OPEN: "1",
  RATE_LIMIT: "0",
  STRATEGIES: "off",
  LOG_LEVEL: "warn",
  // Every bench client connects from 127.0.0.1: no bound on streams per address.
  LIVE_MAX_PER_IP: "0",
};

/**
 * A cluster that bench clients stream from (fanout, failover-load): PostgreSQL with fsync on, NATS,
 * two upstream nodes, two web nodes and HAProxy, in a new data folder; `prepareStore` as
 * startCluster's. The caller stops the cluster and removes the folder.
 */
export async function startStreamsCluster(
  section: string,
  o: Pick<ClusterOptions, "prepareStore"> = {},
): Promise<{ cluster: Cluster; dataDir: string }> {
  if (!fs.existsSync(path.join(ROOT, "build", "index.js")))
    throw new Error("no web build: run `NODE_ENV=production npx remix build` first");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tp-bench-${section}-`));
  // PostgreSQL runs as its own system user under root: it must reach its directory in here.
  fs.chmodSync(dataDir, 0o755);
  const port = await clusterBasePort(CLUSTER_PORTS);
  log(`${section}: starting the cluster on ports ${port}.. (logs in ${dataDir}/logs)`);
  const cluster = await startCluster({
    port,
    dataDir,
    upstreams: 2,
    webs: 2,
    durable: true,
    env: STREAMS_CLUSTER_ENV,
    log: (line) => log(line),
    nodeArgs: (entry) => [
      // BENCH_NODE_ARGS reaches the upstream nodes (e.g. a CPU profile of each).
      ...(entry === "upstream"
        ? (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)
        : []),
      "--import",
      "tsx",
      entry === "upstream" ? "upstream/main.ts" : "server.ts",
    ],
    ...o,
  });
  return { cluster, dataDir };
}

export async function benchFanout(o: FanoutOptions): Promise<FanoutFigures> {
  const { cluster, dataDir } = await startStreamsCluster("fanout");
  const workers: ChildProcess[] = [];
  try {
    return await measure(cluster, workers, o);
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL");
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(
  cluster: Cluster,
  workers: ChildProcess[],
  o: FanoutOptions,
): Promise<FanoutFigures> {
  const leader = await cluster.leader();
  const ticker = startTicker(() => leader.url, cluster.secrets.OPERATOR_TOKEN, o.tickMs);
  try {
    await ticker.first;
    const webPids = cluster.webs.map((w) => w.pid);
    const rssBefore = webPids.map(rssOf);
    const pool = startWorkers(cluster, workers, o);
    const connectSeconds = await connected(pool, o);
    await sleep(2_000);
    pool.send({ type: "measure" });
    const cpu0 = webPids.map((pid) => cpuTicksOf(pid));
    const ticks0 = ticker.count();
    const t0 = Date.now();
    const ws = cluster.upstreams.map((u) => ({ name: u.name, min: Infinity, max: 0 }));
    while (Date.now() - t0 < o.seconds * 1000) {
      await sleep(1_000);
      const hs = await Promise.all(cluster.upstreams.map((u) => u.health()));
      hs.forEach((h, i) => {
        const n = Number(h?.ws ?? NaN);
        ws[i].min = Math.min(ws[i].min, n);
        ws[i].max = Math.max(ws[i].max, n);
      });
    }
    const secs = (Date.now() - t0) / 1000;
    const webCpuPct = webPids.map((pid, i) => (cpuTicksOf(pid) - cpu0[i]) / secs);
    const webRss = webPids.map(rssOf);
    const reports = await pool.stop();
    const load = os.loadavg()[0];
    return {
      ...summarise(reports, pool.webOf, o),
      connectSeconds,
      ticks: ticker.count() - ticks0,
      tickErrors: ticker.errors(),
      webRssMiB: webRss.map((r, i) => (r - rssBefore[i]) / 1048576),
      webCpuPct,
      upstreamWs: ws,
      load,
    };
  } finally {
    await ticker.stop();
  }
}

/**
 * Ticks one instrument every tickMs, in turn, up and down by 0.05 %, on the node `leaderUrl` names
 * at each tick (after a failover, the new leader).
 */
export function startTicker(leaderUrl: () => string, admin: string, tickMs: number) {
  let on = true;
  let count = 0;
  let errors = 0;
  let firstDone = () => {};
  const first = new Promise<void>((r) => (firstDone = r));
  const loop = (async () => {
    const insts = await tradables(leaderUrl(), 3);
    while (on) {
      const s = performance.now();
      const inst = insts[count % insts.length];
      const up = Math.floor(count / insts.length) % 2 === 0;
      try {
        const price = (inst.price * (up ? 1.0005 : 0.9995)).toFixed(inst.precision);
        await setPrice(leaderUrl(), admin, inst.code, Number(price));
      } catch (err) {
        if (errors++ === 0) log(`fanout: a tick failed (${(err as Error).message})`);
      }
      count++;
      firstDone();
      await sleep(Math.max(0, tickMs - (performance.now() - s)));
    }
  })();
  return {
    // The first tick, or the loop's failure before it (no instrument, a refused price).
    first: Promise.race([first, loop]),
    count: () => count,
    errors: () => errors,
    stop: async () => {
      on = false;
      await loop;
    },
  };
}

export interface Pool {
  /** The web node (index) each worker streams from. */
  webOf: number[];
  progress: Map<number, Progress>;
  send(m: { type: string; at?: number }): void;
  /** Asks every worker for its report; resolves with them (bounded wait). */
  stop(): Promise<Report[]>;
}

export function startWorkers(
  cluster: Cluster,
  workers: ChildProcess[],
  o: Pick<FanoutOptions, "clients" | "perWorker" | "rampPerSecond" | "clientNice">,
): Pool {
  const n = Math.max(2, Math.ceil(o.clients / o.perWorker));
  const webOf: number[] = [];
  const progress = new Map<number, Progress>();
  const reports: Report[] = [];
  for (let w = 0; w < n; w++) {
    const web = w % cluster.webs.length;
    webOf.push(web);
    const count = Math.floor(o.clients / n) + (w < o.clients % n ? 1 : 0);
    const c = fork(path.join(ROOT, "tests/bench/live-clients.ts"), [], {
      execArgv: ["--import", "tsx"],
      env: {
        ...process.env,
        BENCH_URL: `${cluster.webs[web].url}/live?topics=DAY_MARKET`,
        BENCH_COUNT: String(count),
        BENCH_RAMP: String(Math.ceil(o.rampPerSecond / n)),
        BENCH_CLIENT_NICE: String(o.clientNice),
      },
    });
    workers.push(c);
    c.on("message", (m: { type: string } & Record<string, unknown>) => {
      if (m.type === "progress") progress.set(w, m as unknown as Progress);
      if (m.type === "report") reports[w] = m as unknown as Report;
    });
  }
  return {
    webOf,
    progress,
    send: (m) => workers.forEach((c) => c.connected && c.send(m)),
    async stop() {
      workers.forEach((c) => c.connected && c.send({ type: "stop" }));
      const until = Date.now() + 30_000;
      while (reports.filter(Boolean).length < n && Date.now() < until) await sleep(100);
      return reports;
    },
  };
}

/** Waits until every stream had its ready event and its first snapshot; answers the seconds. */
export async function connected(
  pool: Pool,
  o: Pick<FanoutOptions, "clients" | "connectTimeoutS">,
): Promise<number> {
  const t0 = Date.now();
  let ready = 0;
  let snaps = 0;
  while (Date.now() - t0 < o.connectTimeoutS * 1000) {
    await sleep(500);
    const ps = [...pool.progress.values()];
    ready = ps.reduce((a, p) => a + p.ready, 0);
    snaps = ps.reduce((a, p) => a + p.snapshots, 0);
    if (ready >= o.clients && snaps >= o.clients) break;
  }
  const secs = (Date.now() - t0) / 1000;
  log(`fanout: ${ready}/${o.clients} streams ready, ${snaps} snapshots, in ${secs.toFixed(1)} s`);
  return secs;
}

/** Percentile (0..1) of a histogram of whole milliseconds. */
function histPct(hist: number[], p: number): number {
  const total = hist.reduce((a, b) => a + b, 0);
  const want = Math.ceil(total * p);
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i];
    if (acc >= want) return i;
  }
  return hist.length - 1;
}

/** The sum of the given workers' latency (or spread) histograms. */
function histOf(reports: Report[], which: "hist" | "spread" = "hist"): number[] {
  const hist = new Array<number>(reports[0]?.[which].length ?? 1).fill(0);
  for (const r of reports) r[which].forEach((v, i) => (hist[i] += v));
  return hist;
}

function summarise(reports: Report[], webOf: number[], o: FanoutOptions) {
  const got = reports.filter(Boolean);
  const webs = [0, 1];
  const ofWeb = (web: number) => reports.filter((r, w) => r && webOf[w] === web);
  const errorKinds: Record<string, number> = {};
  for (const r of got)
    for (const [k, v] of Object.entries(r.errorKinds ?? {}))
      errorKinds[k] = (errorKinds[k] ?? 0) + v;
  const hist = histOf(got);
  return {
    clients: o.clients,
    openPerWeb: webs.map((web) => ofWeb(web).reduce((a, r) => a + r.open, 0)),
    ready: got.reduce((a, r) => a + r.ready, 0),
    errors: got.reduce((a, r) => a + r.errors, 0),
    missingReports: webOf.length - got.length,
    errorKinds,
    samples: got.reduce((a, r) => a + r.samples, 0),
    p50Ms: histPct(hist, 0.5),
    p99Ms: histPct(hist, 0.99),
    p99PerWebMs: webs.map((web) => histPct(histOf(ofWeb(web)), 0.99)),
    spreadP50Ms: histPct(histOf(got, "spread"), 0.5),
    spreadP99Ms: histPct(histOf(got, "spread"), 0.99),
    maxMs: hist.reduce((m, v, i) => (v > 0 ? i : m), 0),
    workers: webOf.length,
    clientNice: o.clientNice,
    clientCpuPct: got.map((r) => r.cpuPct),
  };
}
