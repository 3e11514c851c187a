/**
 * A store whose sequencer batches are held as written-later (batchWrites) until the test releases
 * each one, or fails it: which batches are in flight at once, and the order they are answered in,
 * are the test's to choose.
 */
import { openStore, type DB } from "../../upstream/platform/db.js";
import { Sequencer } from "../../upstream/platform/store/sequencer.js";
import { createManualFeed, type ManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { Engine } from "../../upstream/modules/trading/engine.js";
import { newTestStoreWhere } from "./test-store.js";

export function heldWrites(db: DB): { store: DB; held: Array<(err?: Error) => void> } {
  const held: Array<(err?: Error) => void> = [];
  const store = new Proxy(db, {
    get(target, prop) {
      if (prop === "batchWrites")
        return (fn: () => void) => {
          fn();
          return new Promise<void>((resolve, reject) =>
            held.push((err) => (err ? reject(err) : resolve())),
          );
        };
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { store, held };
}

type Log = { error(o: unknown, m?: string): void; warn(o: unknown, m?: string): void };

/**
 * A leader's money service, sequencer and engine over `db` as the upstream wires them: every
 * command in the money service's transaction, the engine's own commands (a tick's bookings) queued
 * on the sequencer. A batch that cannot be written throws (a test or bench has no standby).
 */
export function leaderOn(db: DB, feed: ManualFeed, log: Log, maxBatchMs?: number) {
  const money = moneyOf(db);
  const seq = new Sequencer({
    db,
    onWriteFailure: (err) => {
      throw err;
    },
    maxBatchMs,
    transaction: (command) => money.transaction(command),
  });
  const engine = new Engine({ db, feed, money, log, schedule: (c) => void seq.run(c) });
  return { money, seq, engine };
}

/**
 * A leader (leaderOn) over a new store whose batches the test releases (heldWrites), on the manual
 * feed with its markets open. `close` ends it all.
 */
export function heldLeader() {
  const db = openStore(newTestStoreWhere());
  const { store, held } = heldWrites(db);
  const feed = createManualFeed(store, { alwaysOpen: true });
  const log = { error: (o: unknown) => console.error(o), warn: () => {} };
  // No time cap: a slow machine must not split a test's batch.
  const { money, seq, engine } = leaderOn(store, feed, log, 60_000);
  const close = () => {
    engine.stop();
    feed.stop();
    db.close();
  };
  return { db, store, held, money, seq, feed, engine, log, close };
}
