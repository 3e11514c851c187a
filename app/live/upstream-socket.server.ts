/**
 * One websocket client of the upstream's /v1/ws (protocol in upstream/API.md, "Websocket"), kept
 * alive by the bridge: optional login with a token, the wanted topic set (re-subscribed after every
 * reconnect, the upstream answering each subscription with a snapshot), a ping every `pingMs`
 * (reconnect after `maxUnanswered` unanswered pings), a connection time-out and exponential
 * back-off with jitter between attempts.
 *
 * Several upstream nodes (SocketTargets): the socket holds exactly one connection at a time, to one
 * node; when it drops (or cannot open), the next attempt goes to the next URL in turn. The back-off
 * grows once per round of the list, so the other nodes are tried at once and a whole list that is
 * away is retried no faster than one node alone would be.
 */
import { AnswerDriftError, checkFrame } from "@contract/check";
import WebSocket from "ws";
import { WS_CONNECT_TIMEOUT_MS, WS_HEARTBEAT_MS, WS_MISSED_PINGS } from "@contract/constants";

/**
 * The websocket URLs of the upstream nodes, in turn, shared by the sockets of one bridge: a new
 * socket starts at the URL that last accepted a connection.
 */
export class SocketTargets {
  private last = 0;

  constructor(readonly urls: readonly string[]) {
    if (urls.length === 0) throw new Error("a socket needs at least one upstream URL");
  }

  /** Index of the URL that last accepted a connection (the first at the start). */
  get preferred(): number {
    return this.last;
  }

  opened(i: number): void {
    this.last = i;
  }
}

interface UpstreamSocketOptions {
  /** ws://host:port/v1/ws, or the upstream nodes' URLs taken in turn. */
  url: string | SocketTargets;
  /** When set, the socket logs in with it before subscribing (private topics need it). */
  token?: string | null;
  pingMs?: number;
  maxUnanswered?: number;
  connectTimeoutMs?: number;
  /** First back-off delay; doubles per failed attempt up to maxBackoffMs. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  onPush(topic: string, data: unknown): void;
  /**
   * The upstream refused the token (code 999 or another failure), or revoked it while logged in.
   * The socket stops for good.
   */
  onLoginFailed?(code: number, msg: string): void;
  /** Called each time the socket is open (and logged in when it has a token). */
  onReady?(): void;
  /** Diagnostics only. */
  onEvent?(event: "open" | "close" | "timeout" | "heartbeat_lost", detail?: string): void;
  /**
   * Given, every frame is checked against contract/ws.ts (tolerantly: fields the contract does not
   * know are read past) and one that drifts is dropped and reported here instead of reaching a page.
   */
  onDrift?(err: AnswerDriftError): void;
}

const SUB_CHUNK = 64;

export class UpstreamSocket {
  private ws: WebSocket | null = null;
  private readonly topics = new Set<string>();
  private ready = false;
  private stopped = false;
  private attempt = 0;
  private unanswered = 0;
  private pingTimer: NodeJS.Timeout | null = null;
  private connectTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly o: Required<
    Omit<UpstreamSocketOptions, "token" | "onLoginFailed" | "onReady" | "onEvent" | "onDrift">
  > &
    UpstreamSocketOptions;
  private readonly targets: SocketTargets;
  /** Index in `targets` of the URL of the current (or next) connection. */
  private at: number;
  /** Number of connections opened so far (1 + reconnects). */
  connects = 0;

  constructor(opts: UpstreamSocketOptions) {
    this.o = {
      pingMs: WS_HEARTBEAT_MS,
      maxUnanswered: WS_MISSED_PINGS,
      connectTimeoutMs: WS_CONNECT_TIMEOUT_MS,
      minBackoffMs: 250,
      maxBackoffMs: 10_000,
      ...opts,
    };
    this.targets = typeof opts.url === "string" ? new SocketTargets([opts.url]) : opts.url;
    this.at = this.targets.preferred;
    this.connect();
  }

  /** The URL of the current (or next) connection. */
  get url(): string {
    return this.targets.urls[this.at];
  }

  get isReady(): boolean {
    return this.ready;
  }

  get token(): string | null {
    return this.o.token ?? null;
  }

  /** Adds wanted topics; subscribes at once when connected. */
  add(topics: string[]): void {
    const fresh = topics.filter((t) => !this.topics.has(t));
    for (const t of fresh) this.topics.add(t);
    if (fresh.length && this.ready) this.send("subscribe", fresh);
  }

  /** Removes topics; unsubscribes at once when connected. */
  remove(topics: string[]): void {
    const gone = topics.filter((t) => this.topics.delete(t));
    if (gone.length && this.ready) this.send("unsubscribe", gone);
  }

  wanted(): string[] {
    return [...this.topics];
  }

  /** Stops for good: no reconnect. */
  close(): void {
    this.stopped = true;
    this.clearTimers();
    this.ready = false;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.removeAllListeners();
      ws.on("error", () => {});
      ws.terminate();
    }
  }

  private send(op: "subscribe" | "unsubscribe", topics: string[]): void {
    for (let i = 0; i < topics.length; i += SUB_CHUNK) {
      this.raw({ op, topics: topics.slice(i, i + SUB_CHUNK) });
    }
  }

  private raw(msg: unknown): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  private clearTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.connectTimer) clearTimeout(this.connectTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.pingTimer = this.connectTimer = this.retryTimer = null;
  }

  private connect(): void {
    if (this.stopped) return;
    this.connects++;
    const ws = new WebSocket(this.url, {
      handshakeTimeout: this.o.connectTimeoutMs,
      perMessageDeflate: false,
    });
    this.ws = ws;
    this.unanswered = 0;
    this.connectTimer = setTimeout(() => {
      this.o.onEvent?.("timeout");
      this.drop(ws);
    }, this.o.connectTimeoutMs);

    ws.on("open", () => {
      if (this.connectTimer) clearTimeout(this.connectTimer);
      this.connectTimer = null;
      this.attempt = 0;
      this.targets.opened(this.at);
      this.o.onEvent?.("open", this.url);
      this.pingTimer = setInterval(() => {
        if (this.unanswered >= this.o.maxUnanswered) {
          this.o.onEvent?.("heartbeat_lost");
          this.drop(ws);
          return;
        }
        this.unanswered++;
        this.raw({ op: "ping" });
      }, this.o.pingMs);
      if (this.o.token) this.raw({ op: "login", token: this.o.token });
      else this.becomeReady();
    });

    ws.on("message", (raw) => {
      let m: { op?: string; topic?: string; data?: unknown; code?: number; msg?: string };
      try {
        m = JSON.parse(raw.toString());
      } catch {
        return;
      }
      if (this.o.onDrift)
        try {
          checkFrame(m, { strict: false });
        } catch (err) {
          if (!(err instanceof AnswerDriftError)) throw err;
          this.o.onDrift(err);
          return;
        }
      switch (m.op) {
        case "push":
          if (typeof m.topic === "string") this.o.onPush(m.topic, m.data);
          return;
        case "pong":
          this.unanswered = 0;
          return;
        case "revoked":
          if (!this.o.token) return;
          this.close();
          this.o.onLoginFailed?.(typeof m.code === "number" ? m.code : 0, String(m.msg ?? ""));
          return;
        case "login":
          if (m.code === 1) this.becomeReady();
          else {
            const code = typeof m.code === "number" ? m.code : 0;
            this.close();
            this.o.onLoginFailed?.(code, String(m.msg ?? ""));
          }
          return;
        default:
          return;
      }
    });

    ws.on("close", () => this.drop(ws));
    ws.on("error", () => this.drop(ws));
  }

  private becomeReady(): void {
    this.ready = true;
    if (this.topics.size) this.send("subscribe", [...this.topics]);
    this.o.onReady?.();
  }

  /** Ends the current connection (if it is still the current one) and schedules a reconnect. */
  private drop(ws: WebSocket): void {
    if (ws !== this.ws) return;
    this.ws = null;
    this.ready = false;
    this.clearTimers();
    ws.removeAllListeners();
    ws.on("error", () => {});
    ws.terminate();
    this.o.onEvent?.("close", this.url);
    if (this.stopped) return;
    const n = this.targets.urls.length;
    this.at = (this.at + 1) % n;
    const rounds = Math.floor(this.attempt / n);
    const base = Math.min(this.o.maxBackoffMs, this.o.minBackoffMs * 2 ** rounds);
    this.attempt++;
    const delay = Math.round(base * (0.5 + Math.random() * 0.5));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }
}
