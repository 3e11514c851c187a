/**
 * The private websocket pushes of trading, wired to the engine from outside it: FOREX_CLOSED on the
 * engine's positionsClosed event, and FOREX_TRADE (account figures and every open position at the
 * current price) as a snapshot on subscribe and then throttled to one push per user per interval,
 * only to users whose account changed.
 */
import { TOPIC, TRADE_PUSH_INTERVAL_MS } from "@contract/constants";
import type { Hub } from "../../platform/ws/hub.js";
import type { Engine } from "./engine.js";
import { tradePushView } from "./views.js";

export const PUSH_INTERVAL_MS = TRADE_PUSH_INTERVAL_MS;

export interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export class TradePusher {
  private timer: NodeJS.Timeout | null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly hub: Hub,
    private readonly engine: Engine,
    private readonly log: Logger,
    intervalMs: number = PUSH_INTERVAL_MS,
  ) {
    hub.onSubscribe(
      (t) => t === TOPIC.FOREX_TRADE,
      (_t, conn) =>
        conn.userId === null ? undefined : tradePushView(engine.snapshot(conn.userId)),
    );
    this.unsubscribe = engine.events.on("positionsClosed", (e) =>
      hub.publishToUser(e.userId, TOPIC.FOREX_CLOSED, { ids: e.orderIds }),
    );
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Users subscribed at the last flush. */
  private seen = new Set<number>();

  /**
   * Pushes FOREX_TRADE to every subscribed user whose account changed since the last push, and to
   * every user subscribed since the last flush: a client of another upstream node, which gets no
   * snapshot on subscribe from that node (only this one holds the engine), gets it here.
   */
  flush(): void {
    const users = this.hub.subscribedUsers(TOPIC.FOREX_TRADE);
    const seen = this.seen;
    this.seen = new Set(users);
    for (const userId of users) {
      const changed = this.engine.takeChanged(userId);
      if (!changed && seen.has(userId)) continue;
      try {
        this.hub.publishToUser(
          userId,
          TOPIC.FOREX_TRADE,
          tradePushView(this.engine.snapshot(userId)),
        );
      } catch (err) {
        this.log.error({ err }, "FOREX_TRADE push failed");
      }
    }
  }

  stop(): void {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
