/**
 * The ranking's rules that pages read too (contract/api/follow.ts holds the endpoints): a
 * provider's risk score and its formula, the ranking's sort keys and filters, favourites, and the
 * risk disclosure's bounds (docs/trading-rules.md "Risk score", decision 0040).
 *
 * The risk score is a statistic, not money: it is computed in floating point from integer
 * micro-USD sums and never booked.
 */

/** A risk score is a whole number from 1 (calmest) to 10 (riskiest). */
export const RISK_SCORE = { min: 1, max: 10 } as const;

/** New copies of a provider scoring above this are refused (setting copy.max_risk_score). */
export const RISK_COPY_MAX_DEFAULT = 7;

/** A provider's followers are told when its score rises by this much or more from one day to the next. */
export const RISK_RISE_NOTIFY = 2;

/** The days of history a score reads: the last year of daily returns up to the day scored. */
export const RISK_WINDOW_DAYS = 365;

/** Daily returns are of calendar days (weekends included): √365 annualises their spread. */
export const RISK_DAYS_A_YEAR = 365;

/**
 * Annualised volatility bands, percent: a volatility below the first is band 1, at or above the
 * k-th (1-based) band k + 1; at or above the last, band 10.
 */
export const RISK_VOLATILITY_BANDS = [2, 4, 7, 11, 16, 23, 32, 45, 60] as const;

/** Each of these average leverages reached (1:30, 1:100, 1:300) raises the score by one. */
export const RISK_LEVERAGE_STEPS = [30, 100, 300] as const;

/** Each of these shares of the positions in one instrument reached raises the score by one. */
export const RISK_CONCENTRATION_STEPS = [0.7, 0.9] as const;

/** What a risk score is computed from. */
export interface RiskInputs {
  /**
   * The day-by-day returns of the provider's closed equity over the window, as fractions
   * (0.01: +1 %): the day's closed profit after fees over the equity at the day's start.
   */
  dailyReturns: readonly number[];
  /** The mean leverage of the positions closed in the window (0: none closed). */
  leverage: number;
  /** The share of the window's closed positions in its most traded instrument, 0 to 1. */
  concentration: number;
}

/**
 * The annualised volatility of daily returns, percent: their root mean square (the spread around
 * zero, as RiskMetrics takes it, so that one day's loss already counts) × √RISK_DAYS_A_YEAR × 100.
 * 0 without returns.
 */
export function annualisedVolatility(dailyReturns: readonly number[]): number {
  if (dailyReturns.length === 0) return 0;
  let squares = 0;
  for (const r of dailyReturns) squares += r * r;
  return Math.sqrt(squares / dailyReturns.length) * Math.sqrt(RISK_DAYS_A_YEAR) * 100;
}

const stepsReached = (steps: readonly number[], v: number) => steps.filter((s) => v >= s).length;

/**
 * The risk score: the volatility band (RISK_VOLATILITY_BANDS), plus one for each leverage step and
 * each concentration step reached, at most RISK_SCORE.max. Never falls when any input grows
 * (monotone), always a whole number from 1 to 10 (bounded); an input that is not a number counts
 * as the riskiest.
 */
export function riskScore(i: RiskInputs): number {
  const vol = annualisedVolatility(i.dailyReturns);
  const worst = (v: number) => (Number.isFinite(v) ? v : Infinity);
  const band = 1 + stepsReached(RISK_VOLATILITY_BANDS, worst(vol));
  const raise =
    stepsReached(RISK_LEVERAGE_STEPS, worst(i.leverage)) +
    stepsReached(RISK_CONCENTRATION_STEPS, worst(i.concentration));
  return Math.min(RISK_SCORE.max, Math.max(RISK_SCORE.min, band + raise));
}

/**
 * The ranking's orders. `rank` is the ranking's own (three-week rate); returns over 1, 3, 6 and
 * 12 months, copiers and age (months since the provider began) go highest first; maximum drawdown
 * and risk score lowest first. Ties keep the ranking's own order.
 */
export const RANK_SORTS = [
  "rank",
  "return_1m",
  "return_3m",
  "return_6m",
  "return_12m",
  "drawdown",
  "risk",
  "copiers",
  "age",
] as const;
export type RankSort = (typeof RANK_SORTS)[number];
export const RANK_SORT_DEFAULT: RankSort = "rank";
/** The sorts that put the lowest value first. */
export const RANK_SORTS_ASCENDING: readonly RankSort[] = ["drawdown", "risk"];

/** The months of the ranking's returns (return_1m …): whole months back from the day computed. */
export const RANK_RETURN_MONTHS = [1, 3, 6, 12] as const;

/** The filter "minimum months of history": the choices offered (0: any). */
export const RANK_MIN_MONTHS = [0, 1, 3, 6, 12] as const;

/** Favourite providers per user. */
export const RANK_FAVOURITES_MAX = 100;

/** The operator's own risk disclosure text (setting risk.disclosure_text), characters. */
export const RISK_DISCLOSURE_TEXT_MAX = 300;
