/** The ranking's figures from hand-computed sums (upstream/modules/follow/stats.ts), and the strategies' signals. */
import { describe, expect, it } from "vitest";
import { percent, rank, traderStats, usd2 } from "../../upstream/modules/follow/stats.js";
import { exitLevels, signal } from "../../upstream/modules/follow/strategies.js";

const M = 1_000_000;

describe("ranking figures", () => {
  it("computes rate on the equity at the window's start, win share, profit and total rate", () => {
    // Capital 10,000; before the window +500 net; in it 4 positions, nets +300, -100, +50, 0.
    const item = traderStats(1, "Aurora FX", 10_000 * M, {
      windowNetMicro: 250 * M,
      windowCount: 4,
      windowWins: 2,
      beforeNetMicro: 500 * M,
      totalCount: 9,
      multiple: 100,
      code: "EUR/USD",
    });
    expect(item).toEqual({
      id: 1,
      user: "Aurora FX",
      multiple: 100,
      three_week_rate: 2.38, // 250 / 10,500
      three_week_win: 50,
      three_week_profit: "250.00",
      total_rate: 7.5, // 750 / 10,000
      total_trade_num: 9,
      code: "EUR/USD",
    });
  });

  it("shows an empty window as zeros, never as NaN", () => {
    const item = traderStats(1, "Kestrel Macro", 10_000 * M, {
      windowNetMicro: 0,
      windowCount: 0,
      windowWins: 0,
      beforeNetMicro: -2_000 * M,
      totalCount: 3,
      multiple: 50,
      code: null,
    });
    expect(item).toMatchObject({
      three_week_rate: 0,
      three_week_win: 0,
      three_week_profit: "0.00",
      total_rate: -20,
      code: "",
    });
  });

  it("rounds percentages and cents half away from zero, exactly", () => {
    expect(percent(1, 3)).toBe(33.33);
    expect(percent(2, 3)).toBe(66.67);
    expect(percent(-1, 8)).toBe(-12.5);
    expect(percent(5, 0)).toBe(0);
    expect(usd2(-12_345_000)).toBe("-12.35");
    expect(usd2(12_344_999)).toBe("12.34");
    expect(usd2(-4_000)).toBe("0.00");
    expect(usd2(123_456_789_000)).toBe("123456.79");
  });

  it("ranks by three-week rate, then total rate, then name", () => {
    const base = {
      id: 1,
      multiple: 1,
      three_week_win: 0,
      three_week_profit: "0",
      total_trade_num: 0,
      code: "",
    };
    const items = [
      { ...base, user: "B", three_week_rate: 1, total_rate: 5 },
      { ...base, user: "A", three_week_rate: 1, total_rate: 5 },
      { ...base, user: "C", three_week_rate: 3, total_rate: 0 },
      { ...base, user: "D", three_week_rate: 1, total_rate: 9 },
    ];
    expect(rank(items).map((i) => i.user)).toEqual(["C", "D", "A", "B"]);
  });
});

describe("strategy signals", () => {
  it("follows, fades or breaks out of the last moves", () => {
    expect(signal("trend", [1, 1.1, 1.2])).toBe(1);
    expect(signal("trend", [1.2, 1.1, 1])).toBe(2);
    expect(signal("mean_reversion", [1, 1.1, 1.2])).toBe(2);
    expect(signal("breakout", [1, 1.1, 1.05])).toBeNull();
    expect(signal("breakout", [1, 1.1, 1.2])).toBe(1);
    expect(signal("breakout", [1, 0.9, 0.8])).toBe(2);
    expect(signal("trend", [1, 2])).toBeNull();
  });

  it("puts take-profit beyond and stop-loss behind the price, at the instrument's precision", () => {
    expect(exitLevels({ takeProfit: 0.001, stopLoss: 0.002 }, 1, 1.08523, 5)).toEqual({
      takeProfit: 1.08632,
      stopLoss: 1.08306,
    });
    expect(exitLevels({ takeProfit: 0.001, stopLoss: 0.002 }, 2, 2000, 2)).toEqual({
      takeProfit: 1998,
      stopLoss: 2004,
    });
  });
});
