/**
 * The key index of the node that writes (platform/idempotency-index.ts): once loaded, a key that
 * was never stored is answered without reading the store; every key stored before the load or
 * since is found; the sweep lets whole hours go; a store changed by hand is read again.
 *
 * Rows written straight into the table (not through insertAnswer) are what the index cannot know:
 * they show which lookups read the store and which did not.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DB } from "../../upstream/platform/db.js";
import {
  IDEMPOTENCY_TTL_MS,
  Idempotency,
  IdempotencySweep,
  requestHash,
} from "../../upstream/platform/idempotency.js";
import { keyIndexOf } from "../../upstream/platform/idempotency-index.js";
import { loadKeyIndex } from "../../upstream/platform/idempotency-store.js";
import { openTestStore } from "../support/test-store.js";

let db: DB;
afterEach(() => db?.close());

const T0 = Date.parse("2026-11-25T12:00:00Z");

function setUp() {
  db = openTestStore();
  const userId = Number(
    db.prepare("INSERT INTO users (uid, invite_code, created_at) VALUES ('ix', 'IX', 0)").run()
      .lastInsertRowid,
  );
  const clock = { now: T0 };
  const byHand = db.prepare(
    `INSERT INTO idempotency (user_id, key, route, request_hash, response, created_at)
     VALUES (?, ?, 'order', ?, '{"id":0}', ?)`,
  );
  const idem = new Idempotency(db, () => clock.now);
  /** A row the index is not told of, answering lookup(key, "order", {}) with { id: 0 }. */
  const storeByHand = (key: string, at = clock.now) =>
    byHand.run(userId, key, requestHash("order", {}), at);
  return { userId, clock, idem, storeByHand };
}

describe("the idempotency key index", () => {
  it("before it is loaded, every lookup reads the store", () => {
    const { userId, idem, storeByHand } = setUp();
    storeByHand("by-hand");
    expect(keyIndexOf(db).isComplete).toBe(false);
    expect(idem.lookup(userId, "by-hand", "order", {})).toEqual({ id: 0 });
  });

  it("once loaded: keys stored before (over several pages) and since are found; a key never stored is answered without a read", async () => {
    const { userId, idem, storeByHand } = setUp();
    const PAGE = 3;
    const before = 2 * PAGE + 1;
    db.transaction(() => {
      for (let i = 0; i < before; i++) storeByHand(`old-${i}`);
    })();
    await loadKeyIndex(db, PAGE);
    expect(keyIndexOf(db).isComplete).toBe(true);
    // Every key of every page is known, the first and the last too.
    for (let i = 0; i < before; i++)
      expect(idem.lookup(userId, `old-${i}`, "order", {})).toEqual({ id: 0 });
    // A key stored through the engine since the load is found.
    idem.store(userId, "new", "order", {}, { id: 9 });
    expect(idem.lookup(userId, "new", "order", {})).toEqual({ id: 9 });
    // A row the index was not told of is not read: the lookup did not go to the store.
    storeByHand("unseen");
    expect(idem.lookup(userId, "unseen", "order", {})).toBeUndefined();
    await idem.prefetch(userId, "unseen");
    expect(idem.lookup(userId, "unseen", "order", {})).toBeUndefined();
    // A store changed by hand is read again (Idempotency.forgetKept), until the next load.
    idem.forgetKept();
    expect(idem.lookup(userId, "unseen", "order", {})).toEqual({ id: 0 });
    await loadKeyIndex(db);
    expect(idem.lookup(userId, "unseen", "order", {})).toEqual({ id: 0 });
  });

  it("a load that began before the store was changed by hand does not make the index complete", async () => {
    setUp();
    const loading = loadKeyIndex(db);
    keyIndexOf(db).forget();
    await loading;
    expect(keyIndexOf(db).isComplete).toBe(false);
  });

  it("lets go of the hours whose answers the sweep deleted, and keeps the live ones", async () => {
    const { userId, clock, idem } = setUp();
    await loadKeyIndex(db);
    idem.store(userId, "old", "order", {}, { id: 1 });
    clock.now += IDEMPOTENCY_TTL_MS + 2 * 60 * 60 * 1000;
    idem.store(userId, "live", "order", {}, { id: 2 });
    expect(keyIndexOf(db).size).toBe(2);
    const sweep = new IdempotencySweep({
      db,
      run: async (command) => db.transaction(command)() as never,
      onError: (err) => {
        throw err;
      },
      now: () => clock.now,
    });
    expect(await sweep.sweep()).toBe(1);
    expect(keyIndexOf(db).size).toBe(1);
    expect(idem.lookup(userId, "live", "order", {})).toEqual({ id: 2 });
    expect(idem.lookup(userId, "old", "order", {})).toBeUndefined();
  });
});
