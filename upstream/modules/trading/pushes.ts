/**
 * The private FOREX_TRADE push: its content (account figures and every open position at the current
 * price), a snapshot on subscribe, and delivery throttled to one push per user per interval, only to
 * users whose account changed; plus FOREX_CLOSED, the ids of positions closed for a user.
 */
import type { Hub } from "../../platform/ws/hub.js";
import { microToNumber } from "../money/decimal.js";
import type { Pricing } from "./pricing.js";
import type { Account, AccountValues } from "./accounts.js";

export const PUSH_INTERVAL_MS = 250;

export interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface TradePush {
  ProfitsTotal: number;
  HazardRate: number | null;
  CautionMoneyAll: number;
  Balance: number;
  Total: number;
  CanUse: number;
  MarginCall: boolean;
  TransOrder: { Id: number; UpdatePrice: number; FactProfits: number }[];
}

/** The FOREX_TRADE push of an account from its values; `a` undefined: no position loaded. */
export function tradePushOf(v: AccountValues & { marginCall: boolean; floatingMicro: number }, a: Account | undefined, pricing: Pricing): TradePush {
  const trans: TradePush["TransOrder"] = [];
  if (a) {
    for (const p of a.positions) {
      trans.push({ Id: p.id, UpdatePrice: pricing.price(p.inst) ?? p.openPrice, FactProfits: microToNumber(pricing.floatingMicroOf(p)) });
    }
    trans.sort((x, y) => y.Id - x.Id);
  }
  return {
    ProfitsTotal: microToNumber(v.floatingMicro),
    HazardRate: v.HazardRate,
    CautionMoneyAll: v.all_caution_money,
    Balance: v.balance,
    Total: v.total,
    CanUse: v.can_use,
    MarginCall: v.marginCall,
    TransOrder: trans,
  };
}

/** What the pusher needs of the engine. */
export interface PushSource {
  /** Picks up balance changes made by other areas (deposits, withdrawals). */
  syncBalances(): void;
  /** Clears the push-due flag of the user's account; true when it was set. */
  takeDirty(userId: number): boolean;
  tradePush(userId: number): TradePush;
}

export class TradePusher {
  private timer: NodeJS.Timeout | null;

  constructor(
    private readonly hub: Hub,
    private readonly src: PushSource,
    private readonly log: Logger,
    intervalMs: number = PUSH_INTERVAL_MS,
  ) {
    hub.onSubscribe(
      (t) => t === "FOREX_TRADE",
      (_t, conn) => (conn.userId === null ? undefined : src.tradePush(conn.userId)),
    );
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Pushes FOREX_TRADE to every subscribed user whose account changed since the last push. */
  flush(): void {
    const users = this.hub.subscribedUsers("FOREX_TRADE");
    if (users.length === 0) return;
    try {
      this.src.syncBalances(); // deposits and withdrawals show even while no instrument ticks
    } catch (err) {
      this.log.error({ err }, "ledger sync failed");
      return;
    }
    for (const userId of users) {
      if (!this.src.takeDirty(userId)) continue;
      try {
        this.hub.publishToUser(userId, "FOREX_TRADE", this.src.tradePush(userId));
      } catch (err) {
        this.log.error({ err }, "FOREX_TRADE push failed");
      }
    }
  }

  /** FOREX_CLOSED to the user: positions closed by the engine or another session. */
  closed(userId: number, ids: number[]): void {
    if (ids.length) this.hub.publishToUser(userId, "FOREX_CLOSED", { ids });
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
