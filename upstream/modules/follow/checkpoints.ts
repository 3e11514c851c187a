/**
 * The ranking's checkpoints (table rank_checkpoints): per strategy trader, the sums of its
 * positions closed up to a moment well before the ranking's window, so that the ranking reads
 * only the positions closed since (store.ts totalsOf): at most RANK_WINDOW_MS + CHECKPOINT_LAG_MS
 * + ADVANCE_EVERY_MS of a trader's history, however long it has traded.
 *
 * Invariants:
 * - a checkpoint at upto_ms holds exactly the net, the count and the count per leverage of the
 *   trader's positions with closed_at <= upto_ms;
 * - upto_ms only grows, and is written at most now - RANK_WINDOW_MS - CHECKPOINT_LAG_MS: a
 *   position closing later (closed_at is the moment of its close) falls after it, and a clock
 *   a day off still does; the ranking ignores a checkpoint later than its window's start.
 *
 * The leader advances every trader's checkpoint at start and every ADVANCE_EVERY_MS, one trader per
 * command of the sequencer (serialised with every other writer, never a long transaction).
 */
import { PeriodicJob, type StoreJobDeps } from "../../platform/periodic.js";
import { RANK_WINDOW_MS } from "./stats.js";
import { advanceCheckpoint, traderIds } from "./store.js";

export type { RankCheckpoint } from "./store.js";

/** How far before the ranking's window a checkpoint stays. */
export const CHECKPOINT_LAG_MS = 24 * 60 * 60 * 1000;
/** How often the leader advances the checkpoints. */
export const ADVANCE_EVERY_MS = 60 * 60 * 1000;

/** Where every checkpoint belongs at `nowMs`. */
export function checkpointTarget(nowMs: number): number {
  return nowMs - RANK_WINDOW_MS - CHECKPOINT_LAG_MS;
}

export class RankCheckpoints {
  private readonly job: PeriodicJob<number>;

  constructor(private readonly o: StoreJobDeps) {
    this.job = new PeriodicJob(() => this.advanceAll(), ADVANCE_EVERY_MS, o.onError);
  }

  /** Moves every trader's checkpoint to checkpointTarget(now); how many moved. One at a time. */
  advance(): Promise<number> {
    return this.job.run();
  }

  private async advanceAll(): Promise<number> {
    const target = checkpointTarget((this.o.now ?? Date.now)());
    let moved = 0;
    for (const id of traderIds(this.o.db))
      if (await this.o.run(() => advanceCheckpoint(this.o.db, id, target))) moved++;
    return moved;
  }

  /** At start, then every ADVANCE_EVERY_MS. */
  start(): void {
    this.job.start({ now: true });
  }

  stop(): void {
    this.job.stop();
  }
}
