/**
 * The COPY_TRADE push (private): the user's copies not stopped, with their figures now. Sent as a
 * snapshot on subscribe, then at most once per TRADE_PUSH_INTERVAL_MS to each subscribed user one
 * of whose copies' accounts changed (a tick moved a copied position, a fill, a close, a transfer)
 * or whose copies a command changed (started, paused, resumed, stopped: a stopped copy leaves the
 * push), and to every user subscribed since the last flush (a client of another node gets its first
 * snapshot here, as FOREX_TRADE's does). Everything it sends comes from memory (the copies and the
 * provider names the copy service holds, the accounts the engine holds): the loop reads no store.
 */
import { TOPIC, TRADE_PUSH_INTERVAL_MS } from "@contract/constants";
import type { CopyTradePush } from "@contract/ws";
import type { DB } from "../../platform/db.js";
import type { Hub } from "../../platform/ws/hub.js";
import type { Engine } from "../trading/engine.js";
import type { CopyTrading } from "./service.js";
import { MICRO } from "../money/decimal.js";
import type { CopyRow } from "./store.js";
import { copyView } from "./views.js";

export class CopyPusher {
  private timer: NodeJS.Timeout | null;
  private seen = new Set<number>();
  /** Owners whose copies a command changed since the last flush. */
  private touched = new Set<number>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly hub: Hub,
    private readonly db: DB,
    private readonly engine: Engine,
    private readonly copies: CopyTrading,
    private readonly log: { error(obj: unknown, msg?: string): void },
    intervalMs: number = TRADE_PUSH_INTERVAL_MS,
  ) {
    this.unsubscribe = copies.onChange((userId) => this.touched.add(userId));
    hub.onSubscribe(
      (t) => t === TOPIC.COPY_TRADE,
      (_t, conn) => (conn.userId === null ? undefined : this.pushOf(conn.userId, true)),
    );
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  /** The push of a user's live copies; with `all`, also reads every account's changed flag. */
  private pushOf(userId: number, all: boolean): CopyTradePush {
    const live = this.copies.liveCopiesOf(userId);
    if (all) for (const c of live) this.engine.takeChanged(c.account_id);
    return this.viewOf(live);
  }

  /** The copies with their figures and each open copied position's price and profit now. */
  private viewOf(live: CopyRow[]): CopyTradePush {
    return {
      copies: live.map((c) => ({
        ...copyView(this.db, this.engine, c, this.copies.providerName(c.provider_id)),
        positions: this.engine.snapshot(c.account_id).positions.map((p) => ({
          id: p.id,
          price: p.price,
          profit: p.profitMicro / MICRO,
        })),
      })),
    };
  }

  flush(): void {
    const users = this.hub.subscribedUsers(TOPIC.COPY_TRADE);
    const seen = this.seen;
    this.seen = new Set(users);
    const touched = this.touched;
    this.touched = new Set();
    for (const userId of users) {
      try {
        const live = this.copies.liveCopiesOf(userId);
        // Every flag read (no short cut): each is cleared for the next flush.
        let changed = false;
        for (const c of live) changed = this.engine.takeChanged(c.account_id) || changed;
        if (!changed && seen.has(userId) && !touched.has(userId)) continue;
        this.hub.publishToUser(userId, TOPIC.COPY_TRADE, this.viewOf(live));
      } catch (err) {
        this.log.error({ err }, "COPY_TRADE push failed");
      }
    }
  }

  stop(): void {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
