/**
 * The market of a standby upstream node: it mirrors the leader's ticks (received through the push
 * broker) instead of making prices. Its quotes and forming candles follow the leader's ticks for
 * the node's websocket snapshots and market reads; it writes nothing (the leader stores the
 * candles) and starts from the newest stored candles, as the leader did.
 */
import type { DB } from "../../platform/db.js";
import type { Quote } from "./feed.js";
import { MarketCore, type MarketFeed } from "./market-core.js";

export interface TickSource {
  onTick(listener: (changed: Quote[]) => void): () => void;
}

export function createMirrorFeed(
  db: DB,
  ticks: TickSource,
  opts: { alwaysOpen: boolean },
): MarketFeed {
  const core = new MarketCore(db, opts.alwaysOpen, { persistCandles: false });
  /** Per instrument: the day volume of its last mirrored quote (a tick's own volume is the rise). */
  const dayVolume = new Map<number, number>();
  let unsubscribe: (() => void) | null = null;

  const mirror = (changed: Quote[]) => {
    const known: Quote[] = [];
    for (const q of changed) {
      const inst = core.find(q.id);
      if (!inst) continue;
      const before = dayVolume.get(q.id);
      dayVolume.set(q.id, q.volume);
      core.record(inst, q.price, before === undefined ? 0 : Math.max(0, q.volume - before), q.time);
      known.push(q);
    }
    core.emit(known);
  };

  return {
    ...core.readers(),
    isOpen(codeOrId, at = Date.now()) {
      const inst = core.find(codeOrId);
      return inst ? core.isOpen(inst, at) : false;
    },
    start() {
      unsubscribe ??= ticks.onTick(mirror);
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
    },
  };
}
