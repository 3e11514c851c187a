/**
 * The live bridge: one per web process (architecture.md, "Live data").
 *
 * - Several upstream nodes (UPSTREAM_URL a list): each upstream websocket below is one connection
 *   to one node at a time; when it drops, it reconnects to the next node in turn, subscribes its
 *   topics again and the snapshots the upstream answers refresh every stream (SocketTargets).
 * - One upstream websocket for the public topics (DAY_MARKET, KLINE.{code}); a topic is subscribed
 *   upstream only while some browser stream (or a recent poll) wants it, reference-counted.
 * - One upstream websocket per signed-in user with an open stream that wants a private topic
 *   (FOREX_TRADE, FOREX_CLOSED), logged in with the token from that user's session; private events
 *   reach only that user's streams. Closed when the user's last stream goes.
 * - The latest value of each topic is kept (DAY_MARKET merged per instrument, KLINE per period), so
 *   a new stream starts with a snapshot and /live.json can answer at once.
 * - Changes are conflated and flushed by ONE process-wide timer at most every `flushMs`: each topic's
 *   change is serialised and encoded once per flush and the same bytes go to every stream of it.
 *   DAY_MARKET and KLINE changes carry only the fields that differ from the previous flush; a new
 *   stream's snapshot is the state as of the previous flush, so the next change applies to it
 *   exactly (one flush old at most, the change following within `flushMs`).
 * - A comment heartbeat goes to every stream every `heartbeatMs`.
 * - A private channel is keyed by the user the upstream confirms for the token (never by what a
 *   cookie says), and every token behind a private stream is confirmed again every `revalidateMs`:
 *   the streams of a token the upstream refuses (signed out, password reset, expired) end.
 */
import { env, upstreamPool } from "~/utils/env.server";
import { TOPIC } from "@contract/constants";
import { TopicState, isPrivateTopic, topicKind } from "./topics";
import { SocketTargets, UpstreamSocket } from "./upstream-socket.server";
import { confirmToken } from "~/upstream/account.server";

/** Where a stream's bytes go (the route wraps a ReadableStream controller). */
interface LiveSink {
  /** Returns false when the sink cannot take more (the stream is then ended). */
  write(chunk: Uint8Array): boolean | void;
  end(): void;
}

export interface LiveUser {
  id: number;
  token: string;
}

interface BridgeOptions {
  /** ws://host:port/v1/ws of the upstream, or of each upstream node (taken in turn). */
  wsUrl: string | readonly string[];
  flushMs?: number;
  heartbeatMs?: number;
  /** How long a topic stays subscribed upstream after its last stream went (avoids churn on reload). */
  lingerMs?: number;
  /** How long a /live.json poll keeps its topics subscribed. */
  pollLeaseMs?: number;
  pingMs?: number;
  maxUnanswered?: number;
  connectTimeoutMs?: number;
  /**
   * Asks the upstream whom a token belongs to: the user's id, "revoked" when the upstream refuses
   * it, "unknown" when the upstream cannot be asked. Without it tokens are not revalidated.
   */
  confirm?: (token: string) => Promise<ConfirmedToken>;
  /** How often each token behind an open private stream is confirmed again. */
  revalidateMs?: number;
  log?: (msg: string, detail?: Record<string, unknown>) => void;
  /** Check every frame against the contract (CHECK_ANSWERS): a drifting one is logged and dropped. */
  checkFrames?: boolean;
}

type ConfirmedToken = { id: number } | "revoked" | "unknown";

interface StreamHandle {
  /** Topics this stream receives (private ones are dropped without a user). */
  topics: string[];
  close(): void;
}

interface BridgeStats {
  streams: number;
  topics: number;
  /** Open upstream websockets: 1 public (once used) + one per user channel. */
  upstreamSockets: number;
  userChannels: number;
  flushes: number;
  /** Time spent in the last flushes (serialise + write to every stream), ms. */
  flushMsAvg: number;
  flushMsMax: number;
}

interface LiveStream {
  sink: LiveSink;
  entries: Entry[];
  /** The token and confirmed user of a stream with private topics (else null). */
  token: string | null;
  userId: number | null;
  closed: boolean;
  close(): void;
}

const enc = new TextEncoder();
const HEARTBEAT = enc.encode(": hb\n\n");

function sseBytes(event: string, data: unknown): Uint8Array {
  return Buffer.from(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** Flushes that may go out back to back after a quiet moment (token bucket capacity). */
const FLUSH_BURST = 2;

/** Recently closed position ids are kept this long for pollers (who have no stream). */
const CLOSED_RECENT_MS = 60_000;

class Entry {
  /** The latest value (for /live.json and the instrument codes). */
  readonly state: TopicState;
  /** What arrived since the last flush. */
  readonly pending: TopicState;
  /**
   * Itemised topics: the value as of the last flush, which every stream has (snapshots are made from
   * it) and which each flush's field changes are computed against.
   */
  readonly sent: TopicState | null;
  readonly streams = new Set<LiveStream>();
  /** Streams that joined before any data and still need the full snapshot. */
  readonly awaiting = new Set<LiveStream>();
  leased = false;
  leaseTimer: NodeJS.Timeout | null = null;
  lingerTimer: NodeJS.Timeout | null = null;
  snapshotCache: Uint8Array | null = null;
  waiters: (() => void)[] = [];
  /** FOREX_CLOSED only: [id, at] of recent closures, for /live.json. */
  recentClosed: [unknown, number][] = [];

  constructor(
    readonly topic: string,
    readonly channel: Channel,
  ) {
    this.state = new TopicState(topic);
    this.pending = new TopicState(topic);
    this.sent = this.state.itemised ? new TopicState(topic) : null;
  }

  get isClosedKind(): boolean {
    return this.state.kind === "closed";
  }

  snapshotBytes(): Uint8Array | null {
    const from = this.sent ?? this.state;
    if (this.isClosedKind || !from.hasData) return null;
    if (!this.snapshotCache) this.snapshotCache = sseBytes(this.topic, from.get());
    return this.snapshotCache;
  }

  inUse(): boolean {
    return this.streams.size > 0 || this.leased;
  }
}

class Channel {
  readonly entries = new Map<string, Entry>();
  socket: UpstreamSocket | null = null;
  /** user channels: tokens of the streams using it, with counts */
  readonly tokens = new Map<string, number>();

  constructor(
    readonly key: string,
    readonly userId: number | null,
  ) {}
}

export class LiveBridge {
  private readonly o: Required<Omit<BridgeOptions, "log" | "confirm">> &
    Pick<BridgeOptions, "log" | "confirm">;
  private readonly publicChannel: Channel;
  private readonly targets: SocketTargets;
  private readonly users = new Map<number, Channel>();
  private readonly streams = new Set<LiveStream>();
  private readonly dirty = new Set<Entry>();
  private readonly badTokens = new Set<string>();
  /** Instrument codes seen in DAY_MARKET (kept after unsubscribing; used to validate KLINE topics). */
  private readonly codes = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushImmediate: NodeJS.Immediate | null = null;
  private lastFlush = 0;
  private flushTokens: number = FLUSH_BURST;
  private flushTokensAt = 0;
  private flushes = 0;
  private flushTotalMs = 0;
  private flushMaxMs = 0;
  private heartbeat: NodeJS.Timeout;
  private revalidateTimer: NodeJS.Timeout | null = null;
  private revalidating = false;
  private closed = false;

  constructor(opts: BridgeOptions) {
    this.o = {
      flushMs: 250,
      heartbeatMs: 15_000,
      lingerMs: 5_000,
      pollLeaseMs: 30_000,
      pingMs: 5_000,
      maxUnanswered: 3,
      connectTimeoutMs: 5_000,
      revalidateMs: 60_000,
      checkFrames: false,
      ...(Object.fromEntries(
        Object.entries(opts).filter(([, v]) => v !== undefined),
      ) as BridgeOptions),
    };
    this.targets = new SocketTargets(typeof opts.wsUrl === "string" ? [opts.wsUrl] : opts.wsUrl);
    this.publicChannel = new Channel("public", null);
    this.heartbeat = setInterval(() => {
      for (const s of this.streams) this.write(s, HEARTBEAT);
    }, this.o.heartbeatMs);
    this.heartbeat.unref();
    if (this.o.confirm) {
      this.revalidateTimer = setInterval(() => void this.revalidate(), this.o.revalidateMs);
      this.revalidateTimer.unref();
    }
  }

  /**
   * The user the upstream confirms for `token` (null when it refuses the token, which is then not
   * used for any channel), or "unknown" when the upstream cannot be asked.
   */
  async confirmUser(token: string): Promise<LiveUser | null | "unknown"> {
    if (!this.o.confirm) throw new Error("the bridge was made without a confirm function");
    if (!token || this.badTokens.has(token)) return null;
    const r = await this.o.confirm(token);
    if (r === "unknown") return "unknown";
    if (r === "revoked") {
      this.revoke(token);
      return null;
    }
    return { id: r.id, token };
  }

  /**
   * Confirms again every token behind an open private stream; ends the streams of each token the
   * upstream refuses or now gives another user. One pass at a time; an unreachable upstream ends
   * nothing (its return is handled by the sockets' reconnects).
   */
  async revalidate(): Promise<void> {
    if (!this.o.confirm || this.revalidating || this.closed) return;
    this.revalidating = true;
    try {
      const owners = new Map<string, number>();
      for (const s of this.streams) if (s.token && s.userId !== null) owners.set(s.token, s.userId);
      for (const [token, userId] of owners) {
        if (this.closed) return;
        const r = await this.o.confirm(token);
        if (r === "unknown") continue;
        if (r === "revoked" || r.id !== userId) {
          this.o.log?.("live token no longer valid; its streams end", {
            reason: r === "revoked" ? "revoked" : "other user",
          });
          this.revoke(token);
        }
      }
    } finally {
      this.revalidating = false;
    }
  }

  /** Ends every stream that came with `token` and never uses it again. */
  private revoke(token: string): void {
    this.badTokens.add(token);
    if (this.badTokens.size > 10_000)
      this.badTokens.delete(this.badTokens.values().next().value as string);
    for (const s of [...this.streams]) {
      if (s.token !== token) continue;
      this.closeStream(s);
      try {
        s.sink.end();
      } catch {
        /* ended */
      }
    }
  }

  // ---------------------------------------------------------------- browser streams

  /**
   * Opens a browser stream on `topics` (already validated). Private topics need `user`; without it
   * they are dropped. Writes a `ready` event, then each topic's snapshot as soon as it exists, then
   * conflated changes.
   */
  openStream(topics: string[], user: LiveUser | null, sink: LiveSink): StreamHandle {
    const accepted = topics.filter(
      (t) => topicKind(t) !== null && (!isPrivateTopic(t) || this.userAllowed(user)),
    );
    const s: LiveStream = {
      sink,
      entries: [],
      token: null,
      userId: null,
      closed: false,
      close: () => this.closeStream(s),
    };
    if (this.closed) {
      sink.end();
      s.closed = true;
      return { topics: [], close: () => {} };
    }
    this.streams.add(s);
    this.write(s, sseBytes("ready", { topics: accepted }));
    if (s.closed) return { topics: [], close: () => {} };
    const priv = accepted.filter(isPrivateTopic);
    if (priv.length && user) {
      s.token = user.token;
      s.userId = user.id;
      const ch = this.userChannel(user);
      ch.tokens.set(user.token, (ch.tokens.get(user.token) ?? 0) + 1);
    }
    for (const t of accepted) {
      const entry = this.acquire(
        t,
        isPrivateTopic(t) ? this.userChannel(user!) : this.publicChannel,
      );
      entry.streams.add(s);
      s.entries.push(entry);
      const snap = entry.snapshotBytes();
      if (snap) this.write(s, snap);
      else if (!entry.isClosedKind) entry.awaiting.add(s);
      if (s.closed) break;
    }
    return { topics: accepted, close: s.close };
  }

  /**
   * The latest value of each topic for /live.json. Subscribes what is not yet subscribed (kept for
   * `pollLeaseMs` after the last poll) and waits up to `waitMs` for first data.
   */
  async snapshot(
    topics: string[],
    user: LiveUser | null,
    waitMs = 3000,
    leaseMs = this.o.pollLeaseMs,
  ): Promise<Record<string, unknown>> {
    const accepted = topics.filter(
      (t) => topicKind(t) !== null && (!isPrivateTopic(t) || this.userAllowed(user)),
    );
    const entries: Entry[] = [];
    const shortLeased: Entry[] = [];
    for (const t of accepted) {
      const ch = isPrivateTopic(t) ? this.userChannel(user!) : this.publicChannel;
      if (isPrivateTopic(t)) {
        // A poller's token can serve as the channel's login token while it polls.
        if (!ch.tokens.has(user!.token)) ch.tokens.set(user!.token, 0);
      }
      const e = this.acquire(t, ch);
      entries.push(e);
      // A poll keeps its topics for leaseMs (refreshed by each poll); leaseMs 0 only while waiting.
      if (leaseMs <= 0 && e.leased) continue;
      e.leased = true;
      if (e.leaseTimer) clearTimeout(e.leaseTimer);
      e.leaseTimer = setTimeout(
        () => {
          e.leaseTimer = null;
          e.leased = false;
          this.release(e);
        },
        leaseMs > 0 ? leaseMs : waitMs + 1000,
      );
      e.leaseTimer.unref();
      if (leaseMs <= 0) shortLeased.push(e);
    }
    const missing = entries.filter((e) => !e.isClosedKind && !e.state.hasData);
    if (missing.length && waitMs > 0) {
      await Promise.race([
        Promise.all(missing.map((e) => new Promise<void>((r) => e.waiters.push(r)))),
        new Promise((r) => setTimeout(r, waitMs).unref()),
      ]);
    }
    if (leaseMs <= 0) {
      for (const e of shortLeased) {
        if (e.leaseTimer) clearTimeout(e.leaseTimer);
        e.leaseTimer = null;
        e.leased = false;
        this.release(e);
      }
    }
    const out: Record<string, unknown> = {};
    const now = Date.now();
    for (const e of entries) {
      if (e.isClosedKind) {
        e.recentClosed = e.recentClosed.filter(([, at]) => now - at < CLOSED_RECENT_MS);
        out[e.topic] = { ids: e.recentClosed.map(([id]) => id) };
      } else out[e.topic] = e.state.get() ?? null;
    }
    return out;
  }

  /**
   * True when `code` is a known instrument, false when not; null when the instrument list could not
   * be learned (upstream unreachable). Learns it from DAY_MARKET once, then keeps it up to date.
   */
  async knownCode(code: string): Promise<boolean | null> {
    if (this.codes.size === 0) await this.snapshot([TOPIC.DAY_MARKET], null, 2000, 0);
    if (this.codes.size === 0) return null;
    return this.codes.has(code);
  }

  stats(): BridgeStats {
    let sockets = this.publicChannel.socket ? 1 : 0;
    let topics = this.publicChannel.entries.size;
    for (const ch of this.users.values()) {
      if (ch.socket) sockets++;
      topics += ch.entries.size;
    }
    const avg = this.flushes ? this.flushTotalMs / this.flushes : 0;
    const out = {
      streams: this.streams.size,
      topics,
      upstreamSockets: sockets,
      userChannels: this.users.size,
      flushes: this.flushes,
      flushMsAvg: Math.round(avg * 100) / 100,
      flushMsMax: Math.round(this.flushMaxMs * 100) / 100,
    };
    return out;
  }

  /** Topics currently wanted upstream on the public socket (for tests and diagnostics). */
  publicTopics(): string[] {
    return this.publicChannel.socket?.wanted() ?? [];
  }

  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    if (this.revalidateTimer) clearInterval(this.revalidateTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.flushImmediate) clearImmediate(this.flushImmediate);
    for (const s of [...this.streams]) {
      this.closeStream(s);
      try {
        s.sink.end();
      } catch {
        /* already ended */
      }
    }
    for (const ch of [this.publicChannel, ...this.users.values()]) {
      for (const e of ch.entries.values()) {
        if (e.leaseTimer) clearTimeout(e.leaseTimer);
        if (e.lingerTimer) clearTimeout(e.lingerTimer);
        for (const w of e.waiters) w();
      }
      ch.entries.clear();
      ch.socket?.close();
      ch.socket = null;
    }
    this.users.clear();
  }

  // ---------------------------------------------------------------- internals

  private userAllowed(user: LiveUser | null): user is LiveUser {
    return !!user && !!user.token && !this.badTokens.has(user.token);
  }

  private userChannel(user: LiveUser): Channel {
    let ch = this.users.get(user.id);
    if (!ch) {
      ch = new Channel(`user:${user.id}`, user.id);
      this.users.set(user.id, ch);
    }
    return ch;
  }

  private acquire(topic: string, ch: Channel): Entry {
    let e = ch.entries.get(topic);
    if (!e) {
      e = new Entry(topic, ch);
      ch.entries.set(topic, e);
      this.socketFor(ch).add([topic]);
    }
    if (e.lingerTimer) {
      clearTimeout(e.lingerTimer);
      e.lingerTimer = null;
    }
    return e;
  }

  private socketFor(ch: Channel): UpstreamSocket {
    if (ch.socket) return ch.socket;
    const token = ch.userId === null ? null : ([...ch.tokens.keys()][0] ?? null);
    const sock = new UpstreamSocket({
      url: this.targets,
      token,
      pingMs: this.o.pingMs,
      maxUnanswered: this.o.maxUnanswered,
      connectTimeoutMs: this.o.connectTimeoutMs,
      onPush: (topic, data) => this.onPush(ch, topic, data),
      onDrift: this.o.checkFrames
        ? (err) =>
            this.o.log?.("upstream frame drifts from the contract", {
              endpoint: err.endpoint,
              field: err.field,
              detail: err.detail,
            })
        : undefined,
      onLoginFailed: (code) => this.onLoginFailed(ch, sock, code),
      onEvent: (ev, detail) => {
        if (ev !== "open")
          this.o.log?.(`live upstream ${ev}`, {
            channel: ch.userId === null ? "public" : "user",
            detail,
          });
      },
    });
    ch.socket = sock;
    return sock;
  }

  private onLoginFailed(ch: Channel, sock: UpstreamSocket, code: number): void {
    if (ch.socket !== sock) return;
    const bad = sock.token;
    this.o.log?.("live upstream login refused", { code });
    ch.socket = null;
    if (bad) {
      this.badTokens.add(bad);
      if (this.badTokens.size > 10_000)
        this.badTokens.delete(this.badTokens.values().next().value as string);
      ch.tokens.delete(bad);
      // Streams that came with the refused token end; their browser reconnects without private data.
      const victims = new Set<LiveStream>();
      for (const e of ch.entries.values())
        for (const s of e.streams) if (s.token === bad) victims.add(s);
      for (const s of victims) {
        this.closeStream(s);
        try {
          s.sink.end();
        } catch {
          /* ended */
        }
      }
    }
    if (ch.entries.size === 0) {
      if (ch.userId !== null) this.users.delete(ch.userId);
      return;
    }
    // Other sessions of the same user still want it: log in with one of their tokens.
    const wanted = [...ch.entries.keys()];
    if (ch.tokens.size > 0) this.socketFor(ch).add(wanted);
  }

  private onPush(ch: Channel, topic: string, data: unknown): void {
    const e = ch.entries.get(topic);
    if (!e) return;
    if (e.isClosedKind) {
      if (!e.pending.apply(data)) return;
      const now = Date.now();
      for (const id of (data as { ids: unknown[] }).ids) e.recentClosed.push([id, now]);
      if (e.recentClosed.length > 500) e.recentClosed.splice(0, e.recentClosed.length - 500);
    } else {
      if (!e.state.apply(data)) return;
      e.pending.apply(data);
      if (e.state.kind === "market") {
        for (const q of data as { Code?: unknown }[])
          if (q && typeof q.Code === "string") this.codes.add(q.Code);
      }
      if (!e.sent) e.snapshotCache = null;
      if (e.waiters.length) {
        const w = e.waiters;
        e.waiters = [];
        for (const f of w) f();
      }
    }
    this.dirty.add(e);
    this.scheduleFlush();
  }

  /**
   * Flush rate limit: a token bucket refilled at one flush per `flushMs` holding at most 2, with at
   * least flushMs/4 between flushes. A change after a quiet moment goes out at once (after the
   * current I/O turn, so the pushes of one upstream tick share a flush); a stream of changes is
   * flushed about 1000/flushMs times a second. Unlike a fixed "flushMs since the last flush" rule,
   * one late flush does not delay every later one (no phase lock with the upstream's tick).
   */
  private refill(now: number): void {
    this.flushTokens = Math.min(
      FLUSH_BURST,
      this.flushTokens + (now - this.flushTokensAt) / this.o.flushMs,
    );
    this.flushTokensAt = now;
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.flushImmediate || this.closed) return;
    const now = Date.now();
    this.refill(now);
    const gap = this.o.flushMs / 4 - (now - this.lastFlush);
    const wait = Math.max(gap, (1 - this.flushTokens) * this.o.flushMs);
    if (wait <= 0) {
      this.flushImmediate = setImmediate(() => {
        this.flushImmediate = null;
        this.flush();
      });
    } else {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        this.flush();
      }, Math.ceil(wait));
    }
  }

  /** Resets the flush timing figures (benchmarks measure a window). */
  resetFlushStats(): void {
    this.flushes = 0;
    this.flushTotalMs = 0;
    this.flushMaxMs = 0;
  }

  private flush(): void {
    const t0 = performance.now();
    try {
      this.flushNow();
    } finally {
      const ms = performance.now() - t0;
      this.flushTotalMs += ms;
      if (ms > this.flushMaxMs) this.flushMaxMs = ms;
    }
  }

  private flushNow(): void {
    const now = Date.now();
    this.refill(now);
    this.flushTokens = Math.max(0, this.flushTokens - 1);
    this.lastFlush = now;
    this.flushes++;
    const dirty = [...this.dirty];
    this.dirty.clear();
    for (const e of dirty) {
      let delta: Uint8Array | null = null;
      if (e.pending.hasData) {
        const pending = e.pending.get();
        if (e.sent) {
          const changes = e.sent.changes(pending as unknown[]);
          e.sent.apply(pending);
          e.snapshotCache = null;
          if (changes.length) delta = sseBytes(e.topic, changes);
        } else delta = sseBytes(e.topic, pending);
        e.pending.clear();
      }
      const snap = e.awaiting.size ? e.snapshotBytes() : null;
      for (const s of e.streams) {
        if (snap && e.awaiting.has(s)) {
          e.awaiting.delete(s);
          this.write(s, snap);
        } else if (delta) this.write(s, delta);
      }
    }
  }

  private write(s: LiveStream, chunk: Uint8Array): void {
    if (s.closed) return;
    let ok: boolean | void;
    try {
      ok = s.sink.write(chunk);
    } catch {
      ok = false;
    }
    if (ok === false) {
      this.closeStream(s);
      try {
        s.sink.end();
      } catch {
        /* ended */
      }
    }
  }

  private closeStream(s: LiveStream): void {
    if (s.closed) return;
    s.closed = true;
    this.streams.delete(s);
    const userCh = s.entries.find((e) => e.channel.userId !== null)?.channel;
    for (const e of s.entries) {
      e.streams.delete(s);
      e.awaiting.delete(s);
      this.release(e);
    }
    if (userCh && s.token) {
      const n = (userCh.tokens.get(s.token) ?? 1) - 1;
      if (n <= 0) userCh.tokens.delete(s.token);
      else userCh.tokens.set(s.token, n);
      // The socket's token left (e.g. that session logged out) while another session of the same
      // user still streams: log in again with a token still in use.
      if (
        n <= 0 &&
        userCh.socket &&
        userCh.socket.token === s.token &&
        userCh.tokens.size > 0 &&
        userCh.entries.size > 0
      ) {
        const wanted = userCh.socket.wanted();
        userCh.socket.close();
        userCh.socket = null;
        this.socketFor(userCh).add(wanted);
      }
    }
    s.entries = [];
  }

  /** Unsubscribes a topic no stream or poll wants any more (after `lingerMs`). */
  private release(e: Entry): void {
    if (e.inUse() || e.lingerTimer || this.closed) return;
    const drop = () => {
      e.lingerTimer = null;
      if (e.inUse()) return;
      const ch = e.channel;
      if (ch.entries.get(e.topic) !== e) return;
      ch.entries.delete(e.topic);
      this.dirty.delete(e);
      for (const w of e.waiters) w();
      e.waiters = [];
      ch.socket?.remove([e.topic]);
      if (ch.userId !== null && ch.entries.size === 0) {
        ch.socket?.close();
        ch.socket = null;
        this.users.delete(ch.userId);
      }
    };
    if (this.o.lingerMs <= 0) drop();
    else {
      e.lingerTimer = setTimeout(drop, this.o.lingerMs);
      e.lingerTimer.unref();
    }
  }
}

/** ws://host:port/v1/ws from an http(s) upstream base URL. */
export function wsUrlOf(httpUrl: string): string {
  const u = new URL(httpUrl);
  u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
  u.pathname = u.pathname.replace(/\/+$/, "") + "/v1/ws";
  u.search = "";
  u.hash = "";
  return u.toString();
}

const GLOBAL_KEY = "__tradepostLiveBridge";

/**
 * The process's bridge, made on first use from UPSTREAM_URL (survives dev rebuilds): every node's
 * websocket URL, starting with the node HTTP calls go to now.
 */
export function getBridge(): LiveBridge {
  const g = globalThis as unknown as Record<string, LiveBridge | undefined>;
  let b = g[GLOBAL_KEY];
  if (!b) {
    const pool = upstreamPool();
    const first = pool.urls.indexOf(pool.url);
    const inTurn = [...pool.urls.slice(first), ...pool.urls.slice(0, first)];
    b = new LiveBridge({
      wsUrl: inTurn.map(wsUrlOf),
      flushMs: env().liveFlushMs ?? undefined,
      confirm: confirmToken,
      revalidateMs: env().liveRevalidateMs,
      checkFrames: env().checkAnswers,
      log: (msg, detail) => console.warn(JSON.stringify({ svc: "web", msg, ...detail })),
    });
    g[GLOBAL_KEY] = b;
  }
  return b;
}

/** Makes `b` the process's bridge (test and benchmark harnesses that need other timings). */
export function installBridge(b: LiveBridge): void {
  (globalThis as unknown as Record<string, LiveBridge | undefined>)[GLOBAL_KEY] = b;
}
