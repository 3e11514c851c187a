/**
 * The websocket hub of /v1/ws (protocol in upstream/API.md, "Websocket").
 *
 * Client -> server: {"op":"login","token"} {"op":"logout"} {"op":"subscribe","topics":[...]}
 *                   {"op":"unsubscribe","topics":[...]} {"op":"ping"}
 * Server -> client: {"op":"login"|"logout"|"subscribe"|"unsubscribe","code","msg"} {"op":"pong","ts"}
 *                   {"op":"push","topic","data"}
 *                   {"op":"revoked","code":999,"msg"} when the connection's token was revoked (its
 *                   private topics are dropped; the connection stays open for public topics)
 * Public topics: DAY_MARKET, KLINE.{code}. Private topics (need login): FOREX_TRADE, FOREX_CLOSED, COPY_TRADE.
 *
 * Pushes and revocations go through a push broker (broker.ts): in process it hands them straight
 * back to this hub's local delivery; with NATS it also carries them to every other node's hub,
 * and this hub delivers what the other nodes publish. Either way a push reaches each connection
 * subscribed to it once. `subscribedUsers` counts the connections of every node (this one's, and
 * those the other nodes announce).
 */
import type { IncomingMessage } from "node:http";
import type { Server } from "node:http";
import { WebSocketServer, WebSocket } from "ws";
import type { DB } from "../db.js";
import { tokenHash, userForToken } from "../http/auth.js";
import { sessionCacheOf } from "../session-cache.js";
import { normaliseLang, translate, type Lang } from "../i18n.js";
import { CODE_FAIL, CODE_OK, CODE_SESSION_INVALID } from "../http/envelope.js";
import {
  PRIVATE_TOPICS as PRIVATE_TOPIC_LIST,
  WS_IDLE_CLOSE_MS,
  isTopic,
} from "@contract/constants";
import { WS_PATH } from "@contract/ws";
import { checkFrame } from "@contract/check";
import { createLocalBroker, type PushBroker, type PushSink } from "./broker.js";

export const PRIVATE_TOPICS = new Set(PRIVATE_TOPIC_LIST);
/** A connection whose send buffer is above this skips conflatable pushes until it drains. */
const MAX_BUFFERED = 1 << 20;
/** A connection that sends nothing (not even ping) for this long is closed. */
const IDLE_MS = WS_IDLE_CLOSE_MS;

export interface Conn {
  ws: WebSocket;
  lang: Lang;
  userId: number | null;
  token: string | null;
  topics: Set<string>;
  lastSeen: number;
}

/** Whom a snapshot is for: a connection, or (on a resync) one user of any node. */
export type Subscriber = Pick<Conn, "userId" | "lang">;

export type SnapshotProvider = (topic: string, who: Subscriber) => unknown | undefined;

export interface Hub {
  /** Sends to every connection (of every node) subscribed to a public topic. */
  publish(topic: string, data: unknown): void;
  /** Sends a private topic to every connection (of every node) of one user that subscribed to it. */
  publishToUser(userId: number, topic: string, data: unknown): void;
  /**
   * Registers what a new subscriber of matching topics gets first; also what a resync republishes
   * (the provider of a public topic is then asked for `{ userId: null, lang: "en" }`).
   */
  onSubscribe(match: (topic: string) => boolean, provider: SnapshotProvider): void;
  /** Ids of users with a logged-in connection, on any node, subscribed to a private topic. */
  subscribedUsers(topic: string): number[];
  /** Logs out the connections of a token on every node, given by its hash (logout or revocation). */
  dropTokenHash(tokenHash: string): void;
  connectionCount(): number;
  /** Frames not sent because they drifted from the contract (only counted with `checkFrames`). */
  frameDrifts(): number;
  close(): Promise<void>;
}

/**
 * The hub of a server's /v1/ws. `broker` carries its pushes to the other nodes (default: none, the
 * in-process broker); the hub attaches itself to it, and the caller closes it after the hub.
 */
export interface HubOptions {
  /**
   * Check every frame against contract/ws.ts before it is sent (CHECK_ANSWERS): one that drifts is
   * not sent, is counted (frameDrifts) and reported to `onDrift`.
   */
  checkFrames?: boolean;
  onDrift?: (err: Error) => void;
}

export function createHub(
  server: Server,
  db: DB,
  broker: PushBroker = createLocalBroker(),
  o: HubOptions = {},
): Hub {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const conns = new Set<Conn>();
  const byTopic = new Map<string, Set<Conn>>();
  const providers: { match: (t: string) => boolean; provider: SnapshotProvider }[] = [];
  /** Topics this node has published (bounded by the topics that exist): what a resync redoes. */
  const publishedPublic = new Set<string>();
  const publishedPrivate = new Set<string>();

  server.on("upgrade", (req: IncomingMessage, socket, head) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== WS_PATH) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });

  let drifts = 0;
  /** True when `frame` may be sent: always without the check, else when it matches the contract. */
  function conforms(frame: unknown): boolean {
    if (!o.checkFrames) return true;
    try {
      checkFrame(frame);
      return true;
    } catch (err) {
      drifts++;
      o.onDrift?.(err as Error);
      return false;
    }
  }

  function send(conn: Conn, msg: unknown, conflatable = false): void {
    if (conn.ws.readyState !== WebSocket.OPEN) return;
    if (conflatable && conn.ws.bufferedAmount > MAX_BUFFERED) return;
    if (!conforms(msg)) return;
    conn.ws.send(JSON.stringify(msg));
  }

  /** Each matching provider's snapshot of a topic for a subscriber (none answers undefined). */
  function snapshots(topic: string, who: Subscriber): unknown[] {
    const out: unknown[] = [];
    for (const p of providers) {
      if (!p.match(topic)) continue;
      const data = p.provider(topic, who);
      if (data !== undefined) out.push(data);
    }
    return out;
  }

  /** snapshots, or none when a provider fails (a resync must reach the other topics and users). */
  function snapshotsOrNone(topic: string, who: Subscriber): unknown[] {
    try {
      return snapshots(topic, who);
    } catch {
      return [];
    }
  }

  function sub(conn: Conn, topic: string): void {
    conn.topics.add(topic);
    let set = byTopic.get(topic);
    if (!set) byTopic.set(topic, (set = new Set()));
    set.add(conn);
    if (PRIVATE_TOPICS.has(topic)) broker.localUsersChanged();
    for (const data of snapshots(topic, conn)) send(conn, { op: "push", topic, data });
  }

  function unsub(conn: Conn, topic: string): void {
    conn.topics.delete(topic);
    const set = byTopic.get(topic);
    if (set) {
      set.delete(conn);
      if (set.size === 0) byTopic.delete(topic);
    }
    if (PRIVATE_TOPICS.has(topic)) broker.localUsersChanged();
  }

  /** This node's users subscribed to a private topic. */
  function localUsers(topic: string): number[] {
    const ids = new Set<number>();
    for (const c of byTopic.get(topic) ?? []) if (c.userId !== null) ids.add(c.userId);
    return [...ids];
  }

  /** Where the broker delivers, this node's publishes and the other nodes' alike. */
  const sink: PushSink = {
    deliver(topic, data) {
      const set = byTopic.get(topic);
      if (!set || set.size === 0) return;
      const frame = { op: "push", topic, data };
      if (!conforms(frame)) return;
      const text = JSON.stringify(frame);
      for (const c of set)
        if (c.ws.readyState === WebSocket.OPEN && c.ws.bufferedAmount <= MAX_BUFFERED)
          c.ws.send(text);
    },
    deliverToUser(userId, topic, data) {
      const set = byTopic.get(topic);
      if (!set) return;
      for (const c of set) if (c.userId === userId) send(c, { op: "push", topic, data });
    },
    dropTokenHash(hash) {
      // Every node hears every revocation here: its session cache forgets the token too.
      sessionCacheOf(db).forget(hash);
      for (const c of conns) {
        if (c.token !== null && tokenHash(c.token) === hash) {
          dropPrivate(c);
          c.userId = null;
          c.token = null;
          send(c, {
            op: "revoked",
            code: CODE_SESSION_INVALID,
            msg: translate(c.lang, "session_invalid"),
          });
        }
      }
    },
    localUsers() {
      const out: Record<string, number[]> = {};
      for (const t of PRIVATE_TOPICS) out[t] = localUsers(t);
      return out;
    },
    // After a broker reconnection: the topics this node produced are published again as their
    // snapshots, so that connections elsewhere catch up on pushes the outage dropped. A node that
    // published nothing (one that does not run the market and the engine) sends nothing.
    resync() {
      for (const topic of publishedPublic)
        for (const data of snapshotsOrNone(topic, { userId: null, lang: "en" }))
          broker.publish(topic, data);
      for (const topic of publishedPrivate)
        for (const userId of hub.subscribedUsers(topic))
          for (const data of snapshotsOrNone(topic, { userId, lang: "en" }))
            broker.publishToUser(userId, topic, data);
    },
  };

  function dropPrivate(conn: Conn): void {
    for (const t of [...conn.topics]) if (PRIVATE_TOPICS.has(t)) unsub(conn, t);
  }

  wss.on("connection", (ws: WebSocket, req: IncomingMessage) => {
    const conn: Conn = {
      ws,
      lang: normaliseLang(req.headers["lang"]),
      userId: null,
      token: null,
      topics: new Set(),
      lastSeen: Date.now(),
    };
    conns.add(conn);
    ws.on("message", (raw) => {
      conn.lastSeen = Date.now();
      let m: { op?: unknown; token?: unknown; topics?: unknown; lang?: unknown };
      try {
        m = JSON.parse(String(raw));
      } catch {
        send(conn, { op: "error", code: CODE_FAIL, msg: translate(conn.lang, "fail") });
        return;
      }
      if (typeof m.lang === "string") conn.lang = normaliseLang(m.lang);
      switch (m.op) {
        case "ping":
          send(conn, { op: "pong", ts: Date.now() });
          return;
        case "login": {
          const u = userForToken(db, typeof m.token === "string" ? m.token : null);
          if (!u) {
            send(conn, {
              op: "login",
              code: CODE_SESSION_INVALID,
              msg: translate(conn.lang, "session_invalid"),
            });
            return;
          }
          if (conn.userId !== null && conn.userId !== u.id) dropPrivate(conn);
          conn.userId = u.id;
          conn.token = m.token as string;
          send(conn, {
            op: "login",
            code: CODE_OK,
            msg: translate(conn.lang, "ok"),
            data: { uid: u.uid },
          });
          return;
        }
        case "logout":
          dropPrivate(conn);
          conn.userId = null;
          conn.token = null;
          send(conn, { op: "logout", code: CODE_OK, msg: translate(conn.lang, "ok") });
          return;
        case "subscribe":
        case "unsubscribe": {
          const topics = Array.isArray(m.topics)
            ? m.topics.filter((t): t is string => typeof t === "string")
            : [];
          const bad = topics.find((t) => !isTopic(t));
          if (topics.length === 0 || topics.length > 64 || bad) {
            send(conn, {
              op: m.op,
              code: CODE_FAIL,
              msg: translate(conn.lang, "invalid_input", { field: "topics" }),
            });
            return;
          }
          if (
            m.op === "subscribe" &&
            conn.userId === null &&
            topics.some((t) => PRIVATE_TOPICS.has(t))
          ) {
            send(conn, {
              op: m.op,
              code: CODE_SESSION_INVALID,
              msg: translate(conn.lang, "session_invalid"),
            });
            return;
          }
          send(conn, { op: m.op, code: CODE_OK, msg: translate(conn.lang, "ok"), topics });
          for (const t of topics) (m.op === "subscribe" ? sub : unsub)(conn, t);
          return;
        }
        default:
          send(conn, { op: "error", code: CODE_FAIL, msg: translate(conn.lang, "fail") });
      }
    });
    ws.on("close", () => {
      for (const t of [...conn.topics]) unsub(conn, t);
      conns.delete(conn);
    });
    ws.on("error", () => ws.terminate());
  });

  const idle = setInterval(() => {
    const cutoff = Date.now() - IDLE_MS;
    for (const c of conns) if (c.lastSeen < cutoff) c.ws.terminate();
  }, 10_000);
  idle.unref();

  const hub: Hub = {
    publish(topic, data) {
      publishedPublic.add(topic);
      broker.publish(topic, data);
    },
    publishToUser(userId, topic, data) {
      publishedPrivate.add(topic);
      broker.publishToUser(userId, topic, data);
    },
    onSubscribe(match, provider) {
      providers.push({ match, provider });
    },
    subscribedUsers(topic) {
      const local = localUsers(topic);
      const remote = broker.remoteUsers(topic);
      if (remote.length === 0) return local;
      return [...new Set([...local, ...remote])];
    },
    dropTokenHash(hash) {
      broker.dropTokenHash(hash);
    },
    connectionCount: () => conns.size,
    frameDrifts: () => drifts,
    close: () =>
      new Promise((resolve) => {
        clearInterval(idle);
        for (const c of conns) c.ws.terminate();
        wss.close(() => resolve());
      }),
  };
  broker.attach(sink);
  return hub;
}
