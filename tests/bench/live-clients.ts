/**
 * Benchmark client worker (forked by tests/bench/live.ts): opens COUNT EventSource clients (the
 * eventsource package) on URL, and for every DAY_MARKET change event records the latency from the
 * newest quote's tick time (its `Time`) to the moment the event is parsed here.
 *
 * Parent -> worker: {type:"measure"} (start recording), {type:"stop"} (report and exit).
 * Worker -> parent: {type:"progress", open, ready, errors}, {type:"report", hist, samples, ...}.
 */
import http from "node:http";
import { EventSource, type FetchLike } from "eventsource";

const url = process.env.BENCH_URL!;
const count = Number(process.env.BENCH_COUNT || 1000);
const rampPerSec = Number(process.env.BENCH_RAMP || 500);
const HIST_MAX = 60_000;
const hist = new Uint32Array(HIST_MAX + 1);
const spread = new Uint32Array(HIST_MAX + 1);
const firstSeen = new Map<number, number>();
let measuring = false;
let samples = 0;
let events = 0;
let ready = 0;
let errors = 0;
/** Errors by kind (an HTTP status, or the connection's failure message). */
const errorKinds = new Map<string, number>();
let snapshots = 0;
const clients: EventSource[] = [];
let cpuAtMeasure = process.cpuUsage();
let tAtMeasure = Date.now();

/**
 * A lean fetch for EventSource over node:http (the package takes any fetch): a thousand undici
 * fetches with WHATWG streams cost the client process more CPU than the server spends on them,
 * which would measure the clients rather than the server. BENCH_FETCH=undici uses global fetch.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const leanFetch: FetchLike = (input, init) =>
  new Promise((resolve, reject) => {
    const req = http.get(
      String(input),
      { agent, headers: init?.headers as Record<string, string> },
      (res) => {
        const queue: Uint8Array[] = [];
        let waiting: ((r: { done: boolean; value?: Uint8Array }) => void) | null = null;
        let ended = false;
        const finish = () => {
          ended = true;
          if (waiting) {
            const w = waiting;
            waiting = null;
            w({ done: true });
          }
        };
        res.on("data", (chunk: Buffer) => {
          if (waiting) {
            const w = waiting;
            waiting = null;
            w({ done: false, value: chunk });
          } else queue.push(chunk);
        });
        res.on("end", finish);
        res.on("close", finish);
        res.on("error", finish);
        const reader = {
          read: () =>
            queue.length
              ? Promise.resolve({ done: false, value: queue.shift() })
              : ended
                ? Promise.resolve({ done: true })
                : new Promise<{ done: boolean; value?: Uint8Array }>((r) => (waiting = r)),
          cancel: async () => {
            req.destroy();
          },
          releaseLock: () => {},
        };
        resolve({
          status: res.statusCode ?? 0,
          url: String(input),
          redirected: false,
          headers: {
            get: (name: string) => (res.headers[name.toLowerCase()] as string | undefined) ?? null,
          },
          body: { getReader: () => reader },
        } as never);
      },
    );
    req.on("error", reject);
    init?.signal?.addEventListener("abort", () => req.destroy(), { once: true });
  });
const fetchImpl = process.env.BENCH_FETCH === "undici" ? undefined : leanFetch;

function open(): void {
  const es = new EventSource(url, fetchImpl ? { fetch: fetchImpl } : undefined);
  let first = true;
  es.addEventListener("ready", () => ready++);
  es.addEventListener("error", (e) => {
    errors++;
    const ev = e as { code?: number; message?: string };
    const kind = ev.code ? `HTTP ${ev.code}` : (ev.message || "connection lost").slice(0, 60);
    errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  });
  es.addEventListener("DAY_MARKET", (ev) => {
    const now = Date.now();
    events++;
    if (first) {
      first = false;
      snapshots++;
      return;
    }
    if (!measuring) return;
    // The newest tick time in the event (a scan, not a full parse: the clients' CPU is not the server's).
    let t = 0;
    const data = ev.data;
    for (let i = data.indexOf('"Time":'); i !== -1; i = data.indexOf('"Time":', i + 7)) {
      const v = Number(data.slice(i + 7, i + 20));
      if (v > t) t = v;
    }
    const lat = Math.max(0, Math.min(HIST_MAX, now - t));
    // How long after this process saw the first copy of this tick it sees this one (its own lag).
    const firstAt = firstSeen.get(t);
    if (firstAt === undefined) {
      firstSeen.set(t, now);
      if (firstSeen.size > 64) firstSeen.delete(firstSeen.keys().next().value as number);
    } else spread[Math.min(HIST_MAX, now - firstAt)]++;
    hist[lat]++;
    samples++;
  });
  clients.push(es);
}

let opened = 0;
const batch = Math.max(1, Math.round(rampPerSec / 20));
const ramp = setInterval(() => {
  for (let i = 0; i < batch && opened < count; i++, opened++) open();
  if (opened >= count) clearInterval(ramp);
}, 50);

const progress = setInterval(() => {
  process.send?.({ type: "progress", open: opened, ready, errors, snapshots });
}, 500);

process.on("message", (m: { type: string }) => {
  if (m.type === "measure") {
    measuring = true;
    cpuAtMeasure = process.cpuUsage();
    tAtMeasure = Date.now();
  }
  if (m.type === "stop") {
    measuring = false;
    clearInterval(progress);
    clearInterval(ramp);
    const cpu = process.cpuUsage(cpuAtMeasure);
    const cpuPct = ((cpu.user + cpu.system) / 1000 / Math.max(1, Date.now() - tAtMeasure)) * 100;
    const open = clients.filter((c) => c.readyState === EventSource.OPEN).length;
    for (const c of clients) c.close();
    process.send?.(
      {
        type: "report",
        hist: Array.from(hist),
        spread: Array.from(spread),
        samples,
        events,
        ready,
        errors,
        errorKinds: Object.fromEntries(errorKinds),
        open,
        snapshots,
        cpuPct,
      },
      () => process.exit(0),
    );
  }
});
