import { env } from "~/utils/env.server";
/**
 * How many event streams may be open at once: per session (a browser's tabs) and per client address
 * (many sessions behind one address, or none at all). A stream beyond either bound is refused with
 * 429; each admitted stream holds one slot of each until it ends.
 *
 * Invariant: for every key, the count equals the number of admitted streams not yet released, and a
 * key with no stream is not kept (the maps hold open streams only).
 *
 * Counted per web node, in cluster mode too: the bounds protect this node's own connections and
 * memory, which no other node shares, and a slot is released by the node that holds the stream. A
 * count kept in the shared database would outlive a node killed with its streams (kill -9 releases
 * nothing), locking its browsers out until some expiry. Behind a balancer without sticky sessions,
 * a browser may hold up to (number of web nodes) times each bound at once. The abuse limits that
 * must hold across nodes (sign-in attempts, codes sent, orders) are the upstream's, counted per
 * client address from the X-Forwarded-For every web node sends.
 */
interface StreamLimitOptions {
  /** 0: no limit. */
  maxPerSession: number;
  /** 0: no limit. */
  maxPerIp: number;
}

type Admission =
  { ok: true; release: () => void } | { ok: false; reason: "session" | "ip"; limit: number };

export class StreamLimits {
  private readonly bySession = new Map<string, number>();
  private readonly byIp = new Map<string, number>();

  constructor(private readonly o: StreamLimitOptions) {}

  /** Takes a slot for a stream of `session` (null: not identified) from `ip`, or says which bound stops it. */
  admit(ip: string, session: string | null): Admission {
    const { maxPerSession, maxPerIp } = this.o;
    if (
      session !== null &&
      maxPerSession > 0 &&
      (this.bySession.get(session) ?? 0) >= maxPerSession
    )
      return { ok: false, reason: "session", limit: maxPerSession };
    if (maxPerIp > 0 && (this.byIp.get(ip) ?? 0) >= maxPerIp)
      return { ok: false, reason: "ip", limit: maxPerIp };
    if (session !== null) this.bySession.set(session, (this.bySession.get(session) ?? 0) + 1);
    this.byIp.set(ip, (this.byIp.get(ip) ?? 0) + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        if (session !== null) decrement(this.bySession, session);
        decrement(this.byIp, ip);
      },
    };
  }

  /** Open streams of a session or an address (diagnostics and tests). */
  count(kind: "session" | "ip", key: string): number {
    return (kind === "session" ? this.bySession : this.byIp).get(key) ?? 0;
  }
}

function decrement(m: Map<string, number>, key: string): void {
  const n = (m.get(key) ?? 0) - 1;
  if (n < 0) throw new Error(`stream slot released twice for ${key}`);
  if (n === 0) m.delete(key);
  else m.set(key, n);
}

const GLOBAL_KEY = "__tradepostStreamLimits";

/** The process's stream limits, from LIVE_MAX_PER_SESSION and LIVE_MAX_PER_IP. */
export function getStreamLimits(): StreamLimits {
  const g = globalThis as unknown as Record<string, StreamLimits | undefined>;
  g[GLOBAL_KEY] ??= new StreamLimits({
    maxPerSession: env().liveMaxPerSession,
    maxPerIp: env().liveMaxPerIp,
  });
  return g[GLOBAL_KEY];
}
