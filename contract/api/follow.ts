/**
 * The trader ranking (/rank, upstream/API.md "Ranking"): strategy traders' statistics computed from
 * their closed positions, never stored figures.
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";

/** The "three weeks" of the ranking's statistics, in days. */
export const RANK_WINDOW_DAYS = 21;

/** One trader of the ranking (product-spec.md section 3, "Follow/ranking item"). */
export interface FollowItem {
  /** The provider's id (GET /api/follow/provider?id=, POST /api/follow/copy provider_id). */
  id: number;
  /** The trader's display name (never an e-mail). */
  user: string;
  /** The leverage used most in the window (all time when nothing closed in it). */
  multiple: number;
  /** Closed profit after fees in the window over the equity at its start, percent (2 decimals). */
  three_week_rate: number;
  /** Share of the window's closed positions with a profit after fees, percent (2 decimals). */
  three_week_win: number;
  /** Closed profit after fees in the window, USD as a decimal string with 2 decimals. */
  three_week_profit: string;
  /** Closed profit after fees since the start over the starting capital, percent (2 decimals). */
  total_rate: number;
  /** Positions closed since the start. */
  total_trade_num: number;
  /** The instrument traded most in the window (show code), "" when none. */
  code: string;
}

export const followList = endpoint<FollowItem[]>()({
  method: "GET",
  path: "/api/follow/list",
  auth: false,
  tag: "ranking",
  summary:
    "Strategy traders ranked by three_week_rate (highest first), with statistics of their closed positions",
  query: z.object({ ...cacheBuster }),
});
