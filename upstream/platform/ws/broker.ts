/**
 * The push broker: what stands between the websocket hub's producers (the market's pushes, the
 * trading pushes, revocations) and its local delivery to the connections of this node
 * (decision 0017).
 *
 * - In-process (`createLocalBroker`, no NATS_URL): a publish is delivered to this node's hub at
 *   once, synchronously: exactly the single-process behaviour.
 * - NATS (`connectNatsBroker`, NATS_URL): a publish is delivered to this node's hub at once, as in
 *   process, and sent on a NATS subject to every other node, whose hub delivers it to its own
 *   connections. The connection is opened with `noEcho`, so a node never receives its own
 *   messages: each push reaches each node's connections exactly once.
 *
 * Subjects (PREFIX is "tradepost" unless the options name another; each <…> is one token):
 *   PREFIX.push.<topic>            a public push of <topic>; payload: the push's data, JSON
 *   PREFIX.user.<id>.<topic>       a private push of <topic> to user <id> (decimal); payload: JSON
 *   PREFIX.tick                    the quotes that changed in one tick of the leader's market,
 *                                  JSON Quote[] (modules/market/feed.ts)
 *   PREFIX.revoke                  {"hash"}: drop the connections of a token (its SHA-256, hex)
 *   PREFIX.presence                {"node","seq","part","parts","users":{topic:[ids]}} or
 *                                  {"node","bye":true}: a node's users subscribed to private topics
 *   PREFIX.hello                   {"node","resync"}: a node (re)connected; every node announces
 *                                  its presence again, and with resync its hub republishes
 * A topic becomes ONE token: topics such as KLINE.EURUSD hold dots, which NATS reads as token
 * separators, and an instrument code may hold several dots in a row. `subjectToken` keeps
 * [A-Za-z0-9-] and writes every other byte of the topic's UTF-8 as "_" and two upper-case hex
 * digits (KLINE.EURUSD -> KLINE_2EEURUSD, DAY_MARKET -> DAY_5FMARKET): reversible, and always in
 * the alphabet NATS recommends, never a wildcard.
 *
 * Private pushes and who is connected where: the trading pushes ask the hub which users have a
 * connection subscribed to FOREX_TRADE, and push only their accounts. In a cluster the leader
 * produces every push, but the connections are spread over the nodes, so each node announces the
 * users of its connections per private topic on PREFIX.presence: at most `presenceDebounceMs`
 * after a change, every `presenceIntervalMs`, when another node says hello, and a bye when it
 * closes. An announcement holds for `presenceTtlMs` (three intervals by default): a node that
 * dies without a bye is forgotten then. A node's set goes in parts of at most PRESENCE_CHUNK ids
 * (far below NATS's default max_payload of 1 MiB), numbered under one sequence number; a set
 * replaces the node's previous one once all of its parts have arrived. `remoteUsers(topic)` is
 * the union over the other nodes; the hub adds its own connections. Bounded: the messages and the
 * memory grow with the connected users, never with all accounts, and a missed announcement costs
 * at most a TTL of pushes to nobody or an interval of delay (a user's account changes stay marked
 * until pushed, modules/trading/pushes.ts).
 *
 * While NATS is unreachable, publishes are dropped, not queued: pushes are state that the next
 * push supersedes, and a queue would grow with the outage. The client reconnects for ever
 * (`reconnectWaitMs` plus jitter between attempts, a dead server noticed by pings within
 * PING_INTERVAL_MS * MAX_PINGS_OUT). After a reconnection the node says hello with resync, and a
 * hub that produces pushes republishes the snapshots of what it published (hub.ts `resync`), so
 * the other nodes' clients catch up on what the outage dropped.
 *
 * Ticks: the node that runs the market publishes each tick's changed quotes (`publishTick`); a
 * node that does not can mirror them (`onTick`). A node never receives its own ticks, and the
 * in-process broker has no other node: its `publishTick` sends nothing and its tick listeners are
 * never called.
 */
import crypto from "node:crypto";
import { connect, type NatsConnection, type Msg } from "@nats-io/transport-node";
import type { Quote } from "../../modules/market/feed.js";

/** What a broker delivers to: the hub's local delivery (hub.ts). */
export interface PushSink {
  /** Sends a public push to this node's connections subscribed to the topic. */
  deliver(topic: string, data: unknown): void;
  /** Sends a private push to this node's connections of the user subscribed to the topic. */
  deliverToUser(userId: number, topic: string, data: unknown): void;
  /** Logs out this node's connections of a token, given by its hash. */
  dropTokenHash(hash: string): void;
  /** This node's users with a connection subscribed to each private topic. */
  localUsers(): Record<string, number[]>;
  /** Another node reconnected (or this one did): republish the snapshots of what was published. */
  resync(): void;
}

export interface BrokerStatus {
  kind: "local" | "nats";
  /** Always true in process; with NATS, whether the connection is up now. */
  connected: boolean;
  /** The NATS server(s), without credentials. */
  url?: string;
}

export interface PushBroker {
  readonly kind: "local" | "nats";
  /** Sets where this node's deliveries go; once per broker (the hub does it). */
  attach(sink: PushSink): void;
  /** A public push: delivered to this node's sink now, and to every other node's. */
  publish(topic: string, data: unknown): void;
  /** A private push to one user: delivered to this node's sink now, and to every other node's. */
  publishToUser(userId: number, topic: string, data: unknown): void;
  /** A token's revocation: this node's connections of it now, every other node's too. */
  dropTokenHash(hash: string): void;
  /** The quotes that changed in one tick of this node's market, for the nodes mirroring it. */
  publishTick(changed: readonly Quote[]): void;
  /** Calls the listener with each tick another node publishes. Returns an unsubscribe function. */
  onTick(listener: (changed: Quote[]) => void): () => void;
  /** This node's subscribers of a private topic changed (the sink's localUsers): announce them. */
  localUsersChanged(): void;
  /** Users the other nodes announce as subscribed to a private topic (never this node's own). */
  remoteUsers(topic: string): number[];
  status(): BrokerStatus;
  /** Says goodbye to the other nodes and closes the connection. */
  close(): Promise<void>;
}

export interface BrokerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** The single-process broker: every publish goes straight to this node's hub. */
export function createLocalBroker(): PushBroker {
  let sink: PushSink | null = null;
  return {
    kind: "local",
    attach(s) {
      if (sink) throw new Error("push broker already attached to a hub");
      sink = s;
    },
    publish: (topic, data) => sink?.deliver(topic, data),
    publishToUser: (userId, topic, data) => sink?.deliverToUser(userId, topic, data),
    dropTokenHash: (hash) => sink?.dropTokenHash(hash),
    publishTick: () => undefined,
    onTick: () => () => undefined,
    localUsersChanged: () => undefined,
    remoteUsers: () => [],
    status: () => ({ kind: "local", connected: true }),
    close: async () => undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// Subjects

/** One topic as one NATS subject token (see the file's comment); reversed by `topicOfToken`. */
export function subjectToken(topic: string): string {
  let out = "";
  for (const byte of Buffer.from(topic, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9-]/.test(c) ? c : `_${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  if (out === "") throw new Error("empty topic");
  return out;
}

/** The topic a subject token stands for, or null when the token is not one subjectToken writes. */
export function topicOfToken(token: string): string | null {
  if (!/^(?:[A-Za-z0-9-]|_[0-9A-F]{2})+$/.test(token)) return null;
  const bytes: number[] = [];
  for (let i = 0; i < token.length; i++) {
    if (token[i] === "_") {
      bytes.push(parseInt(token.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(token.charCodeAt(i));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The subjects of one prefix. */
export function subjectsOf(prefix: string) {
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix))
    throw new Error(`invalid subject prefix ${JSON.stringify(prefix)}`);
  return {
    push: (topic: string) => `${prefix}.push.${subjectToken(topic)}`,
    userPush: (userId: number, topic: string) => `${prefix}.user.${userId}.${subjectToken(topic)}`,
    allPushes: `${prefix}.push.*`,
    allUserPushes: `${prefix}.user.*.*`,
    tick: `${prefix}.tick`,
    revoke: `${prefix}.revoke`,
    presence: `${prefix}.presence`,
    hello: `${prefix}.hello`,
  };
}

// ---------------------------------------------------------------------------------------------
// Presence: who is subscribed on the other nodes

/** Most user ids in one presence message (about 8 bytes each: ~80 KB, under any max_payload). */
export const PRESENCE_CHUNK = 10_000;

type Presence =
  | { node: string; bye: true }
  | { node: string; seq: number; part: number; parts: number; users: Record<string, number[]> };

/** True when a decoded message has a presence message's shape. */
export function isPresence(p: unknown): p is Presence {
  if (typeof p !== "object" || p === null) return false;
  const o = p as Record<string, unknown>;
  if (typeof o.node !== "string") return false;
  if (o.bye === true) return true;
  const whole = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  return (
    whole(o.seq) &&
    whole(o.part) &&
    whole(o.parts) &&
    (o.part as number) < (o.parts as number) &&
    typeof o.users === "object" &&
    o.users !== null &&
    Object.values(o.users).every((ids) => Array.isArray(ids) && ids.every(whole))
  );
}

/** A node's set of users per topic cut into presence messages of at most `chunk` ids. */
export function presenceParts(
  node: string,
  seq: number,
  users: Record<string, number[]>,
  chunk = PRESENCE_CHUNK,
): Presence[] {
  const parts: Record<string, number[]>[] = [{}];
  let room = chunk;
  for (const [topic, ids] of Object.entries(users)) {
    for (let i = 0; i < ids.length;) {
      if (room === 0) {
        parts.push({});
        room = chunk;
      }
      const take = ids.slice(i, i + room);
      const last = parts[parts.length - 1];
      (last[topic] ??= []).push(...take);
      room -= take.length;
      i += take.length;
    }
  }
  return parts.map((p, part) => ({ node, seq, part, parts: parts.length, users: p }));
}

interface NodePresence {
  /** The announcement being assembled: its sequence number and the parts received. */
  seq: number;
  parts: (Record<string, number[]> | undefined)[];
  /** The last complete announcement. */
  active: Record<string, number[]>;
  /** When the node is forgotten unless it announces again (ms since epoch). */
  expires: number;
}

/** The other nodes' announced users, expiring after `ttlMs` without an announcement. */
export class PresenceBook {
  private readonly nodes = new Map<string, NodePresence>();
  private merged = new Map<string, number[]>();
  private dirty = false;

  constructor(private readonly ttlMs: number) {}

  apply(p: Presence, now: number): void {
    if ("bye" in p) {
      if (this.nodes.delete(p.node)) this.dirty = true;
      return;
    }
    let n = this.nodes.get(p.node);
    if (!n) this.nodes.set(p.node, (n = { seq: -1, parts: [], active: {}, expires: 0 }));
    if (p.seq < n.seq || p.part < 0 || p.part >= p.parts) return;
    if (p.seq > n.seq) {
      n.seq = p.seq;
      n.parts = new Array(p.parts).fill(undefined);
    }
    n.parts[p.part] = p.users;
    n.expires = now + this.ttlMs;
    if (n.parts.every((x) => x !== undefined)) {
      const active: Record<string, number[]> = {};
      for (const part of n.parts)
        for (const [topic, ids] of Object.entries(part!)) (active[topic] ??= []).push(...ids);
      n.active = active;
      this.dirty = true;
    }
  }

  /** The union of every live node's users of a topic. */
  users(topic: string, now: number): number[] {
    for (const [node, n] of this.nodes)
      if (n.expires < now) {
        this.nodes.delete(node);
        this.dirty = true;
      }
    if (this.dirty) {
      const sets = new Map<string, Set<number>>();
      for (const n of this.nodes.values())
        for (const [t, ids] of Object.entries(n.active)) {
          let s = sets.get(t);
          if (!s) sets.set(t, (s = new Set()));
          for (const id of ids) s.add(id);
        }
      this.merged = new Map([...sets].map(([t, s]) => [t, [...s]]));
      this.dirty = false;
    }
    return this.merged.get(topic) ?? [];
  }
}

// ---------------------------------------------------------------------------------------------
// The NATS broker

export interface NatsBrokerOptions {
  /** One server URL (nats://host:port, tls://…) or several, comma-separated. */
  url: string;
  /** First token(s) of every subject (default "tradepost"); nodes of one cluster share it. */
  prefix?: string;
  /** The client's name in the server's monitoring. */
  name?: string;
  log?: BrokerLog;
  /** Wait between reconnection attempts, ms (plus up to half of it as jitter). Default 500. */
  reconnectWaitMs?: number;
  /** A node's presence is announced again this often, ms. Default 5,000. */
  presenceIntervalMs?: number;
  /** An announcement holds this long, ms. Default three intervals. */
  presenceTtlMs?: number;
  /** A change of this node's subscribers is announced this much later at most, ms. Default 50. */
  presenceDebounceMs?: number;
  /** A resync waits this long for the other nodes' presence answers, ms. Default 200. */
  resyncDelayMs?: number;
}

/** Client pings: a server that stops answering is left after PING_INTERVAL_MS * MAX_PINGS_OUT. */
const PING_INTERVAL_MS = 5_000;
const MAX_PINGS_OUT = 3;
/** Time-out of one connection handshake, ms. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How long a close waits for the connection to drain, ms. */
const CLOSE_GRACE_MS = 2_000;

/** The server list of a URL option, with any user and password left out (for logs, /healthz). */
export function redactedServers(url: string): string {
  return (
    url
      .split(",")
      // Up to the last @ before the host: a password may hold an @ of its own (nats://u:p@ss@host).
      .map((u) => u.trim().replace(/\/\/[^/]*@/, "//"))
      .join(",")
  );
}

const noLog: BrokerLog = { info: () => undefined, warn: () => undefined };

/**
 * Connects to NATS and answers the broker once the first connection is up; rejects when the
 * server cannot be reached at start (a node without its broker would serve stale pushes). Once
 * connected, it reconnects for ever.
 */
/**
 * The client's view of NATS_URL: the servers without credentials (the client does not read them
 * from a URL), the user and password (or the token) of the first URL that has them, and TLS
 * required when any URL says tls://.
 */
export function natsServersOf(urls: string): {
  servers: string[];
  user?: string;
  pass?: string;
  token?: string;
  tls?: Record<string, never>;
} {
  const parsed = urls
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean)
    .map((u) => new URL(u));
  const withUser = parsed.find((u) => u.username !== "");
  return {
    servers: parsed.map(
      (u) => `${u.hostname.includes(":") ? `[${u.hostname}]` : u.hostname}:${u.port || 4222}`,
    ),
    // user:password, or a token alone (nats://TOKEN@host).
    ...(withUser && withUser.password !== ""
      ? { user: decodeURIComponent(withUser.username), pass: decodeURIComponent(withUser.password) }
      : withUser
        ? { token: decodeURIComponent(withUser.username) }
        : {}),
    ...(parsed.some((u) => u.protocol === "tls:") ? { tls: {} } : {}),
  };
}

export async function connectNatsBroker(o: NatsBrokerOptions): Promise<PushBroker> {
  const log = o.log ?? noLog;
  const url = redactedServers(o.url);
  const subjects = subjectsOf(o.prefix ?? "tradepost");
  const wait = o.reconnectWaitMs ?? 500;
  const intervalMs = o.presenceIntervalMs ?? 5_000;
  const book = new PresenceBook(o.presenceTtlMs ?? 3 * intervalMs);
  const node = crypto.randomUUID();
  let nc: NatsConnection;
  try {
    nc = await connect({
      ...natsServersOf(o.url),
      name: o.name ?? `tradepost-upstream-${node}`,
      noEcho: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: wait,
      reconnectJitter: Math.ceil(wait / 2),
      pingInterval: PING_INTERVAL_MS,
      maxPingOut: MAX_PINGS_OUT,
      timeout: CONNECT_TIMEOUT_MS,
    });
  } catch (err) {
    throw new Error(`cannot connect to NATS at ${url}: ${(err as Error).message}`, {
      cause: err,
    });
  }

  let sink: PushSink | null = null;
  let connected = true;
  let closed = false;
  let seq = 0;
  let announceTimer: NodeJS.Timeout | null = null;
  let resyncTimer: NodeJS.Timeout | null = null;
  const tickListeners = new Set<(changed: Quote[]) => void>();

  /** Sends unless the connection is down (then the message is dropped: see the file's comment). */
  function send(subject: string, payload: unknown): void {
    if (!connected || closed) return;
    try {
      nc.publish(subject, JSON.stringify(payload));
    } catch (err) {
      log.warn({ err, subject }, "NATS publish failed");
    }
  }

  function announce(): void {
    if (announceTimer) clearTimeout(announceTimer);
    announceTimer = null;
    if (!sink) return;
    for (const p of presenceParts(node, ++seq, sink.localUsers())) send(subjects.presence, p);
  }

  function announceSoon(): void {
    if (announceTimer || closed) return;
    announceTimer = setTimeout(announce, o.presenceDebounceMs ?? 50);
    announceTimer.unref();
  }

  function resyncSoon(): void {
    if (resyncTimer || closed) return;
    resyncTimer = setTimeout(() => {
      resyncTimer = null;
      try {
        sink?.resync();
      } catch (err) {
        log.warn({ err }, "push resync failed");
      }
    }, o.resyncDelayMs ?? 200);
    resyncTimer.unref();
  }

  function hello(resync: boolean): void {
    send(subjects.hello, { node, resync });
    announce();
  }

  /** Runs a subscription's handler on each message; a malformed one is logged and skipped. */
  function on(subject: string, handle: (m: Msg) => void): void {
    nc.subscribe(subject, {
      callback: (err, m) => {
        if (err) return log.warn({ err, subject }, "NATS subscription error");
        try {
          handle(m);
        } catch (e) {
          log.warn({ err: e, subject: m.subject }, "NATS message skipped");
        }
      },
    });
  }

  const tokens = (m: Msg) => m.subject.split(".");
  const depth = subjects.tick.split(".").length - 1; // tokens in the prefix
  on(subjects.allPushes, (m) => {
    const topic = topicOfToken(tokens(m)[depth + 1]);
    if (topic !== null) sink?.deliver(topic, m.json());
  });
  on(subjects.allUserPushes, (m) => {
    const t = tokens(m);
    const userId = Number(t[depth + 1]);
    const topic = topicOfToken(t[depth + 2]);
    if (Number.isSafeInteger(userId) && topic !== null)
      sink?.deliverToUser(userId, topic, m.json());
  });
  on(subjects.tick, (m) => {
    const changed = m.json<Quote[]>();
    for (const l of tickListeners) {
      try {
        l(changed);
      } catch (err) {
        log.warn({ err }, "tick listener failed");
      }
    }
  });
  on(subjects.revoke, (m) => {
    const { hash } = m.json<{ hash: unknown }>();
    if (typeof hash === "string") sink?.dropTokenHash(hash);
  });
  on(subjects.presence, (m) => {
    const p = m.json<unknown>();
    if (isPresence(p)) book.apply(p, Date.now());
  });
  on(subjects.hello, (m) => {
    const h = m.json<{ node: string; resync?: boolean }>();
    if (h.node === node) return;
    announceSoon();
    if (h.resync) resyncSoon();
  });

  // Connection state: drop while down; after a reconnection, hello with resync.
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect") {
        connected = false;
        log.warn({ server: s.server }, "NATS disconnected; pushes to other nodes are dropped");
      } else if (s.type === "reconnect") {
        connected = true;
        log.info({ server: s.server }, "NATS reconnected");
        hello(true);
        resyncSoon();
      } else if (s.type === "close") connected = false;
    }
  })();

  const periodic = setInterval(announce, intervalMs);
  periodic.unref();
  await nc.flush(); // the subscriptions are registered before anyone publishes
  log.info({ url }, "NATS connected");

  return {
    kind: "nats",
    attach(s) {
      if (sink) throw new Error("push broker already attached to a hub");
      sink = s;
      hello(false);
    },
    publish(topic, data) {
      sink?.deliver(topic, data);
      send(subjects.push(topic), data);
    },
    publishToUser(userId, topic, data) {
      sink?.deliverToUser(userId, topic, data);
      if (Number.isSafeInteger(userId) && userId >= 0) send(subjects.userPush(userId, topic), data);
    },
    dropTokenHash(hash) {
      sink?.dropTokenHash(hash);
      send(subjects.revoke, { hash });
    },
    publishTick(changed) {
      if (changed.length > 0) send(subjects.tick, changed);
    },
    onTick(listener) {
      tickListeners.add(listener);
      return () => tickListeners.delete(listener);
    },
    localUsersChanged: announceSoon,
    remoteUsers: (topic) => book.users(topic, Date.now()),
    status: () => ({ kind: "nats", connected: connected && !closed, url }),
    async close() {
      if (closed) return;
      send(subjects.presence, { node, bye: true });
      closed = true;
      clearInterval(periodic);
      if (announceTimer) clearTimeout(announceTimer);
      if (resyncTimer) clearTimeout(resyncTimer);
      tickListeners.clear();
      // Drain sends what is written; a connection that is down (or stops answering) is closed.
      const drained = connected ? nc.drain().catch(() => undefined) : Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        drained,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS))),
      ]);
      clearTimeout(timer);
      if (!nc.isClosed()) await nc.close().catch(() => undefined);
    },
  };
}
