/**
 * A leader's periodic job (the expired idempotency keys' sweep, the ranking's checkpoints): run at
 * start when asked and every `everyMs` after; never two runs of one job at once (a run asked for
 * while one is under way gets that one's result); its timer never keeps the process alive.
 */
import type { DB } from "./db.js";

/** What a leader's job over the store is given: its writes go through the sequencer (`run`). */
export interface StoreJobDeps {
  db: DB;
  run: <T>(command: () => T) => Promise<T>;
  onError: (err: unknown) => void;
  now?: () => number;
}

export class PeriodicJob<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly work: () => Promise<T>,
    private readonly everyMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Runs the job now, or joins the run under way. */
  run(): Promise<T> {
    this.running ??= this.work().finally(() => (this.running = null));
    return this.running;
  }

  /** Runs it every `everyMs` (and once now when `now` is true). */
  start({ now }: { now: boolean }): void {
    if (this.timer) return;
    if (now) void this.run().catch(this.onError);
    this.timer = setInterval(() => void this.run().catch(this.onError), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
