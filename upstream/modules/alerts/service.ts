/**
 * Price alerts on the leading node: the armed alerts in memory (index.ts), checked on every tick of
 * the feed; what a tick reaches is disarmed at once (so a tick cannot fire an alert twice) and
 * booked as a command of the sequencer: the alert's firing recorded and its notice (kind
 * price_alert) written in one transaction. A one-off alert ends; an `every` alert is armed again
 * once its cool-down has passed. An alert past its last day ends without firing (at its next reach,
 * or by the sweep every SWEEP_MS).
 *
 * Invariants: an active alert of the store is armed or cooling on the leader (one just made is armed
 * before its answer; one removed is disarmed with it); a disarmed alert is booked by exactly one
 * command.
 */
import {
  ALERT_COOLDOWN_MIN,
  ALERT_PERCENT,
  type AlertCondition,
  type AlertRepeat,
} from "@contract/api/alerts-rules";
import type { PriceAlert } from "@contract/api/alerts";
import type { DB } from "../../platform/db.js";
import { DomainError } from "../../platform/errors.js";
import { getNumberSetting } from "../../platform/settings.js";
import { wireTime } from "../../platform/wire.js";
import type { PriceFeed, Quote } from "../market/feed.js";
import { notify } from "../notify/notices.js";
import { AlertIndex, type Armed } from "./index.js";
import {
  activeAlertCount,
  activeAlerts,
  alertById,
  deleteAlert,
  endAlert,
  insertAlert,
  markAlertFired,
  type AlertRow,
} from "./store.js";

/** How often alerts past their last day are ended, when no tick reached them. */
export const SWEEP_MS = 10 * 60_000;
const DAY_MS = 24 * 3600_000;

/** An alert reached by a tick, with what reached it. */
interface Reached {
  a: Armed;
  price: number;
  changePct: number;
}

export interface PriceAlertsDeps {
  db: DB;
  feed: PriceFeed;
  /** Runs a command as the sequencer's (resolves once its batch is durable). */
  run(command: () => void): Promise<unknown>;
  log: { error(obj: unknown, msg?: string): void };
  now?: () => number;
}

export interface NewAlert {
  instrumentId: number;
  condition: AlertCondition;
  /** As typed: the price, or the percentage for `change`. */
  target: string;
  repeat: AlertRepeat;
  cooldownMin?: number;
  /** YYYY-MM-DD: the last day (UTC) it may fire. */
  until?: string;
}

export function alertView(r: AlertRow): PriceAlert {
  return {
    id: r.id,
    forex_id: r.instrument_id,
    code: r.code,
    condition: r.condition as AlertCondition,
    target: r.target,
    repeat: r.repeat_every ? "every" : "once",
    cooldown_min: Math.round(r.cooldown_s / 60),
    expires_at: wireTime(r.expires_at),
    active: r.active === 1,
    fired_at: wireTime(r.fired_at),
    created_at: wireTime(r.created_at),
  };
}

const armedOf = (r: AlertRow): Armed => ({
  id: r.id,
  userId: r.user_id,
  instrumentId: r.instrument_id,
  code: r.code,
  condition: r.condition as AlertCondition,
  target: r.target,
  repeat: r.repeat_every === 1,
  cooldownMs: r.cooldown_s * 1000,
  expiresAt: r.expires_at,
});

export class PriceAlerts {
  readonly index = new AlertIndex();
  /** Fired `every` alerts waiting for their cool-down, soonest first. */
  private cooling: { a: Armed; readyAt: number }[] = [];
  private readonly now: () => number;
  private unsubscribe: (() => void) | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(private readonly d: PriceAlertsDeps) {
    this.now = d.now ?? Date.now;
  }

  /** Arms every active alert of the store and follows the feed. */
  start(): void {
    for (const r of activeAlerts(this.d.db)) this.index.add(armedOf(r));
    this.unsubscribe = this.d.feed.onTick((changed) => this.onTick(changed));
    this.sweepTimer = setInterval(() => this.sweepExpired(), SWEEP_MS);
    this.sweepTimer.unref();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }

  /** Makes an alert of `userId` (armed before the answer). */
  create(userId: number, n: NewAlert): PriceAlert {
    const db = this.d.db;
    const target = Number(n.target);
    if (!(target > 0)) throw new DomainError("alerts.target_invalid");
    if (n.condition === "change" && !(target >= ALERT_PERCENT.min && target <= ALERT_PERCENT.max))
      throw new DomainError("alerts.percent_range", undefined, {
        min: ALERT_PERCENT.min,
        max: ALERT_PERCENT.max,
      });
    const cooldownMin = n.cooldownMin ?? ALERT_COOLDOWN_MIN.default;
    if (cooldownMin < ALERT_COOLDOWN_MIN.min || cooldownMin > ALERT_COOLDOWN_MIN.max)
      throw new DomainError("alerts.cooldown_invalid");
    const now = this.now();
    const expiresAt = n.until ? Date.parse(`${n.until}T00:00:00Z`) + DAY_MS - 1 : null;
    if (expiresAt !== null && (!Number.isFinite(expiresAt) || expiresAt <= now))
      throw new DomainError("alerts.until_invalid");
    const max = getNumberSetting(db, "alerts.max_active", 50);
    const row = db.transaction(() => {
      if (!this.d.feed.quote(n.instrumentId)) throw new DomainError("alerts.instrument_invalid");
      if (activeAlertCount(db, userId) >= max)
        throw new DomainError("alerts.too_many", undefined, { count: max });
      const id = insertAlert(db, {
        userId,
        instrumentId: n.instrumentId,
        condition: n.condition,
        target,
        repeatEvery: n.repeat === "every" ? 1 : 0,
        cooldownS: cooldownMin * 60,
        expiresAt,
        at: now,
      });
      return alertById(db, id)!;
    })();
    this.index.add(armedOf(row));
    return alertView(row);
  }

  /** Removes one of the user's alerts (refused when the user has none by that id). */
  remove(userId: number, id: number): void {
    if (!deleteAlert(this.d.db, { id, userId })) throw new DomainError("alerts.not_found");
    this.index.remove(id);
    this.cooling = this.cooling.filter((c) => c.a.id !== id);
  }

  /** The tick: re-arms what has cooled down, disarms what the prices reach and books it. */
  onTick(changed: Quote[]): void {
    const now = this.now();
    if (this.cooling.length > 0 && this.cooling[0].readyAt <= now) this.rearm(now);
    if (this.index.size === 0) return;
    let reached: Reached[] | null = null;
    const taken: Armed[] = [];
    for (let k = 0; k < changed.length; k++) {
      const q = changed[k];
      if (!(q.price > 0)) continue;
      this.index.take(q.id, q.price, q.change, taken);
      if (taken.length === 0) continue;
      reached ??= [];
      for (const a of taken) reached.push({ a, price: q.price, changePct: q.change });
      taken.length = 0;
    }
    if (reached) {
      const r = reached;
      this.d
        .run(() => this.book(r))
        .catch((err) => this.d.log.error({ err }, "price alerts not booked"));
    }
  }

  /** Records each reached alert's firing with its notice (one that ended meanwhile is skipped). */
  private book(reached: Reached[]): void {
    const db = this.d.db;
    const now = this.now();
    db.transaction(() => {
      for (const { a, price, changePct } of reached) {
        if (a.expiresAt !== null && now > a.expiresAt) {
          endAlert(db, a.id);
          continue;
        }
        if (!markAlertFired(db, { id: a.id, at: now, active: a.repeat ? 1 : 0 })) continue;
        notify(db, {
          userId: a.userId,
          kind: "price_alert",
          params: {
            variant: a.condition,
            code: a.code,
            target: a.target,
            price,
            change: Math.round(changePct * 100) / 100,
          },
          at: now,
        });
        if (a.repeat) this.cool(a, now + a.cooldownMs);
      }
    })();
  }

  private cool(a: Armed, readyAt: number): void {
    this.cooling.push({ a, readyAt });
    this.cooling.sort((x, y) => x.readyAt - y.readyAt);
  }

  private rearm(now: number): void {
    let i = 0;
    while (i < this.cooling.length && this.cooling[i].readyAt <= now) i++;
    for (const { a } of this.cooling.splice(0, i)) this.index.add(a);
  }

  /** Ends the armed alerts past their last day. */
  sweepExpired(): void {
    const now = this.now();
    const ended = [...this.index.all()].filter((a) => a.expiresAt !== null && a.expiresAt < now);
    if (ended.length === 0) return;
    for (const a of ended) this.index.remove(a.id);
    this.d
      .run(() => {
        this.d.db.transaction(() => {
          for (const a of ended) endAlert(this.d.db, a.id);
        })();
      })
      .catch((err) => this.d.log.error({ err }, "expired price alerts not ended"));
  }
}
