/**
 * The margin-call notice: on the leader, every WATCH_MS, the margin level of every account that
 * holds margin (the engine's hot-path figures) is compared with the margin-call level
 * (risk.margin_call_pct); an account whose level has fallen to it or below since the last look is
 * told once (a `margin_call` notification, written as a command of the sequencer), and told again
 * only after its level has been above the line. A restart forgets who was told: an account still
 * below is told once more.
 */
import type { DB } from "../../platform/db.js";
import type { Engine } from "../trading/engine.js";
import { notify } from "./notices.js";

export const WATCH_MS = 1_000;

export interface MarginCallDeps {
  db: DB;
  engine: Engine;
  run(command: () => void): Promise<unknown>;
  /** Whether an account is a person's own (a copy's account and a strategy trader's are not). */
  isPerson(userId: number): boolean;
  log: { error(obj: unknown, msg?: string): void };
}

export class MarginCallWatch {
  /** Accounts told, whose level has not been above the margin-call level since. */
  private readonly told = new Set<number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly d: MarginCallDeps) {}

  start(): void {
    this.timer = setInterval(() => this.look(), WATCH_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look at every account's level; books the notices of those that just crossed. */
  look(): void {
    const callPct = this.d.engine.settings().marginCallPct;
    const below = new Map<number, number>();
    this.d.engine.marginLevels((userId, level) => {
      if (level <= callPct) below.set(userId, level);
    });
    for (const userId of this.told) if (!below.has(userId)) this.told.delete(userId);
    const fresh = [...below].filter(([userId]) => !this.told.has(userId));
    if (fresh.length === 0) return;
    for (const [userId] of fresh) this.told.add(userId);
    this.d
      .run(() => {
        this.d.db.transaction(() => {
          for (const [userId, level] of fresh)
            if (this.d.isPerson(userId))
              notify(this.d.db, {
                userId,
                kind: "margin_call",
                params: { level: Math.round(level * 100) / 100, call: callPct },
              });
        })();
      })
      .catch((err) => this.d.log.error({ err }, "margin-call notices not written"));
  }
}
