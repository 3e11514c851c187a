/**
 * The ranking's statistics of one trader, from its closed positions (product-spec.md section 3):
 * pure functions over integer micro-USD, so that the figures are exact and testable by hand.
 *
 * Definitions (written down once; upstream/API.md "Ranking" repeats them for readers):
 * - net of a position = profit_micro - fee_micro (its realised profit after its fee);
 * - window = the RANK_WINDOW_DAYS days up to now (closed_at > now - window);
 * - three_week_profit = Σ net in the window;
 * - three_week_rate = three_week_profit / equity at the window's start × 100, where that equity
 *   is the starting capital plus Σ net of the positions closed before the window;
 * - three_week_win = positions in the window with net > 0 / positions in the window × 100;
 * - total_rate = Σ net of every position / starting capital × 100; total_trade_num = their count;
 * - multiple = the leverage used most in the window (ties: the higher), all time when the window
 *   is empty; code = the instrument closed most in the window (ties: the one closed last).
 * store.ts sums the positions in SQL (TraderTotals); traderStats turns the sums into figures.
 * Percentages are rounded half away from zero to 2 decimals (display values).
 */
import { RANK_WINDOW_DAYS, type FollowItem } from "@contract/api/follow";

export const RANK_WINDOW_MS = RANK_WINDOW_DAYS * 24 * 60 * 60 * 1000;

/** a / b × 100 rounded half away from zero to 2 decimals; 0 when b is not positive. */
export function percent(a: number, b: number): number {
  if (!(b > 0)) return 0;
  const hundredths = Math.round((Math.abs(a) * 10_000) / b);
  return (Math.sign(a) * hundredths) / 100 || 0;
}

/** Micro-USD as USD with 2 decimals ("-12.35"), rounded half away from zero. */
export function usd2(micro: number): string {
  const cents = Math.round(Math.abs(micro) / 10_000);
  const sign = micro < 0 && cents > 0 ? "-" : "";
  return `${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** What the statistics need of one trader's closed positions (store.ts sums them in SQL). */
export interface TraderTotals {
  /** Σ net, count and count with net > 0 of the positions closed in the window. */
  windowNetMicro: number;
  windowCount: number;
  windowWins: number;
  /** Σ net of the positions closed before the window. */
  beforeNetMicro: number;
  /** Count of every closed position. */
  totalCount: number;
  /** Leverage used most in the window, else of all time (null: nothing closed). */
  multiple: number | null;
  /** Show code closed most in the window (null: nothing closed in it). */
  code: string | null;
}

export function traderStats(
  id: number,
  name: string,
  startCapitalMicro: number,
  t: TraderTotals,
): FollowItem {
  const startEquity = startCapitalMicro + t.beforeNetMicro;
  return {
    id,
    user: name,
    multiple: t.multiple ?? 0,
    three_week_rate: percent(t.windowNetMicro, startEquity),
    three_week_win: percent(t.windowWins, t.windowCount),
    three_week_profit: usd2(t.windowNetMicro),
    total_rate: percent(t.beforeNetMicro + t.windowNetMicro, startCapitalMicro),
    total_trade_num: t.totalCount,
    code: t.code ?? "",
  };
}

/** Highest three-week rate first; then the higher total rate, then the name. */
export function rank(items: FollowItem[]): FollowItem[] {
  return [...items].sort(
    (a, b) =>
      b.three_week_rate - a.three_week_rate ||
      b.total_rate - a.total_rate ||
      a.user.localeCompare(b.user),
  );
}
