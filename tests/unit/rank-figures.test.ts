/**
 * The ranking's daily figures as pure functions over fixed histories (upstream/modules/follow):
 * the closed equity day by day and its returns, monthly returns by UTC month, whole months of
 * history, and the ranking's sorts and filters (decision 0040).
 */
import { describe, expect, it } from "vitest";
import type { FollowItem } from "@contract/api/follow";
import {
  DAY_MS,
  dailyEquity,
  monthlyReturns,
  monthsBefore,
  wholeMonths,
} from "../../upstream/modules/follow/stats.js";
import { sortAndFilter } from "../../upstream/modules/follow/rank-view.js";

const day = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);

describe("daily equity", () => {
  it("adds each day's net in turn; a day without closes returns 0; nothing left returns -1", () => {
    const d0 = day("2026-03-01");
    const nets = new Map([
      [d0, 100],
      [d0 + 2, -550],
    ]);
    expect(dailyEquity(1000, d0, d0 + 3, nets)).toEqual({
      starts: [1000, 1100, 1100, 550],
      returns: [0.1, 0, -0.5, 0],
    });
    expect(dailyEquity(0, d0, d0, new Map()).returns).toEqual([-1]);
  });
});

describe("monthly returns", () => {
  it("gives each UTC month's net over the equity at its start, months between at 0", () => {
    const r = monthlyReturns(10_000, [
      { day: day("2026-01-05"), net: 1_000 },
      { day: day("2026-01-31"), net: 100 },
      { day: day("2026-04-01"), net: -1_110 },
    ]);
    expect(r).toEqual([
      { month: "2026-01", rate: 11 },
      { month: "2026-02", rate: 0 },
      { month: "2026-03", rate: 0 },
      { month: "2026-04", rate: -10 },
    ]);
    expect(monthlyReturns(10_000, [])).toEqual([]);
  });
});

describe("months", () => {
  it("counts whole calendar months, one once the day and time come round again", () => {
    const at = (iso: string) => Date.parse(iso);
    expect(wholeMonths(at("2026-01-31T12:00:00Z"), at("2026-02-28T23:00:00Z"))).toBe(0);
    expect(wholeMonths(at("2026-01-15T12:00:00Z"), at("2026-02-15T12:00:00Z"))).toBe(1);
    expect(wholeMonths(at("2026-01-15T12:00:00Z"), at("2027-01-15T11:59:59Z"))).toBe(11);
    expect(wholeMonths(at("2026-01-15T12:00:00Z"), at("2025-01-01T00:00:00Z"))).toBe(0);
    expect(monthsBefore(day("2026-05-20"), 3)).toBe(day("2026-02-20"));
  });
});

describe("the ranking's sorts and filters", () => {
  const item = (id: number, o: Partial<FollowItem>): FollowItem => ({
    id,
    user: `P${id}`,
    multiple: 100,
    three_week_rate: 0,
    three_week_win: 0,
    three_week_profit: "0.00",
    total_rate: 0,
    total_trade_num: 0,
    code: "",
    risk_score: null,
    return_1m: 0,
    return_3m: 0,
    return_6m: 0,
    return_12m: 0,
    max_drawdown: 0,
    copiers: 0,
    months: 0,
    categories: [],
    ...o,
  });
  const ranked = [
    item(1, { risk_score: 8, copiers: 3, max_drawdown: 20, months: 14, categories: [1] }),
    item(2, { risk_score: null, copiers: 9, max_drawdown: 5, months: 2, categories: [2] }),
    item(3, { risk_score: 2, copiers: 3, max_drawdown: 12, months: 7, categories: [1, 2] }),
  ];
  const ids = (q: Partial<Parameters<typeof sortAndFilter>[1]>) =>
    sortAndFilter(ranked, { sort: "rank", max_risk: 10, min_months: 0, ...q }, 10).map((x) => x.id);

  it("sorts highest or lowest first as the sort says, ties in the ranking's order", () => {
    expect(ids({})).toEqual([1, 2, 3]);
    expect(ids({ sort: "copiers" })).toEqual([2, 1, 3]);
    expect(ids({ sort: "drawdown" })).toEqual([2, 3, 1]);
    expect(ids({ sort: "risk" })).toEqual([3, 1, 2]);
    expect(ids({ sort: "age" })).toEqual([1, 3, 2]);
  });

  it("filters by maximum risk (unscored only when any), months and category", () => {
    expect(ids({ max_risk: 8 })).toEqual([1, 3]);
    expect(ids({ max_risk: 7 })).toEqual([3]);
    expect(ids({ min_months: 6 })).toEqual([1, 3]);
    expect(ids({ category: 2 })).toEqual([2, 3]);
    expect(ids({ min_months: 12, category: 2 })).toEqual([]);
  });
});
