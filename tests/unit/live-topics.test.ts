import { describe, expect, it } from "vitest";
import {
  MAX_TOPICS,
  TopicState,
  isPrivateTopic,
  parseTopics,
  topicKind,
} from "../../app/live/topics";
import { wsUrlOf } from "../../app/live/bridge.server";

describe("live topic validation", () => {
  it("accepts the four kinds of topic, trimmed and without duplicates", () => {
    expect(parseTopics(" DAY_MARKET, KLINE.EURUSD ,FOREX_TRADE,FOREX_CLOSED,DAY_MARKET")).toEqual({
      ok: true,
      topics: ["DAY_MARKET", "KLINE.EURUSD", "FOREX_TRADE", "FOREX_CLOSED"],
    });
    expect(topicKind("KLINE.XAU_USD")).toBe("kline");
    expect(isPrivateTopic("FOREX_TRADE")).toBe(true);
    expect(isPrivateTopic("DAY_MARKET")).toBe(false);
  });

  it("refuses unknown, empty and too many topics, naming the bad one", () => {
    expect(parseTopics("DAY_MARKET,NEWS")).toEqual({ ok: false, reason: "unknown", topic: "NEWS" });
    expect(parseTopics("KLINE.")).toMatchObject({ ok: false, reason: "unknown" });
    expect(parseTopics("KLINE.EUR USD")).toMatchObject({ ok: false, reason: "unknown" });
    expect(parseTopics("day_market")).toMatchObject({ ok: false, reason: "unknown" });
    expect(parseTopics("")).toEqual({ ok: false, reason: "missing" });
    expect(parseTopics(null)).toEqual({ ok: false, reason: "missing" });
    const many = Array.from({ length: MAX_TOPICS + 1 }, (_, i) => `KLINE.C${i}`).join(",");
    expect(parseTopics(many)).toEqual({ ok: false, reason: "too_many" });
  });

  it("derives the upstream websocket address from the upstream URL", () => {
    expect(wsUrlOf("http://127.0.0.1:4100")).toBe("ws://127.0.0.1:4100/v1/ws");
    expect(wsUrlOf("https://api.example.com/base/")).toBe("wss://api.example.com/base/v1/ws");
  });
});

describe("conflation of a topic's changes", () => {
  const q = (Id: number, Close: number, Time: number) => ({ Id, Code: `C${Id}`, Close, Time });

  it("DAY_MARKET keeps the latest quote per instrument, in first-seen order", () => {
    const s = new TopicState("DAY_MARKET");
    expect(s.hasData).toBe(false);
    s.apply([q(1, 1.1, 1), q(2, 2.0, 1)]);
    s.apply([q(1, 1.2, 2)]);
    s.apply([q(3, 3.0, 3), q(1, 1.3, 3)]);
    expect(s.get()).toEqual([q(1, 1.3, 3), q(2, 2.0, 1), q(3, 3.0, 3)]);
    s.clear();
    expect(s.hasData).toBe(false);
    expect(s.get()).toBeUndefined();
  });

  it("KLINE keeps one forming candle per period; a new candle replaces the old one", () => {
    const s = new TopicState("KLINE.EURUSD");
    s.apply([
      { period: "1min", Time: 60_000, Close: 1 },
      { period: "5min", Time: 0, Close: 1 },
    ]);
    s.apply([{ period: "1min", Time: 120_000, Close: 2 }]);
    expect(s.get()).toEqual([
      { period: "1min", Time: 120_000, Close: 2 },
      { period: "5min", Time: 0, Close: 1 },
    ]);
  });

  it("FOREX_TRADE keeps the latest object; FOREX_CLOSED accumulates ids until cleared", () => {
    const t = new TopicState("FOREX_TRADE");
    t.apply({ ProfitsTotal: 1 });
    t.apply({ ProfitsTotal: 2 });
    expect(t.get()).toEqual({ ProfitsTotal: 2 });
    const c = new TopicState("FOREX_CLOSED");
    c.apply({ ids: [5] });
    c.apply({ ids: [7, 5] });
    expect(c.get()).toEqual({ ids: [5, 7] });
  });

  it("merges an item's fields into the one it had, so a change may carry only what moved", () => {
    const s = new TopicState("DAY_MARKET");
    s.apply([{ Id: 1, Code: "EURUSD", Close: 1.1, Volume: 10, Time: 1 }]);
    s.apply([{ Id: 1, Close: 1.2, Time: 2 }]);
    expect(s.get()).toEqual([{ Id: 1, Code: "EURUSD", Close: 1.2, Volume: 10, Time: 2 }]);
    expect(s.itemsOf([{ Id: 1, Time: 2 }, { Id: 9 }])).toEqual([
      { Id: 1, Code: "EURUSD", Close: 1.2, Volume: 10, Time: 2 },
    ]);
  });

  it("changes(): each item's key and the fields that differ, unchanged items left out", () => {
    const sent = new TopicState("DAY_MARKET");
    sent.apply([
      { Id: 1, Code: "EURUSD", Close: 1.1, Volume: 10, Time: 1 },
      { Id: 2, Code: "GBPUSD", Close: 1.3, Volume: 5, Time: 1 },
    ]);
    const now = [
      { Id: 1, Code: "EURUSD", Close: 1.1, Volume: 11, Time: 2 },
      { Id: 2, Code: "GBPUSD", Close: 1.3, Volume: 5, Time: 1 },
      { Id: 3, Code: "USDJPY", Close: 150, Volume: 1, Time: 2 },
    ];
    const changes = sent.changes(now);
    expect(changes).toEqual([{ Id: 1, Volume: 11, Time: 2 }, now[2]]);
    // A browser holding the sent state and applying the changes holds the current items.
    const browser = new TopicState("DAY_MARKET");
    browser.apply(sent.get());
    browser.apply(changes);
    const current = new TopicState("DAY_MARKET");
    current.apply(sent.get());
    current.apply(now);
    expect(browser.get()).toEqual(current.get());

    const candles = new TopicState("KLINE.EURUSD");
    candles.apply([{ period: "1min", Time: 60_000, Open: 1, Close: 1 }]);
    expect(candles.changes([{ period: "1min", Time: 120_000, Open: 1, Close: 2 }])).toEqual([
      { period: "1min", Time: 120_000, Close: 2 },
    ]);
    expect(() => new TopicState("FOREX_TRADE").changes([])).toThrow();
  });

  it("ignores payloads of the wrong shape", () => {
    const s = new TopicState("DAY_MARKET");
    expect(s.apply({ not: "an array" })).toBe(false);
    expect(s.apply([{ noId: true }])).toBe(true);
    expect(s.get()).toEqual([]);
    expect(new TopicState("FOREX_CLOSED").apply({ ids: "x" })).toBe(false);
    expect(() => new TopicState("NOPE")).toThrow();
  });
});
