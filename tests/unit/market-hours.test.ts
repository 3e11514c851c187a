import { afterEach, describe, expect, it } from "vitest";
import { openDb, type DB } from "../../upstream/platform/db.js";
import { setSetting } from "../../upstream/platform/settings.js";
import { sessionOpen } from "../../upstream/modules/market/hours.js";
import { createSimulator } from "../../upstream/modules/market/simulator.js";

const at = (iso: string) => Date.parse(iso);
// 2026-11-20 is a Friday, 2026-11-21 a Saturday, 2026-11-22 a Sunday, 2026-11-23 a Monday.

describe("market hours (UTC, trading-rules.md)", () => {
  it("forex, metals, energy and indices close Friday 21:00 and reopen Sunday 21:00", () => {
    expect(sessionOpen("fx", at("2026-11-20T20:59:59Z"))).toBe(true);
    expect(sessionOpen("fx", at("2026-11-20T21:00:00Z"))).toBe(false);
    expect(sessionOpen("fx", at("2026-11-21T12:00:00Z"))).toBe(false);
    expect(sessionOpen("fx", at("2026-11-22T20:59:59Z"))).toBe(false);
    expect(sessionOpen("fx", at("2026-11-22T21:00:00Z"))).toBe(true);
    expect(sessionOpen("fx", at("2026-11-25T03:00:00Z"))).toBe(true);
  });

  it("crypto is always open", () => {
    for (const iso of [
      "2026-11-20T21:00:00Z",
      "2026-11-21T12:00:00Z",
      "2026-11-22T03:00:00Z",
      "2026-11-23T23:59:00Z",
    ]) {
      expect(sessionOpen("crypto", at(iso))).toBe(true);
    }
  });

  it("US stocks trade 14:30-21:00 UTC on weekdays only", () => {
    expect(sessionOpen("us_stock", at("2026-11-23T14:29:59Z"))).toBe(false);
    expect(sessionOpen("us_stock", at("2026-11-23T14:30:00Z"))).toBe(true);
    expect(sessionOpen("us_stock", at("2026-11-23T20:59:59Z"))).toBe(true);
    expect(sessionOpen("us_stock", at("2026-11-23T21:00:00Z"))).toBe(false);
    expect(sessionOpen("us_stock", at("2026-11-21T15:00:00Z"))).toBe(false);
    expect(sessionOpen("us_stock", at("2026-11-22T15:00:00Z"))).toBe(false);
  });
});

describe("market hours through the simulator", () => {
  let db: DB | null = null;
  afterEach(() => {
    db?.close();
    db = null;
  });

  const sim = (alwaysOpen = false) => {
    db = openDb(":memory:");
    return createSimulator(db, {
      seed: 7,
      tickMs: 500,
      marketAlwaysOpen: alwaysOpen,
      simulate: false,
    });
  };

  it("reports MarketStatus by session and does not tick closed instruments", () => {
    const s = sim();
    const fridayNight = at("2026-11-20T21:30:00Z");
    expect(s.isOpen("EURUSD", fridayNight)).toBe(false);
    expect(s.isOpen("XAUUSD", fridayNight)).toBe(false);
    expect(s.isOpen("AAPL", fridayNight)).toBe(false);
    expect(s.isOpen("BTCUSD", fridayNight)).toBe(true);
    const before = s.quote("EURUSD")!;
    const changed = s.tickOnce(fridayNight);
    const codes = changed.map((q) => q.code).sort();
    expect(codes).toEqual(["BTCUSD", "DOGEUSD", "ETHUSD", "SOLUSD", "XRPUSD"]);
    expect(s.quote("EURUSD")).toEqual(before);

    const mondayNoon = at("2026-11-23T12:00:00Z");
    const open = s.tickOnce(mondayNoon).map((q) => q.code);
    expect(open).toContain("EURUSD");
    expect(open).not.toContain("AAPL"); // before the US session
    expect(s.tickOnce(at("2026-11-23T15:00:00Z")).map((q) => q.code)).toContain("AAPL");
  });

  it("setting market.always_open keeps every market open, and turning it off restores the hours", () => {
    const s = sim();
    const saturday = at("2026-11-21T12:00:00Z");
    expect(s.isOpen("EURUSD", saturday)).toBe(false);
    setSetting(db!, "market.always_open", "1");
    expect(s.isOpen("EURUSD", saturday)).toBe(true);
    expect(s.isOpen("AAPL", saturday)).toBe(true);
    expect(s.tickOnce(saturday)).toHaveLength(s.instruments().length);
    setSetting(db!, "market.always_open", "0");
    expect(s.isOpen("EURUSD", saturday)).toBe(false);
  });

  it("MARKET_ALWAYS_OPEN (config) keeps every market open", () => {
    const s = sim(true);
    expect(s.isOpen("EURUSD", at("2026-11-21T12:00:00Z"))).toBe(true);
    expect(s.isOpen("MSFT", at("2026-11-22T03:00:00Z"))).toBe(true);
  });
});
