/**
 * Providers' daily figures and the risk disclosure (decision 0040, docs/trading-rules.md "Risk
 * score" and "Risk disclosure"), computed on the leader once per UTC day.
 *
 * At start and every EVERY_MS the leader looks at the current UTC day (from its clock, `now`,
 * injected so that tests set it): each provider without figures of that day gets them, computed
 * from its history up to that moment, and the day's risk disclosure is computed when it has not
 * been. A day's row is written once (the first run of the day) through the sequencer; its key
 * (provider, day) makes a second run, or a second node, write nothing.
 *
 * A provider's figures: its risk score (contract/api/rank-rules.ts riskScore) from the daily
 * returns of its closed equity over the last RISK_WINDOW_DAYS days (from its first day when it
 * began later), the mean leverage and the share of its most traded instrument among the positions
 * closed in that time; its returns over 1, 3, 6 and 12 months; its maximum drawdown (the closed
 * equity curve of its page); the categories of the instruments it traded. When the score is at
 * least RISK_RISE_NOTIFY above that of its previous computed day, every follower (an owner of a
 * copy not stopped) is told (notice copy_risk_rise), in the same transaction as the row.
 */
import {
  RANK_RETURN_MONTHS,
  RISK_RISE_NOTIFY,
  RISK_WINDOW_DAYS,
  annualisedVolatility,
  riskScore,
} from "@contract/api/rank-rules";
import type { DB } from "../../platform/db.js";
import { PeriodicJob, type StoreJobDeps } from "../../platform/periodic.js";
import { notify } from "../notify/notices.js";
import { closedCurve, DAY_MS, dailyEquity, monthsBefore, percent } from "./stats.js";
import { closedGroups, closedNets, closedUpTo } from "./store.js";
import {
  closedNetsByDay,
  followersOf,
  hasDaily,
  insertDaily,
  insertDisclosure,
  instrumentCategories,
  latestDailyOf,
  latestDisclosure,
  losingAccounts,
  markNotified,
  providerRows,
  type DailyFigures,
  type ProviderStart,
} from "./risk-store.js";

/** How often the leader looks for a day not yet computed. */
export const EVERY_MS = 60 * 60 * 1000;

/** The latest closes a provider's curve and drawdown read (the rest as totals). */
export const PROVIDER_CURVE_WINDOW = 5_000;

/**
 * The closed equity curve of a provider's page, over its latest `window` closes from the equity
 * before them, with its largest fall from a peak; and the sums of every close.
 */
export function providerCurve(
  db: DB,
  p: { user_id: number; start_capital_micro: number },
  window = PROVIDER_CURVE_WINDOW,
) {
  const closed = closedUpTo(db, p.user_id);
  const nets = closedNets(db, p.user_id, window);
  const windowNet = nets.reduce((a, n) => a + n.net, 0);
  const curve = closedCurve(p.start_capital_micro + closed.netMicro - windowNet, nets);
  return { closed, ...curve };
}

/** The score's leverage and concentration of the positions closed over (afterMs, uptoMs]. */
function exposure(db: DB, userId: number, afterMs: number, uptoMs: number) {
  let count = 0;
  let leverageSum = 0;
  const perInstrument = new Map<number, number>();
  for (const g of closedGroups(db, userId, afterMs, uptoMs)) {
    count += g.tally.count;
    leverageSum += g.leverage * g.tally.count;
    perInstrument.set(g.instrumentId, (perInstrument.get(g.instrumentId) ?? 0) + g.tally.count);
  }
  const top = Math.max(0, ...perInstrument.values());
  return {
    leverage: count > 0 ? leverageSum / count : 0,
    concentration: count > 0 ? top / count : 0,
  };
}

/** A provider's figures of the day of `nowMs`, from its history up to `nowMs`. */
export function providerFigures(
  db: DB,
  p: ProviderStart,
  nowMs: number,
  categories: ReadonlyMap<number, number>,
): Omit<DailyFigures, "notified_at"> {
  const today = Math.floor(nowMs / DAY_MS);
  const firstDay = Math.max(today - RISK_WINDOW_DAYS + 1, Math.floor(p.created_at / DAY_MS));
  const fromMs = firstDay * DAY_MS;
  const equity0 = p.start_capital_micro + closedUpTo(db, p.user_id, fromMs).netMicro;
  const nets = new Map(closedNetsByDay(db, p.user_id, fromMs, nowMs).map((n) => [n.day, n.net]));
  const { starts, returns } = dailyEquity(equity0, firstDay, today, nets);
  const { leverage, concentration } = exposure(db, p.user_id, fromMs, nowMs);
  const endEquity = starts[starts.length - 1] + (nets.get(today) ?? 0);
  const returnOver = (months: number) => {
    const i = Math.max(0, monthsBefore(today, months) - firstDay);
    return percent(endEquity - starts[i], starts[i]);
  };
  const [r1, r3, r6, r12] = RANK_RETURN_MONTHS.map(returnOver);
  const { closed, maxDrawdownPct } = providerCurve(db, p);
  const traded = new Set(
    Object.keys(closed.instruments)
      .map((id) => categories.get(Number(id)))
      .filter((c) => c !== undefined),
  );
  return {
    user_id: p.user_id,
    day: today,
    risk_score: riskScore({ dailyReturns: returns, leverage, concentration }),
    volatility: Math.round(annualisedVolatility(returns) * 100) / 100,
    leverage: Math.round(leverage * 10) / 10,
    concentration: Math.round(concentration * 100) / 100,
    return_1m: r1,
    return_3m: r3,
    return_6m: r6,
    return_12m: r12,
    max_drawdown: maxDrawdownPct,
    categories: JSON.stringify([...traded].sort((a, b) => a - b)),
    computed_at: nowMs,
  };
}

/** Writes a provider's day and tells its followers of a rise; in the caller's transaction. */
function recordDay(db: DB, f: Omit<DailyFigures, "notified_at">, name: string): boolean {
  if (hasDaily(db, f.user_id, f.day)) return false;
  const before = latestDailyOf(db, f.user_id);
  insertDaily(db, f);
  if (before && before.day < f.day && f.risk_score - before.risk_score >= RISK_RISE_NOTIFY) {
    for (const userId of followersOf(db, f.user_id))
      notify(db, {
        userId,
        kind: "copy_risk_rise",
        params: { name, from: before.risk_score, to: f.risk_score },
        at: f.computed_at,
      });
    markNotified(db, f.user_id, f.day, f.computed_at);
  }
  return true;
}

export class DailyRisk {
  private readonly job: PeriodicJob<number>;
  private readonly now: () => number;
  private stopped = false;
  private current: Promise<number> | null = null;

  constructor(private readonly d: StoreJobDeps & { everyMs?: number }) {
    this.now = d.now ?? Date.now;
    this.job = new PeriodicJob(
      () => (this.current = this.work()),
      d.everyMs ?? EVERY_MS,
      d.onError,
    );
  }

  /** Computes what the current day still lacks (or joins the run under way); providers written. */
  run(): Promise<number> {
    return this.job.run();
  }

  start(): void {
    this.stopped = false;
    this.job.start({ now: true });
  }

  /** Stops the timer and waits for a run under way, which sends no command after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.job.stop();
    await this.current?.catch(() => 0);
  }

  private async work(): Promise<number> {
    const now = this.now();
    const { db } = this.d;
    const today = Math.floor(now / DAY_MS);
    const categories = instrumentCategories(db);
    let written = 0;
    for (const p of providerRows(db)) {
      if (this.stopped) return written;
      if (hasDaily(db, p.user_id, today)) continue;
      const f = providerFigures(db, p, now, categories);
      if (await this.d.run(() => db.transaction(() => recordDay(db, f, p.name))())) written++;
    }
    if (!this.stopped && (latestDisclosure(db)?.day ?? -1) < today) {
      const { accounts, losing } = losingAccounts(db, now - RISK_WINDOW_DAYS * DAY_MS, now);
      await this.d.run(() =>
        insertDisclosure(db, { day: today, accounts, losing, computed_at: now }),
      );
    }
    return written;
  }
}
