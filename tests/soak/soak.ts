/**
 * Crash soak (npm run soak; a short run in tests/integration/soak.test.ts): the real upstream
 * (upstream/main.ts, a child process on loopback, a fresh DATA_DIR and store: SQLite there, or an
 * empty PostgreSQL database) serves several concurrent demo
 * accounts placing market and pending orders, closing and cancelling, every command with an
 * Idempotency-Key, while it is killed with SIGKILL at random moments and started again.
 *
 * A client whose answer was lost (connection refused or reset) retries the same request with the
 * same key until an answer comes, as a client should. After each restart, with the clients paused:
 * - every order acknowledged before the kill (an OK answer received) is in the store, in the state
 *   the client saw or a later one;
 * - the ledger invariants of upstream/modules/money/check.ts hold;
 * - each account's figures (forexDetail) match the store: balance, locked balance, used margin;
 * - no order unknown to its client exists beyond the one its pending retry may have created;
 * - replaying acknowledged keys answers the first answer again and creates nothing.
 * At the end, with every retry answered: each account's orders are exactly the ones its clients were
 * acknowledged (no second order, so no second fee), and the invariants hold once more.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { openStoreReadOnly } from "../../upstream/platform/db.js";
import { redactedStore } from "../../upstream/platform/config.js";
import { checkLedger, CHECK_NAMES } from "../../upstream/modules/money/check.js";
import { freePort } from "../../scripts/services/ports.js";
import { nodeArgsFor } from "../support/node-bundle.js";
import { until } from "../support/wait.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface SoakOptions {
  /** SIGKILLs of the upstream (SOAK_KILLS, default 20). */
  kills: number;
  /** Seed of every random choice (SOAK_SEED, default random). */
  seed: number;
  /** Concurrent clients (SOAK_CLIENTS, default 4), two per demo account. */
  clients: number;
  /** Longest time the clients work between two kills, ms (default 1500). */
  maxRunMs: number;
  /** Progress lines (default none). */
  log?: (line: string) => void;
  /**
   * Run the upstream on PostgreSQL: an empty database's URL (DATABASE_URL) and the operator key
   * PostgreSQL requires (OPERATOR_SECRET_KEY). Default: SQLite in the soak's own DATA_DIR.
   */
  postgres?: { databaseUrl: string; operatorSecretKey: string };
}

export interface SoakResult {
  seed: number;
  kills: number;
  durationMs: number;
  /** Distinct orders acknowledged to the clients. */
  acknowledged: number;
  /** Of those, found in the store in the state seen or a later one at every check. */
  found: number;
  lost: number;
  /** Sends repeated with the same key because the answer was lost or the upstream was down. */
  retried: number;
  /** Commands that needed such a repeat before their answer came. */
  retriedCommands: number;
  /** Acknowledged keys replayed after a restart, and how many answered differently. */
  replayed: number;
  replayMismatches: number;
  requests: number;
  /** Passed and failed checks by invariant. */
  invariants: Record<string, { passed: number; failed: number }>;
  /** Every breach, in words. */
  breaches: string[];
}

/** Deterministic PRNG (mulberry32). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Env {
  code: number;
  msg: string;
  data: any;
}

/** A lost answer: the connection failed or closed before a full answer came. */
class LostAnswer extends Error {}

/** Order states only move forward: pending -> open/cancelled -> closed. */
function laterOrSame(seen: number, now: number): boolean {
  if (seen === now) return true;
  if (seen === 0) return now === 1 || now === 3 || now === 4;
  if (seen === 1) return now === 3;
  return false;
}

interface Upstream {
  proc: ChildProcess;
  exited: Promise<void>;
  lines: string[];
}

interface Command {
  path: string;
  body: Record<string, string | number>;
  key: string;
  /** The answer's data first received for the key. */
  answer?: unknown;
  /** Sent more than once (its first answer was lost or the upstream was down). */
  retried?: boolean;
}

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const rand = rng(opts.seed);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-soak-"));
  // The store: DATA_DIR's SQLite file, or the PostgreSQL database given.
  const where = opts.postgres?.databaseUrl ?? path.join(dataDir, "upstream.sqlite");
  const storeEnv = opts.postgres
    ? {
        DATABASE_URL: opts.postgres.databaseUrl,
        OPERATOR_SECRET_KEY: opts.postgres.operatorSecretKey,
      }
    : { DATABASE_URL: "" };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const deadline = started + 120_000 + opts.kills * 20_000;

  const result: SoakResult = {
    seed: opts.seed,
    kills: 0,
    durationMs: 0,
    acknowledged: 0,
    found: 0,
    lost: 0,
    retried: 0,
    retriedCommands: 0,
    replayed: 0,
    replayMismatches: 0,
    requests: 0,
    invariants: {},
    breaches: [],
  };
  const tally = (name: string, ok: boolean, breach?: string) => {
    const t = (result.invariants[name] ??= { passed: 0, failed: 0 });
    if (ok) t.passed++;
    else {
      t.failed++;
      if (breach) result.breaches.push(`${name}: ${breach}`);
    }
  };
  for (const n of [
    "acknowledged_found",
    ...CHECK_NAMES,
    "figures",
    "no_unknown_order",
    "replay_same",
    "no_500",
    "session_kept",
  ])
    result.invariants[n] = { passed: 0, failed: 0 };

  // ---- the upstream child process (killed with this process, should it end mid-run)
  let up: Upstream | null = null;
  const killOnExit = () => up?.proc.kill("SIGKILL");
  process.once("exit", killOnExit);
  const startUpstream = async (): Promise<void> => {
    const proc = spawn(process.execPath, nodeArgsFor("upstream"), {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        UPSTREAM_DB: "",
        ...storeEnv,
        UPSTREAM_HOST: "127.0.0.1",
        UPSTREAM_PORT: String(port),
        MARKET_ALWAYS_OPEN: "1",
        MARKET_TICK_MS: "100",
        MARKET_SEED: String(opts.seed),
        RATE_LIMIT: "0",
        DEV_OUTBOX: "0",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    const exited = new Promise<void>((r) => proc.once("exit", () => r()));
    const ready = new Promise<void>((resolve, reject) => {
      const onLine = (l: string) => {
        lines.push(l);
        if (lines.length > 200) lines.shift();
        if (l.startsWith("UPSTREAM_READY ")) resolve();
      };
      readline.createInterface({ input: proc.stdout! }).on("line", onLine);
      readline.createInterface({ input: proc.stderr! }).on("line", onLine);
      void exited.then(() => reject(new Error(`upstream exited:\n${lines.join("\n")}`)));
      setTimeout(
        () => reject(new Error(`upstream not ready in 60 s:\n${lines.join("\n")}`)),
        60_000,
      ).unref();
    });
    up = { proc, exited, lines };
    const t0 = Date.now();
    await ready;
    log(`upstream ready in ${Date.now() - t0} ms`);
    for (const l of lines)
      if (/"level":(50|60)/.test(l)) result.breaches.push(`upstream logged an error: ${l}`);
  };
  const kill = async (): Promise<void> => {
    const u = up!;
    u.proc.kill("SIGKILL");
    await u.exited;
    result.kills++;
  };

  // ---- HTTP with lost-answer detection
  const call = async (
    method: "GET" | "POST",
    p: string,
    body?: Record<string, string | number>,
    headers: Record<string, string> = {},
  ): Promise<Env> => {
    result.requests++;
    let res: Response;
    let text: string;
    try {
      res = await fetch(base + p, {
        method,
        headers: body
          ? { ...headers, "content-type": "application/x-www-form-urlencoded" }
          : headers,
        body: body
          ? new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString()
          : undefined,
        signal: AbortSignal.timeout(15_000),
      });
      text = await res.text();
    } catch (err) {
      throw new LostAnswer(String(err));
    }
    let env: Env;
    try {
      env = JSON.parse(text) as Env;
    } catch {
      throw new Error(`${method} ${p}: HTTP ${res.status}, not an envelope: ${text.slice(0, 200)}`);
    }
    const internal = res.status >= 500 || env.code === 500;
    tally("no_500", !internal, `${method} ${p} answered ${res.status} ${text.slice(0, 300)}`);
    return env;
  };

  // ---- pause gate: the checks run with every client idle
  let gate: Promise<void> | null = null;
  let openGate: () => void = () => {};
  const pause = () => {
    if (!gate) gate = new Promise((r) => (openGate = r));
  };
  const resume = () => {
    gate = null;
    openGate();
  };
  let busy = 0;
  const idle = () => until("the soak's clients finish", () => busy === 0, 30_000);
  let stopping = false;

  /** Wait before another attempt: 20 ms doubling up to 160 ms, with jitter, while the upstream is down. */
  const backoff = (attempt: number) =>
    Math.min(160, 20 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
  /** Sends a command until an answer arrives, with the same key each time (retry after a loss). */
  const command = async (token: string, c: Command): Promise<Env> => {
    for (let attempt = 0; ; attempt++) {
      while (gate) await gate;
      if (Date.now() > deadline) throw new Error("soak deadline passed");
      busy++;
      try {
        if (attempt > 0) {
          result.retried++;
          if (!c.retried) result.retriedCommands++;
          c.retried = true;
        }
        return await call("POST", c.path, c.body, {
          authorization: token,
          "idempotency-key": c.key,
        });
      } catch (err) {
        if (!(err instanceof LostAnswer)) throw err;
      } finally {
        busy--;
      }
      await sleep(backoff(attempt));
    }
  };
  const query = async (token: string, p: string): Promise<Env> => {
    for (let attempt = 0; ; attempt++) {
      while (gate) await gate;
      if (Date.now() > deadline) throw new Error("soak deadline passed");
      busy++;
      try {
        return await call("GET", p, undefined, { authorization: token });
      } catch (err) {
        if (!(err instanceof LostAnswer)) throw err;
      } finally {
        busy--;
      }
      await sleep(backoff(attempt));
    }
  };

  try {
    await startUpstream();
    log(
      `soak: seed ${opts.seed}, ${opts.kills} kills, ${opts.clients} clients, store ${redactedStore(where)}`,
    );

    // ---- accounts and instruments
    const accounts: { userId: number; token: string; demoId: string }[] = [];
    const nAccounts = Math.max(1, Math.ceil(opts.clients / 2));
    for (let i = 0; i < nAccounts; i++) {
      const demo = await call("POST", "/api/user/createAccountDemoForU", {});
      const login = await call("POST", "/api/user/loginForU", { demo_id: demo.data.demo_id });
      if (login.code !== 1) throw new Error(`demo sign-in refused: ${JSON.stringify(login)}`);
      accounts.push({
        token: login.data.token,
        demoId: demo.data.demo_id,
        userId: 0,
      });
    }
    {
      const db = openStoreReadOnly(where);
      for (const a of accounts)
        a.userId = (
          db.prepare("SELECT id FROM users WHERE demo_id = ?").get(a.demoId) as { id: number }
        ).id;
      db.close();
    }
    const list = await call("GET", "/v1/api/forex/trade_list");
    const instruments = (list.data as any[])
      .filter((i) => i.HasForexMultiple.length > 0 && i.ForexQuotations?.Close > 0)
      .slice(0, 6)
      .map((i) => ({
        id: i.Id as number,
        lots: String(i.ForexMinCont),
        multiple: (i.HasForexMultiple as { Value: number }[]).at(-1)!.Value,
        precision: i.PricePrecision as number,
      }));
    if (!instruments.length) throw new Error("no tradable instrument");

    // ---- what the clients were acknowledged
    /** order id -> [user id, latest status acknowledged]. */
    const acked = new Map<number, { userId: number; status: number }>();
    /** Every command answered OK, for replays. */
    const done: { token: string; userId: number; c: Command }[] = [];
    /** Per account: submits sent whose answer has not come yet. */
    const outstanding = new Map<number, number>(accounts.map((a) => [a.userId, 0]));
    let keySeq = 0;
    /** Orders a refused close or cancel could not find again on the first pages: not chosen again. */
    const gone = new Set<number>();

    const ack = (userId: number, order: any) => {
      const prev = acked.get(order.Id);
      if (!prev || laterOrSame(prev.status, order.Status))
        acked.set(order.Id, { userId, status: order.Status });
    };

    const client = async (n: number) => {
      const acc = accounts[n % accounts.length];
      const r = rng(opts.seed + 1000 + n);
      const mine = () =>
        [...acked.entries()]
          .filter(([id, v]) => v.userId === acc.userId && !gone.has(id))
          .map(([id, v]) => ({ id, ...v }));
      while (!stopping) {
        const live = mine();
        const open = live.filter((o) => o.status === 1);
        const pend = live.filter((o) => o.status === 0);
        const x = r();
        let c: Command;
        const key = `soak-${opts.seed}-${n}-${++keySeq}`;
        if ((x < 0.25 || open.length > 15) && open.length) {
          c = {
            path: "/v1/api/forex/close",
            body: { id: open[Math.floor(r() * open.length)].id },
            key,
          };
        } else if ((x < 0.4 || pend.length > 10) && pend.length) {
          const id = pend[Math.floor(r() * pend.length)].id;
          c = { path: "/v1/api/forex/cancel_trade", body: { id }, key };
        } else {
          const inst = instruments[Math.floor(r() * instruments.length)];
          const type = r() < 0.5 ? 1 : 2;
          const body: Record<string, string | number> = {
            type,
            cont: inst.lots,
            forex_id: inst.id,
            multiple: inst.multiple,
          };
          if (r() < 0.35) {
            // A pending order near the price: some fill while the soak runs, some stay pending.
            const q = await query(acc.token, `/v1/api/forex/trade_list`);
            const cur = (q.data as any[]).find((i) => i.Id === inst.id)?.ForexQuotations?.Close;
            if (!(cur > 0)) continue;
            const off = (r() < 0.5 ? -1 : 1) * cur * 0.0002 * (1 + Math.floor(r() * 3));
            body.status = 0;
            body.target_price = (cur + off).toFixed(inst.precision);
          }
          c = { path: "/v1/api/forex/submit", body, key };
        }
        const isSubmit = c.path.endsWith("/submit");
        if (isSubmit) outstanding.set(acc.userId, outstanding.get(acc.userId)! + 1);
        let env: Env;
        try {
          env = await command(acc.token, c);
        } finally {
          if (isSubmit) outstanding.set(acc.userId, outstanding.get(acc.userId)! - 1);
        }
        tally("session_kept", env.code !== 999, `${c.path} answered session invalid`);
        if (env.code === 1) {
          c.answer = env.data;
          ack(acc.userId, env.data);
          done.push({ token: acc.token, userId: acc.userId, c });
        } else if (c.path.endsWith("/close") || c.path.endsWith("/cancel_trade")) {
          // Closed or filled meanwhile (stop-out, a pending order filled): learn its state again.
          const id = Number(c.body.id);
          const deal = await query(acc.token, `/v1/api/forex/my_deal?status=3&page=1`);
          const row = (deal.data.data as any[]).find((o) => o.Id === id);
          if (row) ack(acc.userId, row);
          else {
            const holding = await query(acc.token, `/v1/api/forex/my_deal?status=1&page=1`);
            const h = (holding.data.data as any[]).find((o) => o.Id === id);
            if (h) ack(acc.userId, h);
            else gone.add(id);
          }
        }
      }
    };

    // ---- the checks, run with every client paused
    const check = async (
      ackedAtKill: Map<number, { userId: number; status: number }>,
      final: boolean,
    ) => {
      const db = openStoreReadOnly(where);
      try {
        const report = checkLedger(db);
        for (const name of CHECK_NAMES) {
          const f = report.findings.filter((x) => x.check === name);
          tally(name, f.length === 0, f.map((x) => JSON.stringify(x)).join("; "));
        }
        const orders = new Map(
          (db.prepare("SELECT id, user_id, status FROM orders").all() as any[]).map((o) => [
            o.id,
            o,
          ]),
        );
        for (const [id, seen] of ackedAtKill) {
          const o = orders.get(id);
          const ok = !!o && o.user_id === seen.userId && laterOrSame(seen.status, o.status);
          tally(
            "acknowledged_found",
            ok,
            `order ${id} acknowledged with status ${seen.status}, store: ${o ? `status ${o.status}` : "missing"}`,
          );
        }
        for (const a of accounts) {
          const unknown = [...orders.values()].filter(
            (o) => o.user_id === a.userId && !acked.has(o.id),
          ).length;
          const allowed = final ? 0 : outstanding.get(a.userId)!;
          tally(
            "no_unknown_order",
            unknown <= allowed,
            `user ${a.userId}: ${unknown} orders never acknowledged, ${allowed} submits unanswered`,
          );
          // The store as forexDetail reports it; the market keeps ticking (a pending order may
          // fill, a stop may close), so the answer is compared only with a store that did not
          // change while it was asked.
          const store = () => {
            const u = db
              .prepare("SELECT balance_micro, lock_balance_micro FROM users WHERE id = ?")
              .get(a.userId) as { balance_micro: number; lock_balance_micro: number };
            const m = db
              .prepare(
                "SELECT COALESCE(SUM(margin_micro), 0) AS m FROM orders WHERE user_id = ? AND status = 1",
              )
              .get(a.userId) as { m: number };
            return {
              balance: u.balance_micro / 1e6,
              lock: u.lock_balance_micro / 1e6,
              margin: m.m / 1e6,
            };
          };
          for (let attempt = 1; ; attempt++) {
            const want = store();
            const d = await call("GET", "/v1/api/main/account/forexDetail", undefined, {
              authorization: a.token,
            });
            if (!isDeepStrictEqual(store(), want) && attempt < 10) continue;
            const got = d.data
              ? {
                  balance: d.data.balance,
                  lock: d.data.lock_balance,
                  margin: d.data.all_caution_money,
                }
              : null;
            const near = (x: number, y: number) => Math.abs(x - y) < 0.011;
            tally(
              "figures",
              d.code === 1 &&
                !!got &&
                near(got.balance, want.balance) &&
                near(got.lock, want.lock) &&
                near(got.margin, want.margin),
              `user ${a.userId}: forexDetail ${JSON.stringify(got ?? d)}, store ${JSON.stringify(want)}`,
            );
            break;
          }
        }
      } finally {
        db.close();
      }
      // Replays: the same key answers the first answer again and books nothing.
      const shuffled = [...done].sort(() => rand() - 0.5);
      const sample = [
        ...shuffled.filter((d) => d.c.retried).slice(0, final ? 20 : 5),
        ...shuffled.filter((d) => !d.c.retried).slice(0, final ? 20 : 5),
      ];
      if (!sample.length) return;
      // Only a submit creates an order, and the clients are paused: a replay that created one
      // would show here (a second fee or profit of an order is checkLedger's order_fee/profit).
      const count = () => {
        const db = openStoreReadOnly(where);
        try {
          return db.prepare("SELECT COUNT(*) AS n FROM orders").get() as { n: number };
        } finally {
          db.close();
        }
      };
      const before = count().n;
      for (const s of sample) {
        const env = await call("POST", s.c.path, s.c.body, {
          authorization: s.token,
          "idempotency-key": s.c.key,
        });
        result.replayed++;
        const same = env.code === 1 && isDeepStrictEqual(env.data, s.c.answer);
        if (!same) result.replayMismatches++;
        tally(
          "replay_same",
          same,
          `key ${s.c.key} (${s.c.path}) first ${JSON.stringify(s.c.answer)}, replay ${JSON.stringify(env)}`,
        );
      }
      tally("replay_same", count().n === before, "a replayed key created a new order");
    };

    const runners: Promise<void>[] = [];
    const failures: unknown[] = [];
    for (let i = 0; i < opts.clients; i++)
      runners.push(client(i).catch((e) => void failures.push(e)));

    try {
      for (let k = 0; k < opts.kills; k++) {
        await sleep(200 + Math.floor(rand() * Math.max(0, opts.maxRunMs - 200)));
        if (failures.length) break;
        await kill();
        const ackedAtKill = new Map([...acked].map(([id, v]) => [id, { ...v }]));
        // Sometimes the clients keep knocking on the closed port for a while before the restart.
        await sleep(Math.floor(rand() * 300));
        await startUpstream();
        pause();
        await idle();
        await check(ackedAtKill, false);
        log(
          `kill ${result.kills}/${opts.kills}: ${acked.size} orders acknowledged, ${result.retriedCommands} commands resent, ${result.breaches.length} breaches`,
        );
        resume();
      }
      await sleep(300);
    } finally {
      stopping = true;
      resume();
      await Promise.all(runners);
    }
    if (failures.length)
      result.breaches.push(...failures.map((e) => `client failed: ${String(e)}`));
    await check(acked, true);

    // The final tally: acknowledged orders and how many the store holds as acknowledged.
    result.acknowledged = acked.size;
    const db = openStoreReadOnly(where);
    for (const [id, seen] of acked) {
      const o = db.prepare("SELECT user_id, status FROM orders WHERE id = ?").get(id) as
        { user_id: number; status: number } | undefined;
      if (o && o.user_id === seen.userId && laterOrSame(seen.status, o.status)) result.found++;
      else result.lost++;
    }
    db.close();
  } finally {
    const u = up as Upstream | null;
    if (u) {
      u.proc.kill("SIGTERM");
      await Promise.race([u.exited, sleep(10_000)]);
      u.proc.kill("SIGKILL");
    }
    process.off("exit", killOnExit);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  result.durationMs = Date.now() - started;
  return result;
}

/** The summary table of a run. */
export function formatSoak(r: SoakResult): string {
  const rows: [string, string][] = [
    ["seed", String(r.seed)],
    ["kills", String(r.kills)],
    ["duration", `${(r.durationMs / 1000).toFixed(1)} s`],
    ["requests", String(r.requests)],
    ["acknowledged orders", String(r.acknowledged)],
    ["found", String(r.found)],
    ["lost", String(r.lost)],
    ["commands resent with the same key", String(r.retriedCommands)],
    ["sends repeated (upstream down or answer lost)", String(r.retried)],
    ["keys replayed / answered differently", `${r.replayed} / ${r.replayMismatches}`],
  ];
  for (const [name, t] of Object.entries(r.invariants))
    rows.push([
      `invariant ${name}`,
      t.failed ? `FAILED ${t.failed} of ${t.passed + t.failed}` : `ok (${t.passed})`,
    ]);
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`);
  if (r.breaches.length)
    lines.push("", "breaches:", ...r.breaches.slice(0, 50).map((b) => `  ${b}`));
  return lines.join("\n");
}
