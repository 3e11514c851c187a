/**
 * npm run bench:copy — copy trading's mirroring on this machine (issue 23): one provider with
 * BENCH_COPIES (1,000 and 10,000 by default, comma-separated) active copies, on SQLite (a file,
 * WAL, synchronous=FULL, as the product runs) and on PostgreSQL (Debian's server, fsync on, as
 * `npm run cluster` runs it), in the same run. BENCH_STORES=sqlite or postgres runs one.
 *
 * In process, over the store's own interface: the order engine, the copy service, the sequencer
 * (with SQLite's batches synced off the event loop, as the upstream runs a SQLite file) and a
 * manual feed, as the leader runs them. Each copier is an account with 1,000 USD that copies the
 * provider with 100 to 900 USD (copiers.ts: proportional, multiplier 1, copy stop-loss 95 % so that
 * none ends). Then
 * BENCH_TRIALS times (default 10): the provider opens 1 lot of EURUSD at market, a command of the
 * sequencer, and
 * - fill -> last copy: from the provider's command entering the sequencer to its answer, which
 *   comes once the batch holding its fill and every copy's mirrored position (a follow-up command
 *   of the same batch) is durable: p50, p99, max, each trial's on a line of its own as it ends, and
 *   the first trial's beside the later ones' p99 (the first runs the fan-out's code cold and is
 *   often the slowest, and with ten trials the p99 is the max); and the longest the event loop was
 *   held meanwhile
 *   (the longest gap between turns of a 1 ms timer): deciding the fill and its copies holds it,
 *   writing them need not;
 * - every copy took the trade (copy_trades rows with an order): checked, not assumed;
 * - the tick while the copies hold their positions: one tick of EURUSD marks every copied position
 *   and runs the copy stop-loss check (p50, p99 over BENCH_TICKS ticks, default 200, in every
 *   trial, pooled over the trials; each series after 20 ticks that warm the code up, as
 *   bench:engine's: the first ticks after the copies opened ran the mark and the copy check in the
 *   interpreter, and with 20 ticks the p99 was the coldest tick), against the same tick with no
 *   copy open, and against the same tick with as many plain positions open instead (the same
 *   accounts, each holding the lots its copy held, placed by itself once the copies closed: no copy
 *   follows them; measured in every trial right after the copies' series and closed again), which
 *   issue 32 wants the copies' tick to cost no more than, judged trial by trial (TICK_NOISE). Each
 *   series starts after a forced full collection and a pause for V8's helper threads (as
 *   bench:engine's mark to market), so that the garbage of the fill before it is not collected
 *   inside the measured ticks;
 * - the provider closes (a command too): the time to its answer, every copy closed with it.
 * Goals: 1,000 copies within 250 ms and 10,000 within 1 s (issue 32), fill to last copy (p99),
 * and the tick for everyone else never delayed by more than that.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ORDER_MODE, ORDER_TYPE } from "@contract/enums";
import { dec } from "../../upstream/modules/money/decimal.js";
import { startPostgres } from "../../scripts/services/postgres.js";
import { openStore, type DB, type SqliteDb } from "../../upstream/platform/db.js";
import type { Sequencer } from "../../upstream/platform/store/sequencer.js";
import type { Engine } from "../../upstream/modules/trading/engine.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { syncLater } from "../../upstream/platform/store/sqlite-wal-sync.js";
import { makeCopiers, providerBuys } from "./copiers.js";
import { fullCollection } from "./gc.js";
import { leaderOn } from "../support/held-writes.js";
import { CopyTrading } from "../../upstream/modules/copy/service.js";
import { fundProvider } from "../../upstream/modules/follow/strategies.js";
import { createManualFeed, type ManualFeed } from "../../upstream/modules/market/manual-feed.js";

const num = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
const SIZES = (process.env.BENCH_COPIES ?? "1000,10000").split(",").map(Number);
const TRIALS = num("BENCH_TRIALS", 10);
const TICKS = num("BENCH_TICKS", 200);
/** Ticks run before each measured series and not counted (the JIT's warm-up). */
const WARMUP_TICKS = 20;
const STORES = (process.env.BENCH_STORES ?? "sqlite,postgres").split(",");
const GOAL_MS: Record<number, number> = { 1000: 250, 10000: 1000 };
/**
 * Issue 32: the tick with the copies' positions open costs no more than with as many plain
 * positions, judged trial by trial (the copies' series against the plain series measured seconds
 * after it): the median over the trials of the ratio of their p50s, and of their p99s, each within
 * this much room. Two series of the same positions are not timed alike to the last tenth of a
 * millisecond, and this machine's speed drifts by more than that between minutes of one run.
 */
const TICK_NOISE = 1.1;
/** The pause after the forced full collection before a series of ticks (ms), as bench:engine's. */
const AFTER_GC_SETTLE_MS = 500;

const log = (m: string) => console.error(`[bench:copy] ${m}`);
const quiet = { error: (o: unknown) => console.error(o), warn: () => {} };

interface Figures {
  store: string;
  copies: number;
  fillP50: number;
  fillP99: number;
  fillMax: number;
  /**
   * The first trade's fill -> last copy, and the later trades' p99: the first runs the fan-out's
   * code cold (the interpreter, before V8 compiles it) and is often the slowest, and with ten
   * trials the p99 is the max.
   */
  fillFirst: number;
  fillRestP99: number | null;
  /** The longest the event loop was held while a fill was mirrored: p50 and max over the fills. */
  fillLoopP50: number;
  fillLoopMax: number;
  closeP50: number;
  closeMax: number;
  tickOpenP50: number;
  tickOpenP99: number;
  tickIdleP50: number;
  tickIdleP99: number;
  tickPlainP50: number;
  tickPlainP99: number;
  /** Median over the trials of (copies' series p50 / plain series p50), and the same of p99. */
  tickP50Ratio: number;
  tickP99Ratio: number;
  copied: number;
  expected: number;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)] ?? 0;
}

/**
 * The longest gap between the turns of a 1 ms timer from now until stop() (which lets one more turn
 * pass, so that a gap ending with the awaited answer counts): how long the event loop was held.
 */
function loopProbe(): { stop(): Promise<number> } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return {
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, 5));
      clearInterval(timer);
      return longest;
    },
  };
}

/**
 * A full collection, then a pause while V8's helper threads finish its sweeping: the ticks measured
 * next pay for neither (bench:engine's mark to market does the same).
 */
async function settled(): Promise<void> {
  fullCollection();
  await new Promise((resolve) => setTimeout(resolve, AFTER_GC_SETTLE_MS));
}

async function ticks(feed: ManualFeed, base: number, count: number): Promise<number[]> {
  await settled();
  const out: number[] = [];
  for (let i = -WARMUP_TICKS; i < count; i++) {
    const t0 = performance.now();
    feed.set("EURUSD", base * (i % 2 ? 1.00002 : 0.99998));
    if (i >= 0) out.push(performance.now() - t0);
  }
  return out;
}

/**
 * The ticks with as many plain positions open as the copies of the provider's order `copiedFrom`
 * held: each of those accounts buys the lots its copy held, by itself (one batch of market orders,
 * as a fan-out's), and no copy follows them. They are closed again (one bulk close) once measured.
 */
async function plainTicks(
  db: DB,
  engine: Engine,
  seq: Sequencer,
  feed: ManualFeed,
  base: number,
  copiedFrom: number,
): Promise<number[]> {
  const held = db
    .prepare(
      `SELECT o.user_id, o.lots, o.leverage FROM copy_trades c
       JOIN orders o ON o.id = c.order_id WHERE c.provider_order_id = ? ORDER BY o.id`,
    )
    .all(copiedFrom) as { user_id: number; lots: string; leverage: number }[];
  feed.set("EURUSD", base);
  const instrumentId = feed.quote("EURUSD")!.id;
  const placed = await seq.run(() =>
    engine.submitMarketMany(
      held.map((h) => ({
        userId: Number(h.user_id),
        req: {
          side: ORDER_TYPE.BUY,
          status: ORDER_MODE.MARKET,
          instrumentId,
          lots: dec(h.lots),
          leverage: Number(h.leverage),
          targetPrice: null,
          takeProfit: null,
          stopLoss: null,
        },
      })),
    ),
  );
  const open = placed.flatMap((p, k) =>
    p instanceof DomainError ? [] : [{ userId: Number(held[k].user_id), id: p.id }],
  );
  if (open.length < held.length)
    throw new Error(`${held.length - open.length} of ${held.length} plain orders were refused`);
  const measured = await ticks(feed, base, TICKS);
  const closed = await seq.run(() => engine.closeMany(open, "manual"));
  const kept = closed.filter((c) => c instanceof DomainError).length;
  if (kept > 0) throw new Error(`${kept} of ${open.length} plain positions were not closed`);
  return measured;
}

async function onStore(store: string, where: string, copies: number): Promise<Figures> {
  const db = openStore(where);
  if (db.dialect === "sqlite") syncLater(db as SqliteDb);
  const feed = createManualFeed(db, { alwaysOpen: true, candlesLater: true });
  const { money, seq, engine } = leaderOn(db, feed, quiet);
  // The candles' writes are commands of the sequencer, as a leader writes them (app.ts): a tick
  // does not wait for the store.
  feed.book.writeVia((write) => seq.run(write));
  let provider = -1;
  const copying = new CopyTrading({ db, money, engine, log: quiet });
  try {
    const base = feed.quote("EURUSD")!.price;
    feed.set("EURUSD", base);
    provider = fundProvider(db, money, { name: "Bench Desk", style: "manual", capital: 10_000e6 });
    const t0 = performance.now();
    makeCopiers(db, money, copying, provider, copies);
    log(`${store}: ${copies} copies made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const idle = await ticks(feed, base, TICKS);
    const fill: number[] = [];
    const held: number[] = [];
    const close: number[] = [];
    /** Each trial's series of ticks with the copies open, and with as many plain positions. */
    const open: number[][] = [];
    const plain: number[][] = [];
    let copied = 0;
    for (let t = 0; t < TRIALS; t++) {
      feed.set("EURUSD", base);
      const sent = performance.now();
      const probe = loopProbe();
      const o = await seq.run(() => providerBuys(engine, feed, provider));
      held.push(await probe.stop());
      fill.push(performance.now() - sent);
      log(
        `${store} trial ${t + 1}: fill -> last copy ${fill.at(-1)!.toFixed(1)} ms, event loop held ${held.at(-1)!.toFixed(1)} ms`,
      );
      copied += (
        db
          .prepare(
            "SELECT COUNT(*) AS n FROM copy_trades WHERE provider_order_id = ? AND order_id IS NOT NULL",
          )
          .get(o.id) as { n: number }
      ).n;
      // The copies' ticks and the plain positions' ticks are measured in every trial, one series
      // after the other, so that both pools span the same minutes of the run: a machine's slower
      // stretch falls on both, not on whichever was measured then.
      open.push(await ticks(feed, base, TICKS));
      const closing = performance.now();
      await seq.run(() => engine.close(provider, o.id));
      close.push(performance.now() - closing);
      plain.push(await plainTicks(db, engine, seq, feed, base, o.id));
    }
    const ratio = (q: number) =>
      pct(
        open.map((xs, t) => pct(xs, q) / pct(plain[t], q)),
        0.5,
      );
    return {
      store,
      copies,
      fillP50: pct(fill, 0.5),
      fillP99: pct(fill, 0.99),
      fillMax: Math.max(...fill),
      fillFirst: fill[0],
      fillRestP99: fill.length > 1 ? pct(fill.slice(1), 0.99) : null,
      fillLoopP50: pct(held, 0.5),
      fillLoopMax: Math.max(...held),
      closeP50: pct(close, 0.5),
      closeMax: Math.max(...close),
      tickOpenP50: pct(open.flat(), 0.5),
      tickOpenP99: pct(open.flat(), 0.99),
      tickIdleP50: pct(idle, 0.5),
      tickIdleP99: pct(idle, 0.99),
      tickPlainP50: pct(plain.flat(), 0.5),
      tickPlainP99: pct(plain.flat(), 0.99),
      tickP50Ratio: ratio(0.5),
      tickP99Ratio: ratio(0.99),
      copied,
      expected: copies * TRIALS,
    };
  } finally {
    copying.stop();
    engine.stop();
    feed.stop();
    db.close();
  }
}

function print(f: Figures): boolean {
  const goal = GOAL_MS[f.copies];
  const met = goal === undefined ? null : f.fillP99 <= goal && f.copied === f.expected;
  const tickMet = f.tickP50Ratio <= TICK_NOISE && f.tickP99Ratio <= TICK_NOISE;
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(
    `${f.store.padEnd(10)} ${String(f.copies).padStart(6)} copies  fill -> last copy p50 ${ms(f.fillP50)} p99 ${ms(f.fillP99)} max ${ms(f.fillMax)}, event loop held p50 ${ms(f.fillLoopP50)} max ${ms(f.fillLoopMax)}` +
      `; the first trade ${ms(f.fillFirst)}` +
      (f.fillRestP99 === null ? "" : `, the later ones p99 ${ms(f.fillRestP99)}`) +
      `  (copied ${f.copied}/${f.expected})  close -> last copy p50 ${ms(f.closeP50)} max ${ms(f.closeMax)}`,
  );
  console.log(
    `${"".padEnd(24)}tick with the copies open p50 ${ms(f.tickOpenP50)} p99 ${ms(f.tickOpenP99)}; with as many plain positions p50 ${ms(f.tickPlainP50)} p99 ${ms(f.tickPlainP99)}; with none open p50 ${ms(f.tickIdleP50)} p99 ${ms(f.tickIdleP99)}` +
      (goal === undefined ? "" : `  goal p99 <= ${goal} ms: ${met ? "MET" : "NOT MET"}`) +
      `; copies / plain by trial (median): p50 ${f.tickP50Ratio.toFixed(2)} p99 ${f.tickP99Ratio.toFixed(2)}, no dearer than plain (within ${Math.round((TICK_NOISE - 1) * 100)} %): ${tickMet ? "MET" : "NOT MET"}`,
  );
  return met !== false && tickMet;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-bench-copy-"));
  fs.chmodSync(dir, 0o755);
  const figures: Figures[] = [];
  try {
    if (STORES.includes("sqlite"))
      for (const n of SIZES)
        figures.push(await onStore("SQLite", path.join(dir, `copy-${n}.sqlite`), n));
    if (STORES.includes("postgres")) {
      const pg = await startPostgres({ durable: true, logFile: path.join(dir, "postgres.log") });
      try {
        for (const n of SIZES)
          figures.push(await onStore("PostgreSQL", await pg.createDatabase(`bench_copy_${n}`), n));
      } catch (err) {
        // Printed before the server stops: a batch still being written then fails with "the
        // database system is shutting down", and that failure may end the process first.
        console.error("[bench:copy] PostgreSQL run failed:", err);
        throw err;
      } finally {
        await pg.stop();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log("-".repeat(96));
  console.log(
    `copy trading: one provider, ${TRIALS} trades, node ${process.version}, ${os.cpus().length} cores`,
  );
  let met = true;
  for (const f of figures) met = print(f) && met;
  console.log("-".repeat(96));
  if (!met && process.env.BENCH_STRICT === "1") process.exit(1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
