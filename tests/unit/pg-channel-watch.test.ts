/**
 * The PostgreSQL worker's watch of its batch channel (store/pg-channel-watch.mjs): every batch
 * posted is taken in order, including when a batch handed over by a call was taken without being
 * posted and a post's wake-up arrives after that call (the watch then waits; it does not spin).
 */
import { describe, expect, it } from "vitest";
import { watchPosted } from "../../upstream/platform/store/pg-channel-watch.mjs";
import { until } from "../support/wait.js";

const POSTED = 0;

/** A channel's posted number with a taker that records what it took, as the worker's does. */
function channel() {
  const ctrl = new Int32Array(new SharedArrayBuffer(4));
  const s = { taken: 0, took: [] as number[], looks: 0, closed: false };
  const take = () => {
    s.looks++;
    const posted = Atomics.load(ctrl, POSTED);
    while (s.taken < posted) s.took.push(++s.taken);
  };
  const post = (seq: number) => {
    Atomics.store(ctrl, POSTED, seq);
    Atomics.notify(ctrl, POSTED);
  };
  watchPosted(ctrl, POSTED, () => s.closed, take);
  const close = () => {
    s.closed = true;
    post(-1);
  };
  return { s, take, post, close };
}

/** Lets the wake-ups already due run (a few turns of the event loop). */
const turns = async () => {
  for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
};

describe("the worker's watch of a batch channel", () => {
  it("takes each post in order, once", async () => {
    const { s, post, close } = channel();
    for (const seq of [1, 2, 3]) {
      post(seq);
      await until(`batch ${seq} is taken`, () => s.taken === seq);
    }
    post(5);
    await until("batches 4 and 5 are taken", () => s.taken === 5);
    expect(s.took).toEqual([1, 2, 3, 4, 5]);
    close();
  });

  it("waits, without spinning, when a batch handed over by a call was taken ahead of the posted number", async () => {
    const { s, take, post, close } = channel();
    await turns();
    const before = s.looks;
    // Batch 1 is posted; before its wake-up reaches the watch, a call takes it (takePosted first)
    // and then batch 2, which the channel could not carry, without its being posted.
    post(1);
    take();
    s.took.push(++s.taken);
    await turns();
    // The wake-up of batch 1 found nothing to take and waits again: a look or two, not a spin.
    expect(s.looks - before).toBeLessThan(5);
    post(3);
    await until("batch 3 is taken", () => s.taken === 3);
    expect(s.took).toEqual([1, 2, 3]);
    close();
  });
});
