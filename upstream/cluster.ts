/**
 * A node of the upstream cluster (DATABASE_URL set; docs/deploy.md): it takes the engine's
 * leadership when free (platform/store/leader-lock.ts) and runs as the leader, else runs as a
 * standby (app.ts) and tries again every POLL_MS. When it takes the leadership, it closes its
 * standby server and builds the leader on the same port: the engine's memory is loaded from the
 * store, the market continues from the stored candles, and commands are served again.
 *
 * Invariant: the node serves as leader only while its lock connection holds the leadership; when
 * that connection is lost (as leader or standby), or a take-over fails, `onLostLeadership` runs
 * (main.ts ends the process: a supervisor starts it again, as a standby).
 */
import os from "node:os";
import { buildUpstream, type Upstream } from "./app.js";
import type { CarriedQuote } from "./modules/market/market-core.js";
import type { UpstreamConfig } from "./platform/config.js";
import { LeaderLock, POLL_MS, leaderFenceSql } from "./platform/store/leader-lock.js";
import { recordLeader, recordedLeader } from "./platform/cluster/leader-store.js";

export interface ClusterNode {
  readonly id: string;
  role(): "leader" | "standby";
  /** The node's own base URL (as it listens). */
  readonly url: string;
  upstream(): Upstream;
  close(): Promise<void>;
}

export interface ClusterLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** How long a standby trusts the leader URL it read from the store (ms). */
const LEADER_URL_TTL_MS = 1_000;

export async function startClusterNode(
  config: UpstreamConfig & { databaseUrl: string },
  o: { log: ClusterLog; onLostLeadership: (why: string) => void },
): Promise<ClusterNode> {
  const lock = new LeaderLock(config.databaseUrl, o.log);
  await lock.connect();
  let cfg = config;
  let up: Upstream;
  let url = "";
  let role: "leader" | "standby" = "standby";
  let poll: NodeJS.Timeout | null = null;
  let closing = false;
  const id = config.nodeName ?? `${os.hostname()}:${process.pid}`;

  let cached: { url: string | null; at: number } = { url: null, at: 0 };
  const leaderUrl = () => {
    if (Date.now() - cached.at > LEADER_URL_TTL_MS) {
      try {
        const row = recordedLeader(up.ctx.db);
        // A row naming this node is stale (it led before it restarted): never forward to itself.
        cached = { url: row && row.node !== id ? row.url : null, at: Date.now() };
      } catch {
        cached = { url: null, at: Date.now() };
      }
    }
    return cached.url;
  };

  /** Listens, then keeps the port: a promotion listens on the same one. */
  const listen = async (u: Upstream) => {
    url = await u.listen();
    cfg = { ...cfg, port: Number(new URL(url).port) };
  };

  const lead = async (carriedQuotes?: readonly CarriedQuote[]) => {
    role = "leader";
    up = await buildUpstream(cfg, {
      node: { id, role: "leader", fence: leaderFenceSql(lock.backendPid) },
      carriedQuotes,
    });
    await listen(up);
    recordLeader(up.ctx.db, { node: id, url: config.advertiseUrl ?? url, since: Date.now() });
  };

  const promote = async () => {
    const t0 = Date.now();
    // The prices this standby mirrored, with their ticks' times: the engine it starts trades at
    // them at once instead of refusing orders as stale until the feed's next tick.
    const carried = up.ctx.feed.all();
    await up.close();
    try {
      await lead(carried);
    } catch (err) {
      // Holding the lock without serving would leave the cluster with no leader: end the node
      // (its supervisor starts it again, as a standby), which frees the lock with its connection.
      o.log.error({ err }, "take-over failed");
      if (!closing) o.onLostLeadership(`take-over failed: ${(err as Error).message}`);
      return;
    }
    o.log.info({ node: id, ms: Date.now() - t0 }, "took over as the engine's leader");
  };

  const tryTakeOver = async () => {
    if (closing || role === "leader") return;
    try {
      if (!(await lock.tryAcquire())) return;
    } catch (err) {
      o.log.warn({ err }, "could not ask for the leadership");
      return;
    }
    if (poll) clearInterval(poll);
    poll = null;
    await promote();
  };

  // A leader that loses its lock connection must stop at once; a standby without one could never
  // lead: both end the node, and its supervisor starts it again.
  lock.onLost((why) => {
    if (!closing) o.onLostLeadership(why);
  });
  if (await lock.tryAcquire()) await lead();
  else {
    up = await buildUpstream(cfg, { node: { id, role: "standby", leaderUrl } });
    await listen(up);
    let busy = false;
    poll = setInterval(() => {
      if (busy) return;
      busy = true;
      tryTakeOver()
        .catch((err) => o.log.error({ err }, "take-over attempt failed"))
        .finally(() => (busy = false));
    }, POLL_MS);
  }
  o.log.info({ node: id, role, url }, "upstream node started");

  return {
    id,
    role: () => role,
    get url() {
      return url;
    },
    upstream: () => up,
    async close() {
      closing = true;
      if (poll) clearInterval(poll);
      await up.close();
      await lock.close();
    },
  };
}
