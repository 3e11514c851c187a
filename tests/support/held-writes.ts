/**
 * A store whose sequencer batches are held as written-later (batchWrites) until the test releases
 * each one, or fails it: which batches are in flight at once, and the order they are answered in,
 * are the test's to choose.
 */
import type { DB } from "../../upstream/platform/db.js";

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
