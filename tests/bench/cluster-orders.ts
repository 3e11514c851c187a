/**
 * Section "orders" of `npm run bench:cluster`: orders per second acknowledged durably, on
 * PostgreSQL and on SQLite in the same run, each against a bare durable insert on the same store.
 *
 * For each store, one reference upstream node (upstream/main.ts, NODE_ENV=production, a child
 * process) serves the real order path over HTTP: the route, the token, the idempotency key, the
 * engine's checks and its one transaction per order. PostgreSQL is Debian's server started with
 * fsync on and synchronous_commit on (startPostgres({durable: true})), and the node runs as it
 * does in the cluster (DATABASE_URL: a cluster node that leads, its writes fenced by the leader
 * lock). SQLite is a file in WAL mode with synchronous=FULL (openDb, as the product runs). No
 * NATS and no web node: the figure is the engine on its store. Both stores sit on the same disk
 * (the temporary directory).
 *
 * CLIENTS clients (one demo account each) place market buys of the smallest size, each waiting
 * for its answer before the next one, for WARMUP seconds unmeasured then SECONDS measured; an
 * order counts when its answer is code 1 (the engine answers only after its commit returned).
 * The node's event-loop delay over the measured seconds (p50, p99, max: how long a timer, a tick
 * or a health check waited behind the order path) is read from the probe it loads (loop-delay.ts),
 * per round: the rounds' mean p50, the worst round's p99 and max.
 * The node's sequencer figures (its GET /healthz) are read before and after the measured seconds:
 * how many batches it wrote then and how many commands each held on average (group commit at work),
 * how long a batch held the event loop and how long its write took on average (from the loop to
 * durable: the store's part of an answer's time), and the largest batch since it started. So is
 * the CPU each order cost over the measured seconds (cpu-use.ts): the node (all threads, and its
 * main thread), PostgreSQL's processes, the bench's own clients (with the delaying proxy, when
 * there is one, which runs in the bench), and how busy the machine was: where every core is busy,
 * the rate is bounded by CPU per order, not by the disk.
 * Then the node stops and the bench itself opens the same store through upstream/platform/db.ts
 * `openStore` and writes a similar order row by one INSERT at a time, each committed on its own
 * (no transaction around it: the bare durable write): the floor.
 *
 * In ROUNDS rounds (BENCH_ORDER_ROUNDS, default 3), each of SECONDS/ROUNDS of orders (after its
 * own warm-up, on a node started again on the same store) then INSERT_SECONDS/ROUNDS of the floor:
 * the time a commit's flush takes on this machine's virtual disk drifts from minute to minute
 * (the floor alone: 2,151, 2,266 and 4,364 inserts/s in three runs in a row, 2026-12-02), so the
 * orders and the floor they are compared with are measured in turns, under the same disk. Each
 * round's figures are printed as it ends; the totals add the rounds up.
 *
 * With PG_DELAY_MS above 0 (BENCH_PG_DELAY_MS, default 1), PostgreSQL runs a second time "farther
 * away": the node and the floor reach the same server through a delaying TCP proxy
 * (delay-proxy.ts), and the round trip measured through it is printed with the figures.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { CODE } from "@contract/envelope";
import { startPostgres } from "../../scripts/services/postgres.js";
import { roundTripMs, startDelayProxy } from "./delay-proxy.js";
import { openStore } from "../../upstream/platform/db.js";
import { cpuSample, perOrder, type CpuPerOrder, type CpuSample } from "./cpu-use.js";
import type { SequencerStats } from "../../upstream/platform/store/sequencer.js";
import {
  call,
  demoToken,
  log,
  mustBeOk,
  newSecrets,
  operatorSetting,
  pct,
  KeptConnection,
  placeOrderOn,
  setPrice,
  spawnUpstream,
  tradables,
  type LoopDelay,
  type Tradable,
} from "./cluster-common.js";

export interface OrdersOptions {
  clients: number;
  warmupSeconds: number;
  seconds: number;
  insertSeconds: number;
  /** Rounds of orders, each followed by its share of the floor's inserts (BENCH_ORDER_ROUNDS). */
  rounds: number;
  /** Extra PostgreSQL run through a proxy that adds this many ms to each round trip (0: none). */
  pgDelayMs: number;
  /** The stores measured, in this order: PostgreSQL first, then SQLite. */
  stores: readonly OrderStore[];
}

export type OrderStore = "postgres" | "sqlite";

/** BENCH_ORDER_STORES's value (a comma-separated list of postgres and sqlite). */
export function storesOf(list: string): OrderStore[] {
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names)
    if (n !== "postgres" && n !== "sqlite")
      throw new Error(`BENCH_ORDER_STORES: "${n}" is neither postgres nor sqlite`);
  if (names.length === 0) throw new Error("BENCH_ORDER_STORES names no store");
  return names as OrderStore[];
}

export interface OrdersFigures {
  store: string;
  /** The median `SELECT 1` round trip to the store (PostgreSQL runs only). */
  roundTripMs?: number;
  clients: number;
  seconds: number;
  orders: number;
  ordersPerS: number;
  ackP50Ms: number;
  ackP99Ms: number;
  /** Answers other than code 1, by message (none expected). */
  refused: Record<string, number>;
  inserts: number;
  insertsPerS: number;
  /** orders/s divided by inserts/s. */
  ratio: number;
  /** The node's event-loop delay while the measured orders ran (tests/bench/loop-delay.ts). */
  loop: LoopDelay;
  /** The sequencer's batches over the measured seconds, and the largest since the node started. */
  batches: {
    count: number;
    commandsPerBatch: number;
    largest: number;
    /** Mean time a batch held the event loop, and from there to durable (ms). */
    loopMs: number;
    writeMs: number;
  };
  /** CPU an order cost over the measured seconds, by process (cpu-use.ts; null off Linux). */
  cpu: CpuPerOrder | null;
}

/** The sequencer figures of the node at `base` (its GET /healthz); it must lead. */
async function sequencerOf(base: string): Promise<SequencerStats> {
  const e = await call<{ sequencer: SequencerStats | null }>(base, "GET", "/healthz");
  const s = mustBeOk("GET /healthz", e).sequencer;
  if (!s) throw new Error(`${base} is not leading: its /healthz has no sequencer`);
  return s;
}

/** Runs the section on PostgreSQL, then on SQLite. */
export async function benchOrders(o: OrdersOptions): Promise<OrdersFigures[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-bench-orders-"));
  const figures: OrdersFigures[] = [];
  try {
    if (o.stores.includes("postgres")) await onPostgres(dir, o, figures);
    if (o.stores.includes("sqlite")) {
      const file = path.join(dir, "sqlite", "upstream.sqlite");
      figures.push(await onStore("SQLite", { UPSTREAM_DB: file }, file, dir, o));
    }
  } finally {
    if (!process.env.BENCH_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/** The PostgreSQL runs: on the server as it is, then (pgDelayMs) through the delaying proxy. */
async function onPostgres(dir: string, o: OrdersOptions, figures: OrdersFigures[]) {
  const pg = await startPostgres({ durable: true, logFile: path.join(dir, "postgres.log") });
  try {
    const url = await pg.createDatabase("bench_orders");
    figures.push({
      ...(await onStore("PostgreSQL", { DATABASE_URL: url }, url, dir, o, pg.pid)),
      roundTripMs: await roundTripMs(url),
    });
    if (o.pgDelayMs > 0) {
      const proxy = await startDelayProxy(pg.port, o.pgDelayMs);
      try {
        const far = (await pg.createDatabase("bench_orders_far")).replace(
          `:${pg.port}/`,
          `:${proxy.port}/`,
        );
        const label = `PostgreSQL +${o.pgDelayMs} ms`;
        figures.push({
          ...(await onStore(label, { DATABASE_URL: far }, far, dir, o, pg.pid)),
          roundTripMs: await roundTripMs(far),
        });
      } finally {
        await proxy.close();
      }
    }
  } finally {
    await pg.stop();
  }
}

async function onStore(
  store: OrdersFigures["store"],
  storeEnv: Record<string, string>,
  where: string,
  dir: string,
  o: OrdersOptions,
  storePid: number | null = null,
): Promise<OrdersFigures> {
  const secrets = newSecrets();
  const env = {
    ...storeEnv,
    ...secrets,
    DATA_DIR: path.join(dir, `data-${store.replace(/[^A-Za-z0-9]+/g, "-")}`),
    MARKET_FEED: "manual",
    MARKET_ALWAYS_OPEN: "1",
    RATE_LIMIT: "0",
    STRATEGIES: "off",
  };
  const logFile = path.join(dir, `upstream-${store}.log`);
  // The run's part of each idempotency key: letters, digits and dashes only.
  const tag = store.replace(/[^A-Za-z0-9]+/g, "-");
  const runs: Measured[] = [];
  const loops: LoopDelay[] = [];
  const floors: { count: number; seconds: number }[] = [];
  const batches = { count: 0, commands: 0, largest: 0, loopMs: 0, writeMs: 0 };
  const cpu: { before: CpuSample; after: CpuSample }[] = [];
  const tokens: string[] = [];
  for (let round = 0; round < o.rounds; round++) {
    const up = await spawnUpstream(env, logFile);
    try {
      log(
        `orders on ${store}: node ${up.url}, ${o.clients} clients, round ${round + 1} of ${o.rounds}`,
      );
      const admin = secrets.OPERATOR_TOKEN;
      const [inst] = await tradables(up.url);
      if (round === 0) {
        // Enough money and open orders for every order of the run; the one price set stays current.
        await operatorSetting(up.url, admin, "demo.initial_balance", "1000000000");
        await operatorSetting(up.url, admin, "trade.max_orders", "10000");
        await setPrice(up.url, admin, inst.code, inst.price);
        for (let i = 0; i < o.clients; i++) tokens.push(await demoToken(up.url));
        // The floor's rows go to an account of their own, made last (the highest id): the node
        // started again for the next round loads them as that account's, not a client's.
        await demoToken(up.url);
      }
      // The price again right before the orders: the quote stays current (market.stale_after_s,
      // a four-eyes setting the bench leaves at its default) for the warm-up and the measured seconds.
      await setPrice(up.url, admin, inst.code, inst.price);
      await drive(up.url, tokens, inst, o.warmupSeconds, `${tag}-warm${round}`);
      await up.loopDelay(); // starts the window over: the warm-up is not measured
      const before = await sequencerOf(up.url);
      const cpuBefore = cpuSample(up.child.pid!, storePid);
      runs.push(await drive(up.url, tokens, inst, o.seconds / o.rounds, `${tag}-r${round}`));
      const cpuAfter = cpuSample(up.child.pid!, storePid);
      if (cpuBefore && cpuAfter) cpu.push({ before: cpuBefore, after: cpuAfter });
      loops.push(await up.loopDelay());
      const after = await sequencerOf(up.url);
      batches.count += after.batches - before.batches;
      batches.commands += after.commands - before.commands;
      batches.largest = Math.max(batches.largest, after.largestBatch);
      batches.loopMs += after.loopMs - before.loopMs;
      batches.writeMs += after.writeMs - before.writeMs;
    } finally {
      await up.stop();
    }
    // The floor right after the orders, on the disk as it is now (its flush time drifts from one
    // minute to the next on a virtual disk: 2,151 to 4,364 inserts/s in three runs in a row here).
    const floor = bareInserts(where, o.insertSeconds / o.rounds);
    floors.push(floor);
    const last = runs[runs.length - 1];
    log(
      `  round ${round + 1}: ${Math.round(last.acked / last.seconds)} orders/s, ` +
        `floor ${Math.round(floor.count / floor.seconds)} inserts/s`,
    );
  }
  const run = merged(runs);
  const inserts = floors.reduce((a, f) => a + f.count, 0);
  const insertSeconds = floors.reduce((a, f) => a + f.seconds, 0);
  const ordersPerS = run.acked / run.seconds;
  return {
    store,
    clients: o.clients,
    seconds: run.seconds,
    orders: run.acked,
    ordersPerS,
    ackP50Ms: pct(run.latencies, 50),
    ackP99Ms: pct(run.latencies, 99),
    refused: run.refused,
    inserts,
    insertsPerS: inserts / insertSeconds,
    ratio: ordersPerS / (inserts / insertSeconds),
    loop: {
      // Each round's window is read on its own: the worst round's p99 and max, the rounds' mean p50.
      p50Ms: loops.reduce((a, l) => a + l.p50Ms, 0) / loops.length,
      p99Ms: Math.max(...loops.map((l) => l.p99Ms)),
      maxMs: Math.max(...loops.map((l) => l.maxMs)),
      samples: loops.reduce((a, l) => a + l.samples, 0),
    },
    batches: {
      count: batches.count,
      commandsPerBatch: batches.count > 0 ? batches.commands / batches.count : 0,
      largest: batches.largest,
      loopMs: batches.count > 0 ? batches.loopMs / batches.count : 0,
      writeMs: batches.count > 0 ? batches.writeMs / batches.count : 0,
    },
    cpu: perOrder(cpu, run.acked, storePid !== null),
  };
}

/** The rounds' orders as one run: their counts and seconds added, their latencies together. */
function merged(runs: Measured[]): Measured {
  const refused: Record<string, number> = {};
  for (const r of runs)
    for (const [m, n] of Object.entries(r.refused)) refused[m] = (refused[m] ?? 0) + n;
  return {
    acked: runs.reduce((a, r) => a + r.acked, 0),
    seconds: runs.reduce((a, r) => a + r.seconds, 0),
    latencies: runs.flatMap((r) => r.latencies).sort((a, b) => a - b),
    refused,
  };
}

interface Measured {
  acked: number;
  seconds: number;
  latencies: number[];
  refused: Record<string, number>;
}

/** Every client places orders one after the other for `seconds`; answers what was acknowledged. */
async function drive(
  base: string,
  tokens: string[],
  inst: Tradable,
  seconds: number,
  tag: string,
): Promise<Measured> {
  const latencies: number[] = [];
  const refused: Record<string, number> = {};
  let acked = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    tokens.map(async (token, c) => {
      const conn = new KeptConnection(base);
      try {
        for (let n = 0; performance.now() < end; n++) {
          const s = performance.now();
          const answer = await placeOrderOn(conn, token, inst, `bench-${tag}-${c}-${n}`);
          if (answer.code === CODE.OK) {
            acked++;
            latencies.push(performance.now() - s);
          } else refused[answer.msg] = (refused[answer.msg] ?? 0) + 1;
        }
      } finally {
        conn.close();
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { acked, seconds: (performance.now() - t0) / 1000, latencies, refused };
}

/**
 * The floor: single-row INSERTs of an order row, each its own commit (autocommit), through the
 * store's own interface (openStore: the same pragmas, the same PostgreSQL connection path), for the
 * account made last (its own, see onStore).
 */
function bareInserts(where: string, seconds: number): { count: number; seconds: number } {
  const db = openStore(where);
  try {
    const user = db.prepare("SELECT id FROM users ORDER BY id DESC LIMIT 1").get() as {
      id: number;
    };
    const inst = db.prepare("SELECT id FROM instruments ORDER BY id LIMIT 1").get() as {
      id: number;
    };
    const ins = db.prepare(
      `INSERT INTO orders (user_id, instrument_id, order_type, status, pending_kind, lots, units, leverage, origin_price, open_price,
         take_profit, stop_loss, margin_micro, fee_micro, created_at, opened_at) VALUES (?, ?, 1, 1, NULL, '0.01', '1000', 100, 1.1, 1.1, NULL, NULL, 11000000, 22000, ?, ?)`,
    );
    const count = () =>
      (db.prepare("SELECT COUNT(*) AS n FROM orders").get() as { n: number | string }).n;
    const before = Number(count());
    let done = 0;
    const t0 = performance.now();
    const end = t0 + seconds * 1000;
    while (performance.now() < end) {
      const now = Date.now();
      ins.run(user.id, inst.id, now, now);
      done++;
    }
    const took = (performance.now() - t0) / 1000;
    const written = Number(count()) - before;
    if (written !== done) throw new Error(`floor: ${done} inserts, ${written} rows`);
    return { count: done, seconds: took };
  } finally {
    db.close();
  }
}
