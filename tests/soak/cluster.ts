/**
 * Cluster soak: leader kills under load (`npm run soak:cluster`, 20 kills; a short run in
 * tests/integration/soak-cluster.test.ts, and one kill in tests/integration/cluster.test.ts).
 *
 * On a cluster of scripts/cluster/launch.ts (PostgreSQL, NATS, two upstream nodes), concurrent
 * clients, one demo account each, keep placing market orders and closing them through both upstream
 * nodes (a standby sends each command on to the leader), every command with its own Idempotency-Key,
 * while the test ticks the hand-driven market. Each round: the leader is killed with SIGKILL, a
 * standby takes over, the supervisor starts the killed node again (it comes back as a standby), and
 * the load goes on. A client whose answer was lost (connection refused or reset, or 503 while no
 * node leads) sends the same command with the same key again, to the other node, until an answer
 * comes, as a client should.
 *
 * Counted and checked:
 * - acknowledged: commands answered HTTP 200 with code 1 (an order placed, a position closed);
 * - lost: an acknowledged order missing from the store, or in an earlier state than acknowledged
 *   (checked after every take-over and at the end);
 * - duplicates: orders in the store beyond one per acknowledged key (at the end, with every command
 *   answered: each account's orders are exactly its acknowledged ones), and keys whose replay
 *   answers another order;
 * - invariant breaches: the ledger check's findings (upstream/modules/money/check.ts, one consistent
 *   snapshot) after every take-over and at the end, and `npm run ledger:check` at the end;
 * - failover times: from the kill to the first order acknowledged for a request sent after it (the
 *   new leader's first), and to the first /healthz that says another node leads.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import type { Cluster, NodeProcess } from "../../scripts/cluster/launch.js";
import { openStoreReadOnly } from "../../upstream/platform/db.js";
import { checkLedger } from "../../upstream/modules/money/check.js";
import {
  ensureServices,
  setPrice,
  startTestCluster,
  upstreamGet,
  upstreamPost,
  type Envelope,
} from "../support/cluster.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The issue's bound: a standby serves within 10 s of the leader's death (on a quiet machine). */
export const TAKE_OVER_BOUND_MS = 10_000;
/**
 * The bound inside `npm test`, where four integration files and the unit threads share two cores
 * with the cluster's processes: a take-over that needs 0.9 s on a quiet machine took 3.8-10.6 s
 * there (a new leader builds its engine, indexes and candle books from the store). The suite
 * proves that a standby takes over and that nothing acknowledged is lost or doubled; the 10 s bound
 * is held by `npm run soak:cluster` and `npm run bench:cluster`, which run alone.
 */
export const SUITE_TAKE_OVER_BOUND_MS = 30_000;
/** Longest wait for one command's answer, retries included, before it counts as unanswered. */
const COMMAND_BOUND_MS = 60_000;
/** Longest wait for a leader, a first order or the killed node's return after a kill. */
const ROUND_BOUND_MS = 45_000;
/** The instruments the clients trade and the ticker moves. */
const CODES = ["EURUSD", "GBPUSD", "USDJPY"] as const;
/** A client closes its oldest position once it holds this many. */
const OPEN_PER_CLIENT = 2;

export interface ClusterSoakOptions {
  /** Leader kills. */
  kills: number;
  /** Concurrent clients, one demo account each. */
  clients: number;
  /** Load between the killed node's return and the next kill, ms. */
  runMs: number;
  /** A take-over slower than this is a breach (ms; TAKE_OVER_BOUND_MS unless given). */
  takeOverBoundMs?: number;
  log?: (line: string) => void;
}

export interface Failover {
  killed: string;
  leader: string;
  /** Kill → another node's /healthz says "leader", ms. */
  leadMs: number;
  /** Kill → the first order acknowledged for a request sent after the kill, ms. */
  firstAckMs: number;
}

export interface ClusterSoakResult {
  kills: number;
  durationMs: number;
  /** Commands acknowledged (HTTP 200, code 1): orders placed and positions closed. */
  acknowledged: number;
  /** Orders those placed. */
  orders: number;
  /** Acknowledged commands whose effect the store does not hold. */
  lost: number;
  /** Orders beyond one per key (unknown orders at the end, replays answering another order). */
  duplicates: number;
  /** Acknowledged keys sent again at the end, all expected to answer their first order. */
  replayed: number;
  /** Sends repeated with the same key (an answer lost, or no leader for a moment). */
  retried: number;
  /** Commands that needed such a repeat. */
  retriedCommands: number;
  /** Why a send was repeated: "503 <node>" or "lost <node>: <error>", counted. */
  retryReasons: Record<string, number>;
  /** Commands refused (code other than 1), by message. */
  refused: Record<string, number>;
  /** Findings of the ledger check, over every check run. */
  invariantBreaches: number;
  /** Ledger checks run (after each take-over, at the end). */
  ledgerChecks: number;
  /** `npm run ledger:check`'s exit code at the end. */
  ledgerCheckExit: number | null;
  failovers: Failover[];
  /** Every breach, in words. */
  breaches: string[];
}

interface Command {
  path: "/v1/api/forex/submit" | "/v1/api/forex/close";
  body: Record<string, string | number>;
  key: string;
}

interface Account {
  token: string;
  userId: number;
}

interface Acked {
  account: Account;
  c: Command;
  orderId: number;
}

/** Order states only move forward: open (1) → closed (3). */
function laterOrSame(seen: number, now: number): boolean {
  return seen === now || (seen === 1 && now === 3);
}

const count = (m: Record<string, number>, k: string) => void (m[k] = (m[k] ?? 0) + 1);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The p-th percentile (0..100) of `xs`, nearest rank. */
export function percentile(xs: readonly number[], p: number): number | null {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * `npm run ledger:check` on the cluster's database, with an upstream node's environment
 * (DATABASE_URL and OPERATOR_SECRET_KEY, which the upstream's configuration requires beside it);
 * its exit code and output.
 */
export function ledgerCheck(cluster: Cluster): Promise<{ code: number; output: string }> {
  const env = {
    ...process.env,
    DATABASE_URL: cluster.databaseUrl,
    OPERATOR_SECRET_KEY: cluster.secrets.OPERATOR_SECRET_KEY,
  };
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "-s", "ledger:check"],
      { cwd: ROOT, env, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({
          code: err ? (typeof err.code === "number" ? err.code : 2) : 0,
          output: stdout + stderr,
        }),
    );
  });
}

export async function runClusterSoak(
  cluster: Cluster,
  o: ClusterSoakOptions,
): Promise<ClusterSoakResult> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const r: ClusterSoakResult = {
    kills: 0,
    durationMs: 0,
    acknowledged: 0,
    orders: 0,
    lost: 0,
    duplicates: 0,
    replayed: 0,
    retried: 0,
    retriedCommands: 0,
    retryReasons: {},
    refused: {},
    invariantBreaches: 0,
    ledgerChecks: 0,
    ledgerCheckExit: null,
    failovers: [],
    breaches: [],
  };
  const breach = (what: string) => {
    r.breaches.push(what);
    log(`BREACH ${what}`);
  };
  const nodes = cluster.upstreams;
  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
  const store = openStoreReadOnly(cluster.databaseUrl);
  try {
    // ---- the instruments and the accounts
    const list = await upstreamGet<any[]>(nodes[0].url, "/v1/api/forex/trade_list");
    const instruments = CODES.map((code) => {
      const i = list.data.find((x) => x.Code === code);
      if (!i) throw new Error(`no instrument ${code}`);
      const leverages = (i.HasForexMultiple as { Value: number }[]).map((m) => m.Value);
      return {
        code,
        id: i.Id as number,
        lots: String(i.ForexMinCont),
        multiple: leverages.includes(100) ? 100 : leverages.at(-1)!,
        price: i.ForexQuotations.Close as number,
        precision: i.PricePrecision as number,
      };
    });
    const accounts: Account[] = [];
    for (let i = 0; i < o.clients; i++) {
      const node = nodes[i % nodes.length].url;
      const demo = await upstreamPost(node, "/api/user/createAccountDemoForU", {});
      const login = await upstreamPost(node, "/api/user/loginForU", {
        demo_id: demo.data.demo_id,
      });
      if (login.code !== 1) throw new Error(`demo sign-in refused: ${login.msg}`);
      const id = await pool.query<{ id: string }>("SELECT id FROM users WHERE demo_id = $1", [
        demo.data.demo_id,
      ]);
      accounts.push({ token: login.data.token, userId: Number(id.rows[0].id) });
    }

    // ---- what the clients were acknowledged
    /** order id → the latest status acknowledged (1 open, 3 closed). */
    const ackedOrders = new Map<number, { userId: number; status: number }>();
    const ackedCommands: Acked[] = [];
    /** The round now running: its kill time and its first acknowledged order. */
    let round: { at: number; firstAck: number | null } | null = null;
    let stopping = false;
    let keySeq = 0;
    const runId = started.toString(36);

    /** Sends a command until an answer comes, the same key each time, alternating the nodes. */
    const send = async (
      account: Account,
      c: Command,
      firstNode: number,
    ): Promise<{ env: Envelope; sentAt: number } | null> => {
      const until = Date.now() + COMMAND_BOUND_MS;
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          r.retried++;
          if (attempt === 1) r.retriedCommands++;
        }
        const node = nodes[(firstNode + attempt) % nodes.length];
        const sentAt = Date.now();
        try {
          const env = await upstreamPost(node.url, c.path, c.body, {
            authorization: account.token,
            "idempotency-key": c.key,
          });
          // 503: no leader answered the standby; nothing was done, or the retry gets the answer.
          if (env.status !== 503) {
            if (env.status >= 400)
              breach(`${c.path} key ${c.key}: HTTP ${env.status} ${JSON.stringify(env)}`);
            return { env, sentAt };
          }
          count(r.retryReasons, `503 from ${node.name}`);
        } catch (err) {
          // The answer was lost (connection refused or reset, or no answer in time).
          const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
          count(r.retryReasons, `lost at ${node.name}: ${cause}`);
        }
        if (Date.now() > until) {
          breach(`${c.path} key ${c.key}: no answer within ${COMMAND_BOUND_MS} ms`);
          return null;
        }
        await sleep(Math.min(200, 25 * 2 ** attempt));
      }
    };

    const client = async (n: number) => {
      const account = accounts[n];
      const open: number[] = [];
      for (let seq = 0; !stopping; seq++) {
        const key = `cluster-soak-${runId}-${n}-${++keySeq}`;
        let c: Command;
        if (open.length >= OPEN_PER_CLIENT) {
          c = { path: "/v1/api/forex/close", body: { id: open[0] }, key };
        } else {
          const inst = instruments[(n + seq) % instruments.length];
          c = {
            path: "/v1/api/forex/submit",
            key,
            body: {
              type: seq % 2 === 0 ? 1 : 2,
              status: 1,
              cont: inst.lots,
              forex_id: inst.id,
              multiple: inst.multiple,
            },
          };
        }
        const answer = await send(account, c, (n + seq) % nodes.length);
        if (!answer) continue;
        const { env, sentAt } = answer;
        if (env.code !== 1) {
          count(r.refused, env.msg);
          if (c.path.endsWith("/close")) open.shift();
          await sleep(50);
          continue;
        }
        const orderId = Number(env.data.Id);
        ackedOrders.set(orderId, { userId: account.userId, status: Number(env.data.Status) });
        ackedCommands.push({ account, c, orderId });
        if (c.path.endsWith("/submit")) {
          open.push(orderId);
          if (round && round.firstAck === null && sentAt >= round.at)
            round.firstAck = Date.now() - round.at;
        } else open.shift();
      }
    };

    // ---- the market: a small deterministic walk of each instrument, ticked every 250 ms
    const ticker = async () => {
      for (let t = 1; !stopping; t++) {
        const inst = instruments[t % instruments.length];
        // A price as a person would type it (the contract refuses more decimals than the
        // instrument quotes); a refusal is a breach, only a moment without a leader is not.
        const price = (inst.price * (1 + 0.0004 * Math.sin(t / 7))).toFixed(inst.precision);
        await setPrice(cluster, inst.code, Number(price)).catch((err: Error) => {
          if (err.message.includes('"status":400'))
            breach(`tick ${inst.code} ${price}: ${err.message}`);
        });
        await sleep(250);
      }
    };

    /** Every acknowledged order is in the store, in the state acknowledged or a later one. */
    const checkAcked = async (label: string) => {
      const seen = new Map([...ackedOrders].map(([id, v]) => [id, { ...v }]));
      const rows = await pool.query<{ id: string; user_id: string; status: string }>(
        "SELECT id, user_id, status FROM orders WHERE id = ANY($1::bigint[])",
        [[...seen.keys()]],
      );
      const inStore = new Map(rows.rows.map((x) => [Number(x.id), x]));
      for (const [id, want] of seen) {
        const got = inStore.get(id);
        if (
          got &&
          Number(got.user_id) === want.userId &&
          laterOrSame(want.status, Number(got.status))
        )
          continue;
        r.lost++;
        breach(
          `${label}: order ${id} acknowledged with status ${want.status}, store: ${got ? `status ${got.status}` : "missing"}`,
        );
      }
    };

    /** The ledger check on one consistent snapshot of the store. */
    const checkInvariants = (label: string) => {
      const report = checkLedger(store);
      r.ledgerChecks++;
      r.invariantBreaches += report.findings.length;
      for (const f of report.findings) breach(`${label}: ledger ${f.check}: ${f.message}`);
    };

    /** Polls every node's /healthz until one other than `killed` leads; its name and the time. */
    const awaitLeader = async (killed: NodeProcess, at: number) => {
      for (;;) {
        const roles = await Promise.all(nodes.map((u) => (u === killed ? null : u.health())));
        const i = roles.findIndex((h) => h?.role === "leader");
        if (i >= 0) return { leader: nodes[i].name, leadMs: Date.now() - at };
        if (Date.now() - at > ROUND_BOUND_MS) throw new Error("no node took over");
        await sleep(25);
      }
    };

    const awaitCondition = async (what: string, ok: () => Promise<boolean> | boolean) => {
      const until = Date.now() + ROUND_BOUND_MS;
      while (!(await ok())) {
        if (Date.now() > until) throw new Error(`${what}: not within ${ROUND_BOUND_MS} ms`);
        await sleep(50);
      }
    };

    log(`cluster soak: ${o.kills} leader kills, ${o.clients} clients`);
    // Every instrument ticked once before the clients start: its quote is current whatever the
    // day (the seeded history ends at the market's last open minute, on a weekend Friday's close).
    for (const inst of instruments)
      await setPrice(cluster, inst.code, Number(inst.price.toFixed(inst.precision)));
    const load = [...accounts.map((_, n) => client(n)), ticker()];
    try {
      for (let k = 1; k <= o.kills; k++) {
        await sleep(o.runMs);
        const victim = await cluster.leader(ROUND_BOUND_MS);
        round = { at: Date.now(), firstAck: null };
        const at = round.at;
        victim.kill9();
        r.kills++;
        const { leader, leadMs } = await awaitLeader(victim, at);
        if (leadMs > (o.takeOverBoundMs ?? TAKE_OVER_BOUND_MS))
          breach(`kill ${k}: ${leader} led ${leadMs} ms after the kill`);
        const current = round;
        await awaitCondition(
          `kill ${k}: first order on ${leader}`,
          () => current.firstAck !== null,
        );
        r.failovers.push({ killed: victim.name, leader, leadMs, firstAckMs: current.firstAck! });
        // The supervisor starts the killed node again; it comes back as a standby.
        await victim.ready();
        await awaitCondition(
          `kill ${k}: ${victim.name} back as a standby`,
          async () => (await victim.health())?.role === "standby",
        );
        await checkAcked(`kill ${k}`);
        checkInvariants(`kill ${k}`);
        log(
          `kill ${k}/${o.kills}: ${victim.name} killed, ${leader} led after ${leadMs} ms, first order after ${current.firstAck} ms; ${ackedCommands.length} acknowledged, ${r.retriedCommands} commands resent, ${r.breaches.length} breaches`,
        );
      }
      await sleep(o.runMs);
    } finally {
      stopping = true;
      await Promise.all(load);
    }

    // ---- the end: every command answered
    r.acknowledged = ackedCommands.length;
    r.orders = ackedCommands.filter((a) => a.c.path.endsWith("/submit")).length;
    await checkAcked("end");
    const userIds = accounts.map((a) => a.userId);
    const ordersOf = async () =>
      (
        await pool.query<{ id: string }>(
          "SELECT id FROM orders WHERE user_id = ANY($1::bigint[])",
          [userIds],
        )
      ).rows.map((x) => Number(x.id));
    const before = await ordersOf();
    const unknown = before.filter((id) => !ackedOrders.has(id));
    r.duplicates += unknown.length;
    if (unknown.length) breach(`end: orders no key was acknowledged: ${unknown.join(", ")}`);
    // Each acknowledged key, sent again, answers its first order and creates nothing.
    for (let i = 0; i < ackedCommands.length; i += o.clients) {
      await Promise.all(
        ackedCommands.slice(i, i + o.clients).map(async (a, j) => {
          const again = await send(a.account, a.c, (i + j) % nodes.length);
          r.replayed++;
          if (again?.env.code === 1 && Number(again.env.data.Id) === a.orderId) return;
          r.duplicates++;
          breach(`replay of ${a.c.key}: first order ${a.orderId}, now ${JSON.stringify(again)}`);
        }),
      );
    }
    const after = await ordersOf();
    if (after.length !== before.length) {
      r.duplicates += after.length - before.length;
      breach(`replays created ${after.length - before.length} orders`);
    }
    checkInvariants("end");
    const npmCheck = await ledgerCheck(cluster);
    r.ledgerCheckExit = npmCheck.code;
    if (npmCheck.code !== 0)
      breach(`npm run ledger:check exited ${npmCheck.code}:\n${npmCheck.output}`);
  } finally {
    store.close();
    await pool.end();
    r.durationMs = Date.now() - started;
  }
  return r;
}

/** The soak's report, one figure a line. */
export function formatClusterSoak(r: ClusterSoakResult): string {
  const ack = r.failovers.map((f) => f.firstAckMs);
  const lead = r.failovers.map((f) => f.leadMs);
  const reasons = Object.entries(r.retryReasons)
    .map(([m, n]) => `${n} × ${m}`)
    .join("; ");
  const ms = (x: number | null) => (x === null ? "-" : `${x} ms`);
  const refused = Object.entries(r.refused)
    .map(([m, n]) => `${n} × ${m}`)
    .join("; ");
  return [
    `leader kills                      ${r.kills}`,
    `acknowledged commands             ${r.acknowledged} (${r.orders} orders placed)`,
    `lost acknowledged commands        ${r.lost}`,
    `duplicate orders for one key      ${r.duplicates} (${r.replayed} keys replayed)`,
    `invariant breaches (ledger check) ${r.invariantBreaches} over ${r.ledgerChecks} checks; npm run ledger:check exit ${r.ledgerCheckExit}`,
    `commands resent with their key    ${r.retriedCommands} (${r.retried} sends)`,
    `why sends were repeated           ${reasons || "-"}`,
    `refused commands                  ${refused || "none"}`,
    `failover, kill → first order      p50 ${ms(percentile(ack, 50))}, max ${ms(percentile(ack, 100))}`,
    `failover, kill → new leader       p50 ${ms(percentile(lead, 50))}, max ${ms(percentile(lead, 100))}`,
    `duration                          ${(r.durationMs / 1000).toFixed(1)} s`,
    `breaches                          ${r.breaches.length}`,
  ].join("\n");
}

/** `npm run soak:cluster`: SOAK_KILLS (default 20), SOAK_CLIENTS (default 4); exit 1 on a breach. */
async function main(): Promise<number> {
  const int = (name: string, dflt: number, max: number) => {
    const raw = process.env[name];
    const n = raw ? Number(raw) : dflt;
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new Error(`${name} must be a whole number from 1 to ${max}, got ${raw}`);
    return n;
  };
  const kills = int("SOAK_KILLS", 20, 200);
  const clients = int("SOAK_CLIENTS", 4, 16);
  ensureServices();
  const log = (line: string) => console.log(line);
  const t0 = Date.now();
  // No web nodes: the clients speak to the upstream nodes, as the mobile app does.
  const tc = await startTestCluster({
    name: "soak-cluster",
    ports: [28_500, 32_700],
    webs: 0,
    durable: true,
    log: (l) => log(`cluster: ${l}`),
  });
  log(`cluster started in ${Date.now() - t0} ms (logs in ${tc.dataDir}/logs until the end)`);
  // Ctrl-C: stop the cluster's processes with the soak.
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.once(sig, () => void tc.close().finally(() => process.exit(130)));
  try {
    const r = await runClusterSoak(tc.cluster, { kills, clients, runMs: 1_500, log });
    console.log("\n" + formatClusterSoak(r));
    if (r.breaches.length) console.log("\n" + r.breaches.join("\n"));
    return r.breaches.length ? 1 : 0;
  } finally {
    await tc.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
