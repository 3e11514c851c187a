/**
 * The push broker's pure parts (upstream/platform/ws/broker.ts): a topic as one NATS subject
 * token, the subjects of a prefix, and the presence of other nodes (parts, replacement, expiry).
 * The broker on a real nats-server: tests/integration/nats-broker.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  PresenceBook,
  isPresence,
  presenceParts,
  natsServersOf,
  redactedServers,
  subjectToken,
  subjectsOf,
  topicOfToken,
} from "../../upstream/platform/ws/broker.js";

describe("subject tokens", () => {
  it("writes a topic as one token of NATS's recommended alphabet, and reads it back", () => {
    const cases: [string, string][] = [
      ["DAY_MARKET", "DAY_5FMARKET"],
      ["FOREX_TRADE", "FOREX_5FTRADE"],
      ["KLINE.EURUSD", "KLINE_2EEURUSD"],
      ["KLINE.X..Y", "KLINE_2EX_2E_2EY"],
      ["KLINE.a-b", "KLINE_2Ea-b"],
      ["*", "_2A"],
      [">", "_3E"],
      ["é", "_C3_A9"],
    ];
    for (const [topic, token] of cases) {
      expect(subjectToken(topic)).toBe(token);
      expect(topicOfToken(token)).toBe(topic);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    expect(() => subjectToken("")).toThrow();
    for (const bad of ["a.b", "_2", "_zz", "*", ">", ""]) expect(topicOfToken(bad)).toBeNull();
  });

  it("names every subject under the prefix", () => {
    const s = subjectsOf("tradepost");
    expect(s.push("KLINE.EURUSD")).toBe("tradepost.push.KLINE_2EEURUSD");
    expect(s.userPush(42, "FOREX_TRADE")).toBe("tradepost.user.42.FOREX_5FTRADE");
    expect([s.allPushes, s.allUserPushes, s.tick, s.revoke, s.presence, s.hello]).toEqual([
      "tradepost.push.*",
      "tradepost.user.*.*",
      "tradepost.tick",
      "tradepost.revoke",
      "tradepost.presence",
      "tradepost.hello",
    ]);
    expect(subjectsOf("acme.prod").tick).toBe("acme.prod.tick");
    for (const bad of ["", "a..b", "a.*", "a b", "x."]) expect(() => subjectsOf(bad)).toThrow();
  });

  it("hands the client the servers, the credentials and TLS apart, as it reads them", () => {
    expect(natsServersOf("nats://127.0.0.1:4222")).toEqual({ servers: ["127.0.0.1:4222"] });
    expect(natsServersOf("nats://u:p%40ss@10.0.0.1:4222, nats://10.0.0.2")).toEqual({
      servers: ["10.0.0.1:4222", "10.0.0.2:4222"],
      user: "u",
      pass: "p@ss",
    });
    expect(natsServersOf("tls://s3cret@nats.example.com:4443")).toEqual({
      servers: ["nats.example.com:4443"],
      token: "s3cret",
      tls: {},
    });
  });

  it("leaves credentials out of the server list it shows", () => {
    expect(redactedServers("nats://u:p@10.0.0.1:4222, tls://tok@nats.example.com")).toBe(
      "nats://10.0.0.1:4222,tls://nats.example.com",
    );
    // A password with an @ of its own, written as typed or encoded: nothing of it is shown.
    expect(redactedServers("nats://user:p@ss@10.0.0.1:4222")).toBe("nats://10.0.0.1:4222");
    expect(redactedServers("nats://user:p%40ss@10.0.0.1:4222/")).toBe("nats://10.0.0.1:4222/");
  });
});

describe("presence", () => {
  it("cuts a node's users into parts of at most the chunk size", () => {
    const users = { FOREX_TRADE: [1, 2, 3, 4, 5], FOREX_CLOSED: [6, 7] };
    const parts = presenceParts("n1", 3, users, 3);
    expect(parts).toEqual([
      { node: "n1", seq: 3, part: 0, parts: 3, users: { FOREX_TRADE: [1, 2, 3] } },
      { node: "n1", seq: 3, part: 1, parts: 3, users: { FOREX_TRADE: [4, 5], FOREX_CLOSED: [6] } },
      { node: "n1", seq: 3, part: 2, parts: 3, users: { FOREX_CLOSED: [7] } },
    ]);
    expect(presenceParts("n1", 1, {})).toEqual([
      { node: "n1", seq: 1, part: 0, parts: 1, users: {} },
    ]);
    for (const p of parts) expect(isPresence(p)).toBe(true);
    for (const bad of [
      null,
      { node: 1 },
      { node: "n", seq: 1, part: 1, parts: 1, users: {} },
      { node: "n", seq: 1, part: 0, parts: 1, users: { T: ["1"] } },
    ])
      expect(isPresence(bad)).toBe(false);
    expect(isPresence({ node: "n", bye: true })).toBe(true);
  });

  it("replaces a node's set once every part of a newer one arrived, and forgets it after the TTL or a bye", () => {
    const book = new PresenceBook(1_000);
    const t = "FOREX_TRADE";
    for (const p of presenceParts("a", 1, { [t]: [1, 2] })) book.apply(p, 0);
    for (const p of presenceParts("b", 1, { [t]: [2, 3] })) book.apply(p, 0);
    expect(book.users(t, 10).sort()).toEqual([1, 2, 3]);

    const next = presenceParts("a", 2, { [t]: [4, 5, 6] }, 2);
    book.apply(next[0], 100);
    expect(book.users(t, 100).sort()).toEqual([1, 2, 3]); // incomplete: the old set holds
    book.apply(presenceParts("a", 1, { [t]: [9] })[0], 100); // older: ignored
    book.apply(next[1], 100);
    expect(book.users(t, 100).sort()).toEqual([2, 3, 4, 5, 6]);

    book.apply({ node: "b", bye: true }, 200);
    expect(book.users(t, 200).sort()).toEqual([4, 5, 6]);
    expect(book.users(t, 1_101)).toEqual([]); // a's last part came at 100: expired at 1,100
  });
});
