/**
 * Benchmark client worker (forked by tests/bench/live.ts): opens COUNT event-stream clients on URL,
 * and for every DAY_MARKET change event records the latency from the newest quote's tick time (its
 * `Time`) to the moment the event is read here, and counts the bytes received.
 *
 * Parent -> worker: {type:"measure"} (start recording), {type:"mark", at} (count the streams that
 * receive a change from `at`, ms since the epoch, on), {type:"stop"} (report and exit).
 * Worker -> parent: {type:"progress", open, ready, errors, snapshots, markAt, sinceMark,
 * lastResumeAt} (the last: when the latest of those streams had its first change since the mark),
 * {type:"report", hist, samples, ...}.
 */
import net from "node:net";
import os from "node:os";

// A lower priority (BENCH_CLIENT_NICE, 0..19) keeps these clients from preempting the servers they
// measure when both share the machine's cores (see tests/bench/cluster-fanout.ts).
if (process.env.BENCH_CLIENT_NICE) os.setPriority(Number(process.env.BENCH_CLIENT_NICE));
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
/**
 * The parent's last "mark" (ms since the epoch), the streams with a change since, and when the
 * latest of them had its first.
 */
let markAt = Infinity;
let sinceMark = 0;
let lastResumeAt = 0;
let cpuAtMeasure = process.cpuUsage();
let tAtMeasure = Date.now();

/**
 * A bench client is one TCP connection that sends the GET itself and reads the raw response: the
 * status line, then the event stream, split on the blank line that ends each event (the chunked
 * framing lines sit between events, as the server writes whole events per chunk, and are skipped by
 * looking for the event name). A browser's EventSource does this on its own device; here ten
 * thousand of them share the server's two cores, and every microsecond a client spends on an event
 * delays the next copy of the same tick, which the latency would then count. So the client does
 * what measuring needs and no more (the `eventsource` package, then node:http, cost these processes
 * several times what the server spends on the same streams).
 * A refused or dropped stream is counted as an error by kind and not reopened.
 */
const target = new URL(url);
const requestBytes = Buffer.from(
  `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    `Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n`,
  "latin1",
);
let stopping = false;
let bytes = 0;
let bytesAtMeasure = 0;
let openCount = 0;
const sockets: net.Socket[] = [];
const readBuffer = Buffer.alloc(64 * 1024);

function fail(kind: string): void {
  if (stopping) return;
  errors++;
  errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
}

function open(): void {
  let first = true;
  let changedAt = 0;
  let state: "connecting" | "head" | "open" | "closed" = "connecting";
  let buf = "";
  const onData = (length: number): boolean => {
    bytes += length;
    buf += readBuffer.toString("latin1", 0, length);
    if (state === "head") {
      const headEnd = buf.indexOf("\r\n\r\n");
      if (headEnd === -1) return true;
      const status = Number(buf.slice(9, 12));
      if (status !== 200) {
        fail(`HTTP ${status}`);
        state = "closed";
        sock.destroy();
        return false;
      }
      state = "open";
      openCount++;
      buf = buf.slice(headEnd + 4);
    }
    for (let end = buf.indexOf("\n\n"); end !== -1; end = buf.indexOf("\n\n")) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      if (block.includes("event: ready")) ready++;
      else if (block.includes("event: DAY_MARKET")) {
        const now = Date.now();
        if (now >= markAt && changedAt < markAt) {
          sinceMark++;
          lastResumeAt = now;
        }
        changedAt = now;
        if (first) {
          first = false;
          snapshots++;
        } else onChange(block);
      }
    }
    return true;
  };
  // `onread`: every read lands in one buffer shared by all of this process's connections and is
  // handed over as a length, with no Buffer allocated and no stream machinery per read.
  const sock = net.connect({
    host: target.hostname,
    port: Number(target.port),
    onread: { buffer: readBuffer, callback: onData },
  });
  sock.setNoDelay(true);
  sock.on("connect", () => {
    state = "head";
    sock.write(requestBytes);
  });
  sock.on("error", (e) => {
    if (state === "open") openCount--;
    if (state !== "closed") fail(e.message.slice(0, 60));
    state = "closed";
  });
  sock.on("close", () => {
    if (state === "closed") return;
    if (state === "open") openCount--;
    state = "closed";
    fail("connection lost");
  });
  sockets.push(sock);
}

/** A DAY_MARKET change: the latency from its newest tick time (a scan, not a parse) to now. */
function onChange(data: string): void {
  const now = Date.now();
  events++;
  if (!measuring) return;
  let t = 0;
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
}

let opened = 0;
const batch = Math.max(1, Math.round(rampPerSec / 20));
const ramp = setInterval(() => {
  for (let i = 0; i < batch && opened < count; i++, opened++) open();
  if (opened >= count) clearInterval(ramp);
}, 50);

const progress = setInterval(() => {
  process.send?.({
    type: "progress",
    open: opened,
    ready,
    errors,
    snapshots,
    markAt,
    sinceMark,
    lastResumeAt,
  });
}, 500);

process.on("message", (m: { type: string; at?: number }) => {
  if (m.type === "measure") {
    measuring = true;
    bytesAtMeasure = bytes;
    cpuAtMeasure = process.cpuUsage();
    tAtMeasure = Date.now();
  }
  if (m.type === "mark") {
    markAt = m.at ?? Date.now();
    sinceMark = 0;
    lastResumeAt = 0;
  }
  if (m.type === "stop") {
    measuring = false;
    stopping = true;
    const received = bytes - bytesAtMeasure;
    const seconds = Math.max(1, Date.now() - tAtMeasure) / 1000;
    clearInterval(progress);
    clearInterval(ramp);
    const cpu = process.cpuUsage(cpuAtMeasure);
    const cpuPct = ((cpu.user + cpu.system) / 1000 / Math.max(1, Date.now() - tAtMeasure)) * 100;
    const open = openCount;
    for (const sock of sockets) sock.destroy();
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
        bytesPerSec: received / seconds,
      },
      () => process.exit(0),
    );
  }
});
