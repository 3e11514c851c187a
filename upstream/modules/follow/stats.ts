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
 *
 * The same definitions serve every other reader of closed positions, so that a figure means one
 * thing wherever it shows: a provider's page (its win rate, its closed equity curve and drawdown)
 * and a user's own statistics (/mine/stats: ClosedTally, tradeFigures, closedCurve), all summed by
 * the one query of store.ts (closedGroups). A win is a position with net > 0, a loss one with
 * net < 0 (a position at exactly 0 is neither).
 */
import { RANK_WINDOW_DAYS, type FollowStats } from "@contract/api/follow";
import { microText, type TradeFigures } from "@contract/api/statements";

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
): FollowStats {
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
export function rank<T extends FollowStats>(items: T[]): T[] {
  return [...items].sort(
    (a, b) =>
      b.three_week_rate - a.three_week_rate ||
      b.total_rate - a.total_rate ||
      a.user.localeCompare(b.user),
  );
}

/**
 * The sums of a set of closed positions (store.ts closedGroups adds them up in SQL, per leverage
 * and instrument; addTally adds two sets).
 */
export interface ClosedTally {
  count: number;
  wins: number;
  losses: number;
  /** Σ net, Σ net of the wins, Σ net of the losses (micro-USD). */
  netMicro: number;
  winNetMicro: number;
  lossNetMicro: number;
  /** The largest and the smallest net (null: no position). */
  bestMicro: number | null;
  worstMicro: number | null;
  /** Σ (closed_at − opened_at), ms. */
  heldMs: number;
}

export const NO_TALLY: ClosedTally = {
  count: 0,
  wins: 0,
  losses: 0,
  netMicro: 0,
  winNetMicro: 0,
  lossNetMicro: 0,
  bestMicro: null,
  worstMicro: null,
  heldMs: 0,
};

const pick = (a: number | null, b: number | null, f: (x: number, y: number) => number) =>
  a === null ? b : b === null ? a : f(a, b);

export function addTally(a: ClosedTally, b: ClosedTally): ClosedTally {
  return {
    count: a.count + b.count,
    wins: a.wins + b.wins,
    losses: a.losses + b.losses,
    netMicro: a.netMicro + b.netMicro,
    winNetMicro: a.winNetMicro + b.winNetMicro,
    lossNetMicro: a.lossNetMicro + b.lossNetMicro,
    bestMicro: pick(a.bestMicro, b.bestMicro, Math.max),
    worstMicro: pick(a.worstMicro, b.worstMicro, Math.min),
    heldMs: a.heldMs + b.heldMs,
  };
}

/** a / n rounded half away from zero to an integer; 0 when n is not positive. */
export function meanOf(a: number, n: number): number {
  if (!(n > 0)) return 0;
  return Math.sign(a) * Math.round(Math.abs(a) / n) || 0;
}

/**
 * The figures of a set of closed positions: count, wins and losses, win rate (percent: wins over
 * all), Σ net, the mean net of the wins and of the losses, the largest win and loss (0 without
 * one), the mean holding time in whole seconds. Money exact (micro-USD), means rounded half away
 * from zero to the micro-dollar.
 */
export function tradeFigures(t: ClosedTally): TradeFigures {
  const best = t.bestMicro !== null && t.bestMicro > 0 ? t.bestMicro : 0;
  const worst = t.worstMicro !== null && t.worstMicro < 0 ? t.worstMicro : 0;
  return {
    trades: t.count,
    wins: t.wins,
    losses: t.losses,
    win_rate: percent(t.wins, t.count),
    net_profit: microText(t.netMicro),
    average_win: microText(meanOf(t.winNetMicro, t.wins)),
    average_loss: microText(meanOf(t.lossNetMicro, t.losses)),
    largest_win: microText(best),
    largest_loss: microText(worst),
    average_holding_s: meanOf(t.heldMs, t.count * 1000),
  };
}

/**
 * The closed equity curve: from `startMicro`, each close's net added in the order of the closes
 * (`nets`, oldest first), one point per close; its largest fall below a previous peak, in
 * micro-USD and in percent of that peak (2 decimals; peaks at or below 0 give no percentage).
 * A provider's page draws it from its start capital; a user's own statistics from 0 (their
 * trading's running result, without deposits and withdrawals).
 */
export function closedCurve(
  startMicro: number,
  nets: readonly { closed_at: number; net: number }[],
): { points: [number, number][]; maxDrawdownMicro: number; maxDrawdownPct: number } {
  const points: [number, number][] = [];
  let equity = startMicro;
  let peak = equity;
  let maxFall = 0;
  let maxRatio = 0;
  for (const n of nets) {
    equity += n.net;
    peak = Math.max(peak, equity);
    maxFall = Math.max(maxFall, peak - equity);
    if (peak > 0) maxRatio = Math.max(maxRatio, (peak - equity) / peak);
    points.push([n.closed_at, equity]);
  }
  return {
    points,
    maxDrawdownMicro: maxFall,
    maxDrawdownPct: Math.round(maxRatio * 10_000) / 100,
  };
}

/** One UTC day in ms; a day's index is ⌊ms ÷ DAY_MS⌋ (days since 1970-01-01). */
export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The closed equity day by day, from `equity0` at the start of day `firstDay` to the end of day
 * `lastDay`, each day's closed net (`nets`, by day index; a day without closes adds 0) added in
 * turn: the equity at the start of each day, and each day's return (its net over that equity; −1,
 * all lost, when that equity is not above 0).
 */
export function dailyEquity(
  equity0: number,
  firstDay: number,
  lastDay: number,
  nets: ReadonlyMap<number, number>,
): { starts: number[]; returns: number[] } {
  const starts: number[] = [];
  const returns: number[] = [];
  let equity = equity0;
  for (let d = firstDay; d <= lastDay; d++) {
    const net = nets.get(d) ?? 0;
    starts.push(equity);
    returns.push(equity > 0 ? net / equity : -1);
    equity += net;
  }
  return { starts, returns };
}

/** "YYYY-MM" (UTC) of a day index. */
export const monthOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 7);

/**
 * Each month's return (percent, stats' `percent`): the net closed in the month over the closed
 * equity at its start, from `startMicro` and the day nets of every close (oldest first); months
 * without a close between the first and the last are 0.
 */
export function monthlyReturns(
  startMicro: number,
  dayNets: readonly { day: number; net: number }[],
): { month: string; rate: number }[] {
  const out: { month: string; rate: number }[] = [];
  let equity = startMicro;
  let current = null as { month: string; start: number; net: number } | null;
  const close = () => {
    if (current) out.push({ month: current.month, rate: percent(current.net, current.start) });
  };
  for (const { day, net } of dayNets) {
    const month = monthOfDay(day);
    if (current?.month !== month) {
      close();
      if (current)
        for (const m of monthsBetween(current.month, month)) out.push({ month: m, rate: 0 });
      current = { month, start: equity, net: 0 };
    }
    current.net += net;
    equity += net;
  }
  close();
  return out;
}

/** The months strictly between two "YYYY-MM" months. */
function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const [y, m] = from.split("-").map(Number);
  for (let i = 1; ; i++) {
    const next = new Date(Date.UTC(y, m - 1 + i, 1)).toISOString().slice(0, 7);
    if (next >= to) return out;
    out.push(next);
  }
}

/** Whole calendar months from `fromMs` to `toMs` (UTC; 0 when not later). */
export function wholeMonths(fromMs: number, toMs: number): number {
  if (!(toMs > fromMs)) return 0;
  const a = new Date(fromMs);
  const b = new Date(toMs);
  let n = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
  // A month counts once its day of the month and time of day are reached again.
  const inMonth = (d: Date) => d.getUTCDate() * DAY_MS + (d.getTime() % DAY_MS);
  if (inMonth(b) < inMonth(a)) n--;
  return Math.max(0, n);
}

/** The day index `months` calendar months before day `day` (UTC). */
export function monthsBefore(day: number, months: number): number {
  const d = new Date(day * DAY_MS);
  return Math.floor(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, d.getUTCDate()) / DAY_MS,
  );
}
