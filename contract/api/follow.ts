/**
 * The trader ranking (/rank, upstream/API.md "Ranking"): strategy traders' statistics computed from
 * their closed positions, never stored figures.
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { ID_DIGITS, optionalChoiceField, wholeField, optionalWholeField } from "../fields";
import { RANK_MIN_MONTHS, RANK_SORTS, RANK_SORT_DEFAULT, RISK_SCORE } from "./rank-rules";
export * from "./rank-rules";

const RISK_CHOICES = Array.from(
  { length: RISK_SCORE.max - RISK_SCORE.min + 1 },
  (_, i) => RISK_SCORE.min + i,
);

/** The "three weeks" of the ranking's statistics, in days. */
export const RANK_WINDOW_DAYS = 21;

/** The statistics of one trader of the ranking (product-spec.md section 3, "Follow/ranking item"). */
export const FollowStatsSchema = z.object({
  id: z
    .number()
    .int()
    .describe(
      "the provider's id (GET /api/follow/provider?id=, POST /api/follow/copy provider_id)",
    ),
  user: z.string().describe("the trader's display name (never an e-mail)"),
  multiple: z
    .number()
    .int()
    .describe("the leverage used most in the window (all time when nothing closed in it)"),
  three_week_rate: z
    .number()
    .describe(
      "closed profit after fees in the window over the equity at its start, percent (2 decimals)",
    ),
  three_week_win: z
    .number()
    .describe(
      "share of the window's closed positions with a profit after fees, percent (2 decimals)",
    ),
  three_week_profit: z
    .string()
    .describe("closed profit after fees in the window, USD as a decimal string with 2 decimals"),
  total_rate: z
    .number()
    .describe(
      "closed profit after fees since the start over the starting capital, percent (2 decimals)",
    ),
  total_trade_num: z.number().int().describe("positions closed since the start"),
  code: z.string().describe('the instrument traded most in the window (show code), "" when none'),
});
export type FollowStats = z.infer<typeof FollowStatsSchema>;

/** One trader of the ranking: its statistics and its daily figures (decision 0040). */
export const FollowItemSchema = FollowStatsSchema.extend({
  risk_score: z
    .number()
    .int()
    .nullable()
    .describe("the risk score of the latest daily computation, 1 to 10 (null: not computed yet)"),
  return_1m: z
    .number()
    .describe("closed profit after fees over the last month over the equity at its start, percent"),
  return_3m: z.number().describe("the same over the last 3 months, percent"),
  return_6m: z.number().describe("the same over the last 6 months, percent"),
  return_12m: z.number().describe("the same over the last 12 months, percent"),
  max_drawdown: z
    .number()
    .describe("largest fall of the closed equity curve from a previous peak, percent of that peak"),
  copiers: z.number().int().describe("copies of the provider not stopped"),
  months: z.number().int().describe("whole months since the provider began"),
  categories: z
    .array(z.number().int())
    .describe("category ids (GET /api/market/category) of the instruments traded"),
});
export type FollowItem = z.infer<typeof FollowItemSchema>;

export const followList = endpoint({
  data: z.array(FollowItemSchema),
  method: "GET",
  path: "/api/follow/list",
  auth: false,
  tag: "ranking",
  summary:
    "Strategy traders ranked by three_week_rate (highest first), with statistics of their closed positions",
  query: z.object({
    sort: z.preprocess(
      (v) => (v === undefined || v === null || v === "" ? RANK_SORT_DEFAULT : v),
      z.enum(RANK_SORTS),
    ),
    /** Only providers whose risk score is at most this (absent: any). */
    max_risk: optionalChoiceField(RISK_CHOICES, RISK_SCORE.max),
    /** Only providers with at least this many whole months of history (0: any). */
    min_months: optionalChoiceField(RANK_MIN_MONTHS, 0),
    /** Only providers that traded an instrument of this category. */
    category: optionalWholeField(ID_DIGITS),
    ...cacheBuster,
  }),
});

export const followFavourites = endpoint({
  data: z.array(z.number().int()).describe("the ids of the user's favourite providers"),
  method: "GET",
  path: "/api/follow/favourites",
  auth: true,
  tag: "ranking",
  summary: "The user's favourite providers (the ranking's star), as provider ids",
  query: z.object({ ...cacheBuster }),
});

export const followFavouriteSet = endpoint({
  data: z.array(z.number().int()).describe("the ids of the user's favourite providers, after"),
  method: "POST",
  path: "/api/follow/favourites",
  auth: true,
  tag: "ranking",
  summary: "Star a provider (on 1) or take its star away (on 0); at most RANK_FAVOURITES_MAX",
  body: z.object({
    provider_id: wholeField(ID_DIGITS),
    on: optionalChoiceField([0, 1], 1),
  }),
});

/** The risk disclosure the trading screens show (GET /api/risk/disclosure). */
export const RiskDisclosureSchema = z.object({
  show: z.boolean().describe("false when the operator turned the disclosure off"),
  text: z
    .string()
    .nullable()
    .describe("the operator's own text, shown instead of the figure; null: the figure's sentence"),
  losing_pct: z
    .number()
    .int()
    .nullable()
    .describe(
      "share of real retail accounts that lost money over the last 12 months, whole percent; null when none had a realised result",
    ),
  accounts: z.number().int().describe("the accounts the share is taken of"),
  day: z
    .string()
    .nullable()
    .describe('"YYYY-MM-DD" (UTC) of the computation, null before the first'),
});
export type RiskDisclosure = z.infer<typeof RiskDisclosureSchema>;

export const riskDisclosure = endpoint({
  data: RiskDisclosureSchema,
  method: "GET",
  path: "/api/risk/disclosure",
  auth: false,
  tag: "ranking",
  summary:
    "The share of retail accounts that lost money over the last 12 months, as the trading screens show it",
  query: z.object({ ...cacheBuster }),
});
