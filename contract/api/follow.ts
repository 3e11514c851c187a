/**
 * The trader ranking (/rank, upstream/API.md "Ranking"): strategy traders' statistics computed from
 * their closed positions, never stored figures.
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";

/** The "three weeks" of the ranking's statistics, in days. */
export const RANK_WINDOW_DAYS = 21;

/** One trader of the ranking (product-spec.md section 3, "Follow/ranking item"). */
export const FollowItemSchema = z.object({
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
export type FollowItem = z.infer<typeof FollowItemSchema>;

export const followList = endpoint({
  data: z.array(FollowItemSchema),
  method: "GET",
  path: "/api/follow/list",
  auth: false,
  tag: "ranking",
  summary:
    "Strategy traders ranked by three_week_rate (highest first), with statistics of their closed positions",
  query: z.object({ ...cacheBuster }),
});
