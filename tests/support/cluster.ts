/**
 * A cluster for the tests and the cluster soak (scripts/cluster/launch.ts): PostgreSQL, NATS,
 * upstream nodes, web nodes and HAProxy on loopback, in a fresh temporary folder, on a base port
 * whose ports are all free, with the hand-driven market (MARKET_FEED=manual: prices move only when
 * the test sets them) and the abuse limits off. Plus the operator's calls the tests make: a price
 * set, a setting changed, each through any upstream node (a standby sends it on to the leader).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startCluster, type Cluster } from "../../scripts/cluster/launch.js";
import { machineTmpDir } from "../../scripts/services/ports.js";
import { nodeArgsFor } from "./node-bundle.js";

/**
 * `scripts/ensure-services.sh` (installs Debian's postgresql, nats-server and haproxy when missing),
 * one run at a time on this machine: test files that start at once must not run apt-get together.
 */
export function ensureServices(): void {
  const lock = path.join(machineTmpDir(), "tradepost-ensure-services.lock");
  execFileSync("flock", [lock, "bash", "scripts/ensure-services.sh"], { stdio: "inherit" });
}

/** The offsets of the ports a cluster uses from its base (scripts/cluster/launch.ts). */
const PORT_OFFSETS = [0, 1, 2, 101, 102, 200, 201];
/** Bases are tried this far apart, so that two clusters' ports never interleave. */
const BASE_STEP = 300;

export interface Envelope<T = any> {
  code: number;
  msg: string;
  data: T;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/**
 * A base port in [from, to) whose cluster ports are all free now, starting at a random one of the
 * range's bases (two runs at once seldom try the same first).
 */
export async function freeClusterBase(from: number, to: number): Promise<number> {
  const bases: number[] = [];
  for (let b = from; b + 201 < to; b += BASE_STEP) bases.push(b);
  const first = Math.floor(Math.random() * bases.length);
  for (let i = 0; i < bases.length; i++) {
    const base = bases[(first + i) % bases.length];
    const free = await Promise.all(PORT_OFFSETS.map((o) => portFree(base + o)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no base port in ${from}-${to} has its cluster ports free`);
}

export interface TestCluster {
  cluster: Cluster;
  dataDir: string;
  /** Stops every process and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts a cluster on a free base in `ports`, its data in a new temporary folder; the nodes run in
 * production mode (vitest's NODE_ENV=test is not passed on), with `env` added.
 */
export async function startTestCluster(o: {
  name: string;
  ports: [number, number];
  upstreams?: number;
  webs?: number;
  durable?: boolean;
  env?: Record<string, string>;
  log?: (line: string) => void;
}): Promise<TestCluster> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tp-${o.name}-`));
  // PostgreSQL runs as its own system user when the tests run as root: it must reach its folder
  // inside this one (mkdtemp makes it 0700).
  fs.chmodSync(dataDir, 0o755);
  let cluster: Cluster;
  try {
    cluster = await startCluster({
      port: await freeClusterBase(...o.ports),
      dataDir,
      upstreams: o.upstreams ?? 2,
      webs: o.webs ?? 2,
      durable: o.durable ?? false,
      env: {
        NODE_ENV: "production",
        MARKET_FEED: "manual",
        MARKET_ALWAYS_OPEN: "1",
        RATE_LIMIT: "0",
        LOG_LEVEL: "warn",
        ...o.env,
      },
      log: o.log,
      nodeArgs: nodeArgsFor,
    });
  } catch (err) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  // A quote stays current between the test's ticks (and across a take-over).
  await operatorPost(cluster, "/admin/api/settings", {
    key: "market.stale_after_s",
    value: "3600",
  });
  return {
    cluster,
    dataDir,
    async close() {
      await cluster.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A form POST to an upstream node; the envelope (HTTP status kept beside it). */
export async function upstreamPost<T = any>(
  baseUrl: string,
  p: string,
  body: Record<string, string | number>,
  headers: Record<string, string> = {},
): Promise<Envelope<T> & { status: number }> {
  const res = await fetch(baseUrl + p, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
    signal: AbortSignal.timeout(15_000),
  });
  return { ...((await res.json()) as Envelope<T>), status: res.status };
}

/** A GET of an upstream node; the envelope. */
export async function upstreamGet<T = any>(
  baseUrl: string,
  p: string,
  headers: Record<string, string> = {},
): Promise<Envelope<T>> {
  const res = await fetch(baseUrl + p, { headers, signal: AbortSignal.timeout(15_000) });
  return (await res.json()) as Envelope<T>;
}

/**
 * An operator's POST through the first upstream node that answers (a standby sends it on to the
 * leader), with the cluster's OPERATOR_TOKEN; fails unless accepted.
 */
export async function operatorPost<T = any>(
  cluster: Cluster,
  p: string,
  body: Record<string, string | number>,
): Promise<T> {
  let last: unknown = null;
  for (const u of cluster.upstreams) {
    try {
      const r = await upstreamPost<T>(u.url, p, body, {
        authorization: `Bearer ${cluster.secrets.OPERATOR_TOKEN}`,
      });
      if (r.code === 1) return r.data;
      last = r;
    } catch (err) {
      last = err;
    }
  }
  throw new Error(`${p} refused: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
}

/** Ticks an instrument at `price` (the manual market's price setter, operator token). */
export function setPrice(cluster: Cluster, code: string, price: number): Promise<unknown> {
  return operatorPost(cluster, "/dev/market/price", { code, price: String(price) });
}
