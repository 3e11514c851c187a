/**
 * The worker's watch of a batch channel's posted number (pg.ts BatchChannel, pg-worker.mjs): what
 * was posted is taken, then the watch waits (without holding the worker) for the next post.
 *
 * It waits on the posted number it read, never on the number of the last batch taken: a batch
 * handed over by a call ("batch", one the channel cannot carry) is taken without being posted, so
 * the number taken can be ahead of the posted one. A wait for the posted number to differ from the
 * number taken then ends at once, every time: the watch spun until the worker's stack overflowed,
 * the worker stopped, and the store's batches were never written (bench:cluster orders, 64
 * clients, 2026-12-03).
 */

/**
 * Watches `ctrl[postedAt]` until `closed()`: `take()` takes whatever was posted and not yet taken
 * (it may take nothing), once now and again after each post.
 * @param {Int32Array} ctrl
 * @param {number} postedAt
 * @param {() => boolean} closed
 * @param {() => void} take
 */
export function watchPosted(ctrl, postedAt, closed, take) {
  for (;;) {
    if (closed()) return;
    // Read before taking: a post after this read makes the wait below end at once.
    const seen = Atomics.load(ctrl, postedAt);
    take();
    const w = Atomics.waitAsync(ctrl, postedAt, seen);
    if (w.async) {
      void w.value.then(() => watchPosted(ctrl, postedAt, closed, take));
      return;
    }
  }
}
