/**
 * A store whose commits can be made to fail, for the tests of what a failed write leaves behind
 * (the sequencer's tests and property).
 */
import type { DB } from "../../upstream/platform/db.js";

/**
 * The store with its outermost transactions failing at their end while `failing.on`: the body ran,
 * then the commit "fails" (a throw inside the transaction, so the store rolls it all back), as a
 * disk that refuses the write would.
 */
export function failingCommits(db: DB, failing: { on: boolean }): DB {
  let depth = 0;
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== "transaction") {
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      }
      return (fn: (...a: unknown[]) => unknown) =>
        target.transaction((...args: unknown[]) => {
          const outer = depth === 0;
          depth++;
          try {
            const r = fn(...args);
            if (outer && failing.on) throw new Error("disk I/O error");
            return r;
          } finally {
            depth--;
          }
        });
    },
  });
}
