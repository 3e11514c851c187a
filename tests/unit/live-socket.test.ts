/**
 * The bridge's upstream socket against websocket servers that misbehave the way a hung or restarted
 * upstream does: it must notice unanswered pings, reconnect, and subscribe its topics again.
 */
import { afterEach, describe, expect, it } from "vitest";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { SocketTargets, UpstreamSocket } from "../../app/live/upstream-socket.server";
import { until } from "../support/wait";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function server(onMessage: (ws: WebSocket, msg: Record<string, unknown>) => void) {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((r) => wss.once("listening", r));
  const connections: WebSocket[] = [];
  wss.on("connection", (ws) => {
    connections.push(ws);
    ws.on("message", (raw) => onMessage(ws, JSON.parse(String(raw))));
  });
  cleanups.push(() => wss.close());
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/ws`, connections, wss };
}

describe("upstream socket", () => {
  it("reconnects after 3 unanswered pings and subscribes its topics again", async () => {
    const subscribes: unknown[] = [];
    let answerPings = true;
    let pongs = 0;
    const s = await server((ws, m) => {
      if (m.op === "ping" && answerPings) {
        pongs++;
        ws.send(JSON.stringify({ op: "pong", ts: Date.now() }));
      }
      if (m.op === "subscribe") subscribes.push(m.topics);
    });
    const sock = new UpstreamSocket({ url: s.url, pingMs: 40, minBackoffMs: 10, onPush: () => {} });
    cleanups.push(() => sock.close());
    sock.add(["DAY_MARKET", "KLINE.EURUSD"]);
    await until("the first subscribe", () => subscribes.length === 1);
    // Answered pings keep the connection: after 5 answered pings (more than the 3 it tolerates
    // unanswered) it is still the first one.
    await until("five answered pings", () => pongs >= 5);
    expect(sock.connects).toBe(1);
    answerPings = false;
    await until("a second connection", () => sock.connects === 2);
    await until("the subscribe on the new connection", () => subscribes.length === 2);
    expect(subscribes[1]).toEqual(["DAY_MARKET", "KLINE.EURUSD"]);
  });

  it("checking frames, drops one that drifts from the contract and passes the others on", async () => {
    const s = await server((ws, m) => {
      if (m.op !== "subscribe") return;
      // A quote sent as text, then a conforming one with a field the contract does not know.
      const item = { Id: 1, Code: "EURUSD", Close: 1.1, Open: 1.09, High: 1.11, Low: 1.08 };
      const rest = { Volume: 5, Change: 0.9, Time: 1, MarketStatus: 1 };
      ws.send(
        JSON.stringify({
          op: "push",
          topic: "DAY_MARKET",
          data: [{ ...item, ...rest, Close: "1.1" }],
        }),
      );
      ws.send(
        JSON.stringify({ op: "push", topic: "DAY_MARKET", data: [{ ...item, ...rest, Bid: 1 }] }),
      );
    });
    const pushed: unknown[] = [];
    const drifts: string[] = [];
    const sock = new UpstreamSocket({
      url: s.url,
      onPush: (_topic, data) => pushed.push(data),
      onDrift: (err) => drifts.push(`${err.endpoint} ${err.field}`),
    });
    cleanups.push(() => sock.close());
    sock.add(["DAY_MARKET"]);
    await until("the conforming push", () => pushed.length === 1);
    expect(drifts).toEqual(["ws push DAY_MARKET [0].Close"]);
    expect((pushed[0] as { Close: number }[])[0]!.Close).toBe(1.1);
  });

  it("gives up a connection that does not open within the time-out and tries again", async () => {
    // A TCP server that accepts but never answers the websocket handshake.
    const sockets: net.Socket[] = [];
    const tcp = net.createServer((c) => sockets.push(c));
    await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", () => r()));
    cleanups.push(() => {
      for (const c of sockets) c.destroy();
      tcp.close();
    });
    const events: string[] = [];
    const sock = new UpstreamSocket({
      url: `ws://127.0.0.1:${(tcp.address() as AddressInfo).port}/v1/ws`,
      connectTimeoutMs: 150,
      minBackoffMs: 10,
      onPush: () => {},
      onEvent: (e) => events.push(e),
    });
    cleanups.push(() => sock.close());
    await until("a second connection attempt", () => sock.connects >= 2);
    expect(events).toContain("close");
  });

  it("logs in before subscribing and stops for good when the token is refused", async () => {
    const seen: string[] = [];
    const s = await server((ws, m) => {
      seen.push(String(m.op));
      if (m.op === "login")
        ws.send(JSON.stringify({ op: "login", code: m.token === "good" ? 1 : 999, msg: "x" }));
      if (m.op === "subscribe")
        ws.send(JSON.stringify({ op: "push", topic: "FOREX_TRADE", data: { ProfitsTotal: 1 } }));
    });
    const pushes: unknown[] = [];
    const good = new UpstreamSocket({
      url: s.url,
      token: "good",
      onPush: (_t, d) => pushes.push(d),
    });
    cleanups.push(() => good.close());
    good.add(["FOREX_TRADE"]);
    await until("the push after login", () => pushes.length === 1);
    expect(seen.slice(0, 2)).toEqual(["login", "subscribe"]);

    let refused = 0;
    const bad = new UpstreamSocket({
      url: s.url,
      token: "bad",
      minBackoffMs: 10,
      onPush: () => {},
      onLoginFailed: (code) => (refused = code),
    });
    cleanups.push(() => bad.close());
    // A witness with the same back-off against a server that drops every connection: once it has
    // reconnected twice, the refused socket would have reconnected too, had it tried.
    const dropping = await server(() => {});
    dropping.wss.on("connection", (ws) => ws.close());
    const witness = new UpstreamSocket({ url: dropping.url, minBackoffMs: 10, onPush: () => {} });
    cleanups.push(() => witness.close());
    bad.add(["FOREX_TRADE"]);
    witness.add(["DAY_MARKET"]);
    await until("the refused login", () => refused === 999);
    await until("the witness's third connection", () => witness.connects >= 3);
    expect(bad.connects).toBe(1);
    expect(bad.isReady).toBe(false);
  });

  it("with several upstream nodes, holds one connection and takes the next node in turn when it drops", async () => {
    const subscribes: [string, unknown][] = [];
    const onMessage = (name: string) => (ws: WebSocket, m: Record<string, unknown>) => {
      if (m.op !== "subscribe") return;
      subscribes.push([name, m.topics]);
      ws.send(JSON.stringify({ op: "push", topic: "DAY_MARKET", data: [{ Code: name }] }));
    };
    const a = await server(onMessage("a"));
    const b = await server(onMessage("b"));
    const targets = new SocketTargets([a.url, b.url]);
    const pushes: unknown[] = [];
    const sock = new UpstreamSocket({
      url: targets,
      minBackoffMs: 10,
      onPush: (_t, d) => pushes.push(d),
    });
    cleanups.push(() => sock.close());
    sock.add(["DAY_MARKET"]);
    await until("node a's snapshot", () => pushes.length === 1);
    expect(sock.url).toBe(a.url);

    // Node a drops the connection: the socket goes to b, subscribes again and gets b's snapshot.
    a.connections[0].terminate();
    await until("b's snapshot after a drops", () => pushes.length === 2);
    expect(pushes[1]).toEqual([{ Code: "b" }]);
    expect(sock.url).toBe(b.url);
    expect(subscribes).toEqual([
      ["a", ["DAY_MARKET"]],
      ["b", ["DAY_MARKET"]],
    ]);
    // A new socket of the same bridge starts at the node that last accepted a connection.
    const next = new UpstreamSocket({ url: targets, onPush: () => {} });
    cleanups.push(() => next.close());
    expect(next.url).toBe(b.url);
    await until("the new socket's connection to b", () => b.connections.length === 2);

    // Then b drops it: back to a, in turn. One connection at a time throughout.
    b.connections[0].terminate();
    await until("a's snapshot after b drops", () => pushes.length === 3);
    expect(pushes[2]).toEqual([{ Code: "a" }]);
    expect(a.connections.length).toBe(2);
    expect(a.connections.filter((c) => c.readyState === c.OPEN).length).toBe(1);
    expect(b.connections.filter((c) => c.readyState === c.OPEN).length).toBe(1); // `next`'s
  });
});
