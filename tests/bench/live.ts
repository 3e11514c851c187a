/**
 * npm run bench:live — event-stream clients against /live while the upstream ticks.
 *
 * Starts an in-process reference upstream (simulated market, tick every BENCH_TICK_MS, default 250),
 * a web process serving /live (BENCH_WEB=full: the built product, `server.ts`, needs `npm run build`;
 * BENCH_WEB=harness: the live endpoints alone through the same handlers, tests/bench/live-web.ts;
 * default: full when a build exists, else harness), then BENCH_CLIENTS event-stream clients
 * (tests/bench/live-clients.ts) on loopback spread over child processes (so the clients' CPU is not the server's), and
 * measures for BENCH_SECONDS (default 20):
 *   connected clients and client errors (by kind), p50/p99 tick-to-client latency (receive time -
 *   the quote's Time), memory per client (web RSS delta / N), the web's CPU (also per 1,000
 *   clients) and the upstream's websocket connections.
 * BENCH_CLIENTS defaults to 10,000 (it needs `ulimit -n` above that). BENCH_PROFILE_DIR writes the
 * web's CPU profile there (node --cpu-prof), to see what limits it.
 * Goal (issue 10): every client connected with zero errors, p99 <= 300 ms, memory per client <=
 * 30 KiB, exactly one upstream connection. BENCH_STRICT=1 makes an unmet goal exit 1.
 */
import { spawn, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execSync } from "node:child_process";
import WebSocket from "ws";
import { buildUpstream } from "../../upstream/app.js";
import { loadConfig } from "../../upstream/platform/config.js";
import { cpuTicksOf } from "./cpu-use.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const N = Number(process.env.BENCH_CLIENTS || 10_000);
const GOAL_P99_MS = 300;
const GOAL_KIB_PER_CLIENT = 30;
// Every bench client connects from 127.0.0.1: lift the per-address stream bound for this run.
process.env.LIVE_MAX_PER_IP ||= "0";
const SECONDS = Number(process.env.BENCH_SECONDS || 20);
const TICK_MS = Number(process.env.BENCH_TICK_MS || 250);
const PER_WORKER = Number(process.env.BENCH_PER_WORKER || 1000);
const children: ChildProcess[] = [];

// The benchmark's sleeps pace it and assert nothing: polling intervals of bounded waits (the web
// answering, the streams connecting, the workers' reports), a settling pause before each memory
// reading, and the sampling interval of the measured window.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function log(s: string) {
  console.log(`[bench:live] ${s}`);
}

function fdLimit(): number {
  try {
    return Number(execSync("ulimit -n", { shell: "/bin/bash" }).toString().trim());
  } catch {
    return NaN;
  }
}

function rssOf(pid: number): number {
  const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const m = /VmRSS:\s+(\d+) kB/.exec(s);
  return m ? Number(m[1]) * 1024 : NaN;
}

async function waitHttp(url: string, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return true;
    } catch {
      /* not yet */
    }
    await sleep(300);
  }
  return false;
}

function cleanup() {
  for (const c of children) if (c.pid && c.exitCode === null) c.kill("SIGTERM");
}
process.on("exit", cleanup);
process.on("SIGINT", () => process.exit(130));

async function startWeb(
  mode: "full" | "harness",
  upstreamUrl: string,
): Promise<{ pid: number; url: string; child: ChildProcess; output: () => string } | null> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const entry = mode === "full" ? path.join(root, "server.ts") : path.join(here, "live-web.ts");
  // BENCH_PROFILE_DIR: the web writes a CPU profile there when it ends (what limits it).
  const prof = process.env.BENCH_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(process.execPath, [...prof, "--import", "tsx", entry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      UPSTREAM_URL: upstreamUrl,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const ok = await waitHttp(`${url}/live.json?topics=DAY_MARKET`, 60_000);
  if (!ok) {
    log(`${mode} web did not start:\n${out.slice(-2000)}`);
    child.kill("SIGTERM");
    return null;
  }
  return { pid: child.pid!, url, child, output: () => out };
}

function percentile(hist: number[], total: number, p: number): number {
  const want = Math.ceil(total * p);
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i];
    if (acc >= want) return i;
  }
  return hist.length - 1;
}

async function main() {
  const limit = fdLimit();
  if (Number.isFinite(limit) && limit < N + 200) {
    log(
      `file descriptor limit ${limit} is below ${N + 200}; raise it (ulimit -n ${N * 2 + 1000}) or lower BENCH_CLIENTS`,
    );
    process.exit(1);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tp-bench-live-"));
  const up = await buildUpstream(
    loadConfig({} as NodeJS.ProcessEnv, {
      port: 0,
      host: "127.0.0.1",
      dbFile: path.join(tmp, "up.sqlite"),
      dataDir: tmp,
      rateLimit: false,
      marketAlwaysOpen: true,
      tickMs: TICK_MS,
    }),
  );
  const upstreamUrl = await up.listen();
  log(`upstream ${upstreamUrl} ticking every ${TICK_MS} ms`);

  const hasBuild =
    fs.existsSync(path.join(root, "build/index.js")) && fs.existsSync(path.join(root, "server.ts"));
  const wanted =
    (process.env.BENCH_WEB as "full" | "harness" | undefined) ?? (hasBuild ? "full" : "harness");
  let web = await startWeb(wanted, upstreamUrl);
  let mode = wanted;
  if (!web && wanted === "full") {
    log("falling back to the live-routes harness");
    mode = "harness";
    web = await startWeb("harness", upstreamUrl);
  }
  if (!web) process.exit(1);
  log(`web (${mode}) ${web.url} pid ${web.pid}`);
  await sleep(1500);
  const rssBefore = rssOf(web.pid);

  const workers = Math.max(1, Math.ceil(N / PER_WORKER));
  const progress = new Map<
    number,
    { open: number; ready: number; errors: number; snapshots: number }
  >();
  const reports: {
    hist: number[];
    spread: number[];
    samples: number;
    events: number;
    ready: number;
    errors: number;
    errorKinds?: Record<string, number>;
    open: number;
    snapshots: number;
    cpuPct: number;
    bytesPerSec?: number;
  }[] = [];
  const streamUrl = `${web.url}/live?topics=DAY_MARKET`;
  for (let w = 0; w < workers; w++) {
    const count = Math.floor(N / workers) + (w < N % workers ? 1 : 0);
    const c = fork(path.join(here, "live-clients.ts"), [], {
      execArgv: ["--import", "tsx"],
      env: {
        ...process.env,
        BENCH_URL: streamUrl,
        BENCH_COUNT: String(count),
        BENCH_RAMP: String(Math.ceil(1000 / workers)),
      },
    });
    children.push(c);
    c.on("exit", (code) => {
      if (code !== 0 && reports.length < workers) {
        log(`client worker ${w} exited with code ${code}`);
        process.exit(1);
      }
    });
    c.on("message", (m: { type: string } & Record<string, unknown>) => {
      if (m.type === "progress") progress.set(w, m as never);
      if (m.type === "report") reports.push(m as never);
    });
  }

  // Probe: a raw websocket subscriber of the upstream, to split the latency into upstream and bridge.
  const probe: number[] = [];
  let probing = false;
  const pws = new WebSocket(upstreamUrl.replace("http", "ws") + "/v1/ws");
  pws.on("open", () => pws.send(JSON.stringify({ op: "subscribe", topics: ["DAY_MARKET"] })));
  // The upstream closes a socket that sends nothing for a while; the connect phase can be long.
  const probePing = setInterval(() => {
    if (pws.readyState === WebSocket.OPEN) pws.send(JSON.stringify({ op: "ping" }));
  }, 5_000);
  pws.on("message", (raw) => {
    if (!probing) return;
    const m = JSON.parse(raw.toString()) as { op: string; data?: { Time: number }[] };
    if (m.op !== "push" || !m.data) return;
    probe.push(Date.now() - Math.max(...m.data.map((q) => q.Time)));
  });

  /** The upstream's websocket connections other than the probe's: the web's. */
  const webSockets = () =>
    up.ctx.hub.connectionCount() - (pws.readyState === WebSocket.OPEN ? 1 : 0);

  const tConnect = Date.now();
  let ready = 0;
  let snaps = 0;
  while (Date.now() - tConnect < 90_000) {
    await sleep(500);
    ready = [...progress.values()].reduce((a, p) => a + p.ready, 0);
    snaps = [...progress.values()].reduce((a, p) => a + p.snapshots, 0);
    if (ready >= N && snaps >= N) break;
  }
  log(
    `${ready}/${N} streams ready, ${snaps} snapshots, in ${((Date.now() - tConnect) / 1000).toFixed(1)} s`,
  );
  await sleep(2000);
  const rssConnected = rssOf(web.pid);

  for (const c of children.slice(-workers)) c.send({ type: "measure" });
  if (mode === "harness")
    await fetch(`${web.url}/__stats/reset`, { method: "POST" }).catch(() => {});
  const cpu0 = cpuTicksOf(web.pid);
  probing = true;
  const t0 = Date.now();
  let maxUpstreamWs = 0;
  let maxRss = rssConnected;
  while (Date.now() - t0 < SECONDS * 1000) {
    await sleep(1000);
    maxUpstreamWs = Math.max(maxUpstreamWs, webSockets());
    maxRss = Math.max(maxRss, rssOf(web.pid));
  }
  const cpuPct = ((cpuTicksOf(web.pid) - cpu0) / 100 / ((Date.now() - t0) / 1000)) * 100;
  probing = false;
  const upstreamWs = webSockets();
  clearInterval(probePing);
  pws.close();
  probe.sort((a, b) => a - b);
  const pp = (p: number) => probe[Math.min(probe.length - 1, Math.floor(probe.length * p))] ?? NaN;
  const bridgeStats =
    mode === "harness"
      ? ((await fetch(`${web.url}/__stats`)
          .then((r) => r.json())
          .catch(() => null)) as Record<string, number> | null)
      : null;
  const load = os.loadavg()[0];
  const stillOpen = [...progress.values()].reduce((a, p) => a + p.ready, 0);

  const done = new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (reports.length >= workers) {
        clearInterval(check);
        resolve();
      }
    }, 100);
  });
  for (const c of children.slice(-workers)) c.send({ type: "stop" });
  await Promise.race([done, sleep(15_000)]);

  const hist = new Array<number>(reports[0]?.hist.length ?? 1).fill(0);
  let samples = 0;
  let open = 0;
  let errors = 0;
  for (const r of reports) {
    r.hist.forEach((v, i) => (hist[i] += v));
    samples += r.samples;
    open += r.open;
    errors += r.errors;
  }
  const spread = new Array<number>(hist.length).fill(0);
  for (const r of reports) r.spread.forEach((v, i) => (spread[i] += v));
  const spreadN = spread.reduce((a, b) => a + b, 0);
  const p50 = percentile(hist, samples, 0.5);
  const p99 = percentile(hist, samples, 0.99);
  let max = 0;
  for (let i = hist.length - 1; i >= 0; i--)
    if (hist[i]) {
      max = i;
      break;
    }
  const perClient = (rssConnected - rssBefore) / N;

  console.log("");
  console.log("live bench results");
  console.log(`  web                     ${mode} (${web.url})`);
  console.log(
    `  clients connected       ${open} / ${N} (ready events ${stillOpen}, client errors ${errors})`,
  );
  const kinds = new Map<string, number>();
  for (const r of reports)
    for (const [k, v] of Object.entries(r.errorKinds ?? {})) kinds.set(k, (kinds.get(k) ?? 0) + v);
  if (kinds.size)
    console.log(
      `  client errors by kind   ${[...kinds]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k}: ${v}`)
        .join(", ")}`,
    );
  console.log(
    `  tick interval           ${TICK_MS} ms, measured ${SECONDS} s, ${samples} change events`,
  );
  console.log(`  latency tick->client    p50 ${p50} ms   p99 ${p99} ms   max ${max} ms`);
  const received = reports.reduce((a, r) => a + (r.bytesPerSec ?? 0), 0);
  console.log(
    `  received per client     ${(received / Math.max(1, open) / 1024).toFixed(2)} KiB/s (all clients ${(received / 1048576).toFixed(1)} MiB/s)`,
  );
  console.log(
    `  web RSS                 before ${(rssBefore / 1048576).toFixed(1)} MiB, with clients ${(rssConnected / 1048576).toFixed(1)} MiB (max ${(maxRss / 1048576).toFixed(1)} MiB)`,
  );
  console.log(`  memory per client       ${(perClient / 1024).toFixed(1)} KiB`);
  console.log(
    `  web CPU while measuring ${cpuPct.toFixed(0)} % of one core (${((cpuPct / Math.max(1, open)) * 1000).toFixed(1)} % per 1,000 connected clients)`,
  );
  console.log(
    `  spread in a client proc p50 ${percentile(spread, spreadN, 0.5)} ms   p99 ${percentile(spread, spreadN, 0.99)} ms (one tick: first copy -> this copy)`,
  );
  console.log(
    `  upstream alone          p50 ${pp(0.5)} ms   p99 ${pp(0.99)} ms (tick -> a raw websocket subscriber)`,
  );
  if (bridgeStats)
    console.log(
      `  bridge flushes          ${bridgeStats.flushes}, avg ${bridgeStats.flushMsAvg} ms, max ${bridgeStats.flushMsMax} ms each`,
    );
  console.log(
    `  client processes CPU    ${reports.map((r) => `${r.cpuPct.toFixed(0)} %`).join(", ")} (load average ${load.toFixed(2)} on ${os.cpus().length} cores)`,
  );
  console.log(`  upstream ws connections ${upstreamWs} (max seen ${maxUpstreamWs})`);
  const bridgeLog = web
    .output()
    .split("\n")
    .filter((l) => l.includes("live upstream"));
  if (bridgeLog.length)
    console.log(
      `  bridge upstream events  ${bridgeLog.length}: ${bridgeLog.slice(-3).join(" | ")}`,
    );
  const pass =
    open >= N &&
    errors === 0 &&
    p99 <= GOAL_P99_MS &&
    perClient / 1024 <= GOAL_KIB_PER_CLIENT &&
    maxUpstreamWs === 1 &&
    upstreamWs === 1;
  console.log(
    `  goal (N=${N} connected, 0 errors, p99<=${GOAL_P99_MS} ms, <=${GOAL_KIB_PER_CLIENT} KiB per client, 1 upstream connection): ${pass ? "MET" : "NOT MET"}`,
  );

  const webExited = new Promise((r) => web.child.once("exit", r));
  cleanup();
  // The web writes its CPU profile as it exits: wait for it (it closes its streams first).
  if (process.env.BENCH_PROFILE_DIR) await Promise.race([webExited, sleep(20_000)]);
  await up.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(pass || !process.env.BENCH_STRICT ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  cleanup();
  process.exit(1);
});
