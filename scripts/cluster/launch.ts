/**
 * Starts the whole product as a cluster on one machine: PostgreSQL, NATS, upstream nodes (one
 * leads the engine, the others stand by), web nodes in cluster mode, and HAProxy in front of the
 * web nodes. `npm run cluster` (scripts/cluster/main.ts) runs it; the cluster test, `npm run
 * soak:cluster` and `npm run bench:cluster` use the same launcher.
 *
 * Every node is supervised: a node that exits (killed, or a leader that lost its lock) is started
 * again on the same port after RESTART_DELAY_MS, as a real supervisor (systemd, Kubernetes) would;
 * `stop()` ends them for good.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { startPostgres, type PostgresServer } from "../services/postgres.js";
import { startNats, type NatsServer } from "../services/nats.js";
import { startHaproxy, type HaproxyServer } from "../services/haproxy.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** How long a supervised node waits before it is started again (ms). */
export const RESTART_DELAY_MS = 500;
/** How long a node may take to start (ms). */
const START_TIMEOUT_MS = 90_000;

export interface ClusterOptions {
  /** HAProxy's port: the product's address (default 3000). */
  port: number;
  /** Where the cluster keeps its data: PostgreSQL's files, uploads, the generated secrets. */
  dataDir: string;
  upstreams?: number;
  webs?: number;
  /** false: PostgreSQL without fsync (tests only). */
  durable?: boolean;
  /** More environment for every upstream and web node (e.g. MARKET_FEED=manual in tests). */
  env?: Record<string, string>;
  /** Each node's and service's output goes to DATA_DIR/logs/<name>.log; lines of note come here. */
  log?: (line: string) => void;
  /**
   * The Node arguments that start an upstream or a web node (default: its TypeScript source through
   * tsx; the test suite passes its bundles).
   */
  nodeArgs?: (entry: "upstream" | "server") => string[];
  /**
   * Runs once the cluster's database exists and before the first upstream node starts, with the
   * upstream role's URL: a bench fills the store there as a long-running deployment would have
   * (the nodes then start from it, as after a restart).
   */
  prepareStore?: (databaseUrl: string) => Promise<void>;
}

const FROM_SOURCE = {
  upstream: ["--import", "tsx", "upstream/main.ts"],
  server: ["--import", "tsx", "server.ts"],
};

export interface NodeProcess {
  readonly name: string;
  readonly kind: "upstream" | "web";
  readonly url: string;
  /** The running process's pid (a restart changes it). */
  readonly pid: number;
  /** Resolves when the current process has started (after a kill or a restart: the new one). */
  ready(): Promise<void>;
  /**
   * kill -9 of the current process; the supervisor starts it again after `restartAfterMs`
   * (default RESTART_DELAY_MS; longer: a node that stays down for a while).
   */
  kill9(o?: { restartAfterMs?: number }): void;
  /** Ends the node for good. */
  stop(): Promise<void>;
  /** The upstream node's /healthz data (role, store, broker). */
  health(): Promise<{ role?: string; node?: string; [k: string]: unknown } | null>;
}

export interface Cluster {
  url: string;
  pg: PostgresServer;
  /** The cluster's database as the upstream nodes' role, `upstream` (the web nodes' is `web`). */
  databaseUrl: string;
  /** The same database as the web nodes' role, `web` (the web_ tables only). */
  webDatabaseUrl: string;
  nats: NatsServer;
  haproxy: HaproxyServer;
  upstreams: NodeProcess[];
  webs: NodeProcess[];
  secrets: Secrets;
  /** The upstream node that now leads (waits until one does, up to `timeoutMs`). */
  leader(timeoutMs?: number): Promise<NodeProcess>;
  stop(): Promise<void>;
}

export interface Secrets {
  SESSION_SECRET: string;
  OPERATOR_SECRET_KEY: string;
  OPERATOR_TOKEN: string;
  /** The upstream nodes' NATS password (user `upstream`). */
  NATS_UPSTREAM_PASSWORD: string;
  /** A read-only NATS user's password (user `observer`: subscribes, never publishes). */
  NATS_OBSERVER_PASSWORD: string;
  /** PostgreSQL's superuser (`tradepost`): only this script uses it, to make the roles. */
  POSTGRES_SUPERUSER_PASSWORD: string;
  /** The upstream nodes' role (`upstream`, the database's owner, no superuser). */
  POSTGRES_UPSTREAM_PASSWORD: string;
  /** The web nodes' role (`web`, member of tradepost_web: the web_ tables only). */
  POSTGRES_WEB_PASSWORD: string;
}

/** The cluster's secrets, made once and kept in DATA_DIR/secrets.json (mode 600). */
function secretsIn(dataDir: string): Secrets {
  const file = path.join(dataDir, "secrets.json");
  const made: Secrets = {
    SESSION_SECRET: crypto.randomBytes(48).toString("base64url"),
    OPERATOR_SECRET_KEY: crypto.randomBytes(32).toString("hex"),
    OPERATOR_TOKEN: crypto.randomBytes(32).toString("base64url"),
    NATS_UPSTREAM_PASSWORD: crypto.randomBytes(24).toString("base64url"),
    NATS_OBSERVER_PASSWORD: crypto.randomBytes(24).toString("base64url"),
    POSTGRES_SUPERUSER_PASSWORD: crypto.randomBytes(24).toString("base64url"),
    POSTGRES_UPSTREAM_PASSWORD: crypto.randomBytes(24).toString("base64url"),
    POSTGRES_WEB_PASSWORD: crypto.randomBytes(24).toString("base64url"),
  };
  // A folder made by an earlier release keeps its secrets and gains the ones it lacks.
  const kept = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>)
    : {};
  const s: Secrets = { ...made, ...kept };
  fs.writeFileSync(file, JSON.stringify(s, null, 2), { mode: 0o600 });
  return s;
}

async function healthOf(url: string) {
  try {
    const r = await fetch(url + "/healthz", { signal: AbortSignal.timeout(2_000) });
    const body = (await r.json()) as { data?: Record<string, unknown> };
    return (body.data ?? {}) as { role?: string; node?: string };
  } catch {
    return null;
  }
}

function supervise(o: {
  name: string;
  kind: "upstream" | "web";
  port: number;
  args: string[];
  env: NodeJS.ProcessEnv;
  logDir: string;
  /** Resolves once the process serves. */
  readyWhen: (child: ChildProcess, url: string) => Promise<void>;
  note: (line: string) => void;
}): NodeProcess {
  const url = `http://127.0.0.1:${o.port}`;
  const logFile = path.join(o.logDir, `${o.name}.log`);
  let child: ChildProcess;
  let started: Promise<void>;
  let stopped = false;
  /** True from a kill (or an exit) until the supervisor has spawned the next process. */
  let down = false;
  let restartDelay = RESTART_DELAY_MS;
  const run = () => {
    down = false;
    const out = fs.openSync(logFile, "a");
    child = spawn(process.execPath, o.args, {
      cwd: ROOT,
      env: o.env,
      stdio: ["ignore", "pipe", out],
    });
    const c = child;
    c.stdout!.on("data", (d) => fs.appendFileSync(logFile, d));
    started = o.readyWhen(c, url);
    started.catch(() => undefined);
    c.once("exit", (code, signal) => {
      if (stopped) return;
      down = true;
      const delay = restartDelay;
      restartDelay = RESTART_DELAY_MS;
      o.note(`${o.name} exited (${signal ?? code}); starting it again in ${delay} ms`);
      setTimeout(() => {
        if (!stopped) run();
      }, delay);
    });
  };
  run();
  return {
    name: o.name,
    kind: o.kind,
    url,
    get pid() {
      return child.pid ?? 0;
    },
    // The current process's start; when it dies (or was killed) before or after starting, the
    // supervisor's next one.
    async ready() {
      const until = Date.now() + START_TIMEOUT_MS + restartDelay;
      for (;;) {
        try {
          await started;
          if (!down) return;
        } catch (err) {
          if (stopped || Date.now() > until) throw err;
        }
        if (stopped) throw new Error(`${o.name} was stopped`);
        if (Date.now() > until) throw new Error(`${o.name} did not start again`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    kill9(k) {
      down = true;
      restartDelay = k?.restartAfterMs ?? RESTART_DELAY_MS;
      child.kill("SIGKILL");
    },
    async stop() {
      stopped = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      });
    },
    health: () => healthOf(url),
  };
}

/** Waits for the upstream's "UPSTREAM_READY <url>" line. */
function upstreamReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no UPSTREAM_READY")), START_TIMEOUT_MS);
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("UPSTREAM_READY ")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", () => reject(new Error("the upstream node exited while starting")));
  });
}

/** Waits until the web answers GET /healthz with 200. */
async function webReady(child: ChildProcess, url: string): Promise<void> {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error("the web node exited while starting");
    try {
      if ((await fetch(url + "/healthz", { signal: AbortSignal.timeout(1_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the web node did not answer within 90 s");
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    return await start(o, started);
  } catch (err) {
    // Whatever started is stopped again, last first: a failed start leaves nothing running.
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    throw err;
  }
}

async function start(
  o: ClusterOptions,
  started: Array<{ stop(): Promise<void> }>,
): Promise<Cluster> {
  const note = o.log ?? (() => undefined);
  const dataDir = path.resolve(o.dataDir);
  const logDir = path.join(dataDir, "logs");
  fs.mkdirSync(logDir, { recursive: true });
  const secrets = secretsIn(dataDir);
  // Passwords for every connection (scram-sha-256, never trust), and no node as a superuser: the
  // upstream nodes own the database; the web nodes may touch its web_ tables only (migration 032
  // grants tradepost_web, made here before the first upstream node migrates).
  const pg = await startPostgres({
    dir: path.join(dataDir, "postgres"),
    port: o.port + 200,
    durable: o.durable ?? true,
    logFile: path.join(logDir, "postgres.log"),
    superuserPassword: secrets.POSTGRES_SUPERUSER_PASSWORD,
  });
  started.push(pg);
  await pg.createRole("upstream", secrets.POSTGRES_UPSTREAM_PASSWORD, { database: "postgres" });
  await pg.createDatabase("tradepost", "upstream");
  const databaseUrl = await pg.createRole("upstream", secrets.POSTGRES_UPSTREAM_PASSWORD, {
    database: "tradepost",
  });
  const webDatabaseUrl = await pg.createRole("web", secrets.POSTGRES_WEB_PASSWORD, {
    database: "tradepost",
    inRole: "tradepost_web",
  });
  // One NATS user per role: the upstream nodes publish and subscribe to the cluster's subjects
  // only; an observer (a person watching the pushes) only subscribes. The web nodes use no NATS.
  const nats = await startNats({
    port: o.port + 201,
    logFile: path.join(logDir, "nats.log"),
    configDir: dataDir,
    users: [
      {
        user: "upstream",
        password: secrets.NATS_UPSTREAM_PASSWORD,
        publish: ["tradepost.>"],
        subscribe: ["tradepost.>"],
      },
      {
        user: "observer",
        password: secrets.NATS_OBSERVER_PASSWORD,
        publish: [],
        subscribe: ["tradepost.>"],
      },
    ],
  });
  const natsUrl = nats.url.replace(
    "nats://",
    `nats://upstream:${encodeURIComponent(secrets.NATS_UPSTREAM_PASSWORD)}@`,
  );
  started.push(nats);
  if (o.prepareStore) await o.prepareStore(databaseUrl);
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? "production",
    DATABASE_URL: databaseUrl,
    // The NATS and PostgreSQL passwords stay out of the nodes' environment: each node gets its
    // own role's in its URLs (the web nodes: DATABASE_URL as the web role, no NATS).
    SESSION_SECRET: secrets.SESSION_SECRET,
    OPERATOR_SECRET_KEY: secrets.OPERATOR_SECRET_KEY,
    OPERATOR_TOKEN: secrets.OPERATOR_TOKEN,
    ...o.env,
  };
  const upstreamPorts = Array.from({ length: o.upstreams ?? 2 }, (_, i) => o.port + 101 + i);
  const upstreamNode = (port: number, i: number) =>
    supervise({
      name: `upstream-${i + 1}`,
      kind: "upstream",
      port,
      args: o.nodeArgs?.("upstream") ?? FROM_SOURCE.upstream,
      env: {
        ...base,
        NATS_URL: natsUrl,
        UPSTREAM_HOST: "127.0.0.1",
        UPSTREAM_PORT: String(port),
        UPSTREAM_NODE_NAME: `upstream-${i + 1}`,
        // The upstream nodes share their uploads (one machine: one directory).
        DATA_DIR: path.join(dataDir, "upstream"),
      },
      logDir,
      readyWhen: (c) => upstreamReady(c),
      note,
    });
  // The first node starts alone and leads; the others then start as standbys.
  const upstreams = [upstreamNode(upstreamPorts[0], 0)];
  started.push(upstreams[0]);
  await upstreams[0].ready();
  for (let i = 1; i < upstreamPorts.length; i++) {
    upstreams.push(upstreamNode(upstreamPorts[i], i));
    started.push(upstreams[i]);
  }
  await Promise.all(upstreams.slice(1).map((u) => u.ready()));
  const upstreamUrls = upstreams.map((u) => u.url);
  const webPorts = Array.from({ length: o.webs ?? 2 }, (_, i) => o.port + 1 + i);
  const webs = webPorts.map((port, i) =>
    supervise({
      name: `web-${i + 1}`,
      kind: "web",
      port,
      args: o.nodeArgs?.("server") ?? FROM_SOURCE.server,
      env: {
        ...base,
        DATABASE_URL: webDatabaseUrl,
        PORT: String(port),
        HOST: "127.0.0.1",
        // Each web node starts its list at another upstream node, spreading the connections.
        UPSTREAM_URL: [
          ...upstreamUrls.slice(i % upstreamUrls.length),
          ...upstreamUrls.slice(0, i % upstreamUrls.length),
        ].join(","),
        // HAProxy is the one proxy hop in front of the web nodes.
        TRUST_PROXY: "1",
        DATA_DIR: path.join(dataDir, `web-${i + 1}`),
      },
      logDir,
      readyWhen: (c, url) => webReady(c, url),
      note,
    }),
  );
  started.push(...webs);
  await Promise.all(webs.map((w) => w.ready()));
  const haproxy = await startHaproxy({
    port: o.port,
    webUrls: webs.map((w) => w.url),
    logFile: path.join(logDir, "haproxy.log"),
  });
  return {
    url: haproxy.url,
    pg,
    databaseUrl,
    webDatabaseUrl,
    nats,
    haproxy,
    upstreams,
    webs,
    secrets,
    async leader(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        for (const u of upstreams) if ((await u.health())?.role === "leader") return u;
        if (Date.now() > until) throw new Error("no upstream node leads");
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      await haproxy.stop();
      await Promise.all(webs.map((w) => w.stop()));
      await Promise.all(upstreams.map((u) => u.stop()));
      await nats.stop();
      await pg.stop();
    },
  };
}
