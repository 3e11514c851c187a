/**
 * The expiry of pending orders (trading-rules.md "Pending-order expiry"): on the leader, every
 * SWEEP_MS, the engine's pending orders with an expiry are looked at in memory, and when one has
 * reached it the cancellation (reason `expired`) is written as a command of the sequencer, like a
 * user's. An order is so cancelled within a second of its expiry; a leader that takes over cancels
 * at its first look what expired while no node led.
 */
import type { Engine } from "./engine.js";

export const SWEEP_MS = 1_000;

export interface ExpirySweepDeps {
  engine: Engine;
  run(command: () => void): Promise<unknown>;
  log: { error(obj: unknown, msg?: string): void };
}

export class ExpirySweep {
  private timer: NodeJS.Timeout | null = null;
  /** A cancellation command is queued and has not run yet: no second one meanwhile. */
  private queued = false;

  constructor(private readonly d: ExpirySweepDeps) {}

  start(): void {
    this.timer = setInterval(() => this.look(Date.now()), SWEEP_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look: queues the cancellation of what expired by `now`, when anything did. */
  look(now: number): void {
    if (this.queued || !this.d.engine.anyExpiryDue(now)) return;
    this.queued = true;
    this.d
      .run(() => this.d.engine.expireDue(now))
      .catch((err: unknown) => this.d.log.error({ err }, "pending orders not expired"))
      .finally(() => (this.queued = false));
  }
}
