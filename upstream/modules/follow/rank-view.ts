/**
 * The ranking's daily figures (follow/risk.ts) joined to its statistics, and its sorts and filters
 * (contract/api/rank-rules.ts RANK_SORTS): applied on each request to the ranking kept in memory.
 */
import { RANK_SORTS_ASCENDING, type FollowItem, type RankSort } from "@contract/api/follow";
import { wholeMonths } from "./stats.js";
import type { DailyFigures } from "./risk-store.js";

/** A provider's figures of the ranking beyond the three-week statistics. */
type RankExtra = Pick<
  FollowItem,
  | "risk_score"
  | "return_1m"
  | "return_3m"
  | "return_6m"
  | "return_12m"
  | "max_drawdown"
  | "copiers"
  | "months"
  | "categories"
>;

export function rankFigures(
  daily: DailyFigures | undefined,
  o: { copiers: number; startedAt: number; nowMs: number },
): RankExtra {
  return {
    risk_score: daily?.risk_score ?? null,
    return_1m: daily?.return_1m ?? 0,
    return_3m: daily?.return_3m ?? 0,
    return_6m: daily?.return_6m ?? 0,
    return_12m: daily?.return_12m ?? 0,
    max_drawdown: daily?.max_drawdown ?? 0,
    copiers: o.copiers,
    months: wholeMonths(o.startedAt, o.nowMs),
    categories: daily ? (JSON.parse(daily.categories) as number[]) : [],
  };
}

/** The value a sort orders by; a provider without a score sorts after every scored one. */
const KEYS: Record<Exclude<RankSort, "rank">, (x: FollowItem) => number> = {
  return_1m: (x) => x.return_1m,
  return_3m: (x) => x.return_3m,
  return_6m: (x) => x.return_6m,
  return_12m: (x) => x.return_12m,
  drawdown: (x) => x.max_drawdown,
  risk: (x) => x.risk_score ?? Infinity,
  copiers: (x) => x.copiers,
  age: (x) => x.months,
};

export interface RankQuery {
  sort: RankSort;
  max_risk: number;
  min_months: number;
  category?: number;
}

/**
 * The ranking (in its own order) filtered and sorted: a maximum risk keeps the scored providers at
 * or below it (an unscored one only while no maximum below 10 is asked for), a minimum of months
 * those that long at it, a category those that traded an instrument of it. Ties keep the
 * ranking's order (the sort is stable).
 */
export function sortAndFilter(ranked: readonly FollowItem[], q: RankQuery, maxScore: number) {
  const kept = ranked.filter(
    (x) =>
      (q.max_risk >= maxScore || (x.risk_score !== null && x.risk_score <= q.max_risk)) &&
      x.months >= q.min_months &&
      (q.category === undefined || x.categories.includes(q.category)),
  );
  if (q.sort === "rank") return kept;
  const key = KEYS[q.sort];
  const sign = RANK_SORTS_ASCENDING.includes(q.sort) ? 1 : -1;
  return [...kept].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka === kb ? 0 : sign * (ka < kb ? -1 : 1);
  });
}
