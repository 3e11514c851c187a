/**
 * A TCP proxy on loopback that puts a server "farther away": every chunk the server sends is held
 * `delayMs` before it reaches the client (in order, per connection), so each round trip through
 * it takes about `delayMs` longer. One direction only: Node.js timers have a resolution of one
 * millisecond, so half a millisecond each way cannot be had; the bench measures and prints the
 * round trip it actually got (roundTripMs), never assumes it.
 */
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import pg from "pg";

export interface DelayProxy {
  port: number;
  close(): Promise<void>;
}

/**
 * The proxy runs on a thread of its own: a store of this process that waits synchronously on its
 * connection (the PostgreSQL store's worker) would otherwise hold the very loop that forwards it.
 */
const PROXY_THREAD = `
const net = require("node:net");
const { parentPort, workerData } = require("node:worker_threads");
const { targetPort, delayMs } = workerData;
const server = net.createServer((client) => {
  const upstream = net.connect({ host: "127.0.0.1", port: targetPort });
  for (const s of [client, upstream]) {
    s.setNoDelay(true);
    s.on("error", () => { client.destroy(); upstream.destroy(); });
  }
  client.on("data", (b) => upstream.write(b));
  // Held in order: each chunk leaves delayMs after it arrived, never before the one ahead of it.
  upstream.on("data", (b) => setTimeout(() => client.write(b), delayMs));
  client.on("end", () => upstream.end());
  upstream.on("end", () => setTimeout(() => client.end(), delayMs));
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
`;

/** Starts the proxy in front of 127.0.0.1:`targetPort`. */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const worker = new Worker(PROXY_THREAD, { eval: true, workerData: { targetPort, delayMs } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return { port, close: () => worker.terminate().then(() => undefined) };
}

/** The median round trip of `SELECT 1` over a connection to `url` (ms), over `n` queries. */
export async function roundTripMs(url: string, n = 200): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await c.query("SELECT 1");
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(n / 2)];
  } finally {
    await c.end();
  }
}
