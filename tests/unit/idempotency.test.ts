/**
 * Idempotency keys (platform/idempotency.ts): a key answers its first result for a day, refuses
 * another request, and expired keys leave the store, deleted at most once a minute by a command
 * that stores a key (not by every command).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DB } from "../../upstream/platform/db.js";
import {
  IDEMPOTENCY_TTL_MS,
  Idempotency,
  PURGE_EVERY_MS,
} from "../../upstream/platform/idempotency.js";
import { Sequencer } from "../../upstream/platform/store/sequencer.js";
import { openTestStore } from "../support/test-store.js";

let db: DB;
afterEach(() => db?.close());

function keysStored(): string[] {
  return (db.prepare("SELECT key FROM idempotency ORDER BY key").all() as { key: string }[]).map(
    (r) => r.key,
  );
}

/** A store with one user, and keys whose clock the test moves. */
function setUp(): { idem: Idempotency; clock: { now: number }; userId: number } {
  db = openTestStore();
  const userId = Number(
    db.prepare("INSERT INTO users (uid, invite_code, created_at) VALUES ('idem', 'IDEM', 0)").run()
      .lastInsertRowid,
  );
  const clock = { now: 1_000_000_000_000 };
  return { idem: new Idempotency(db, () => clock.now), clock, userId };
}

describe("idempotency keys", () => {
  it("answer the first result, refuse another request, and expire after a day", () => {
    const { idem, clock, userId } = setUp();
    idem.store(userId, "k1", "order", { lots: "0.1" }, { id: 7 });
    expect(idem.lookup(userId, "k1", "order", { lots: "0.1" })).toEqual({ id: 7 });
    expect(() => idem.lookup(userId, "k1", "order", { lots: "0.2" })).toThrow(
      expect.objectContaining({ key: "idempotency_key_reused", status: 422 }),
    );
    clock.now += IDEMPOTENCY_TTL_MS + 1;
    expect(idem.lookup(userId, "k1", "order", { lots: "0.2" })).toBeUndefined();
    // The expired key is used again, for another request: a new answer.
    idem.store(userId, "k1", "order", { lots: "0.2" }, { id: 8 });
    expect(idem.lookup(userId, "k1", "order", { lots: "0.2" })).toEqual({ id: 8 });
    // An expired key used again before the next deletion: its new answer replaces the old one.
    idem.store(userId, "k2", "order", {}, { id: 9 });
    clock.now += IDEMPOTENCY_TTL_MS - 10_000;
    idem.store(userId, "k3", "order", {}, {}); // deletes what has expired by now: not k2
    clock.now += 11_000; // k2 expired a second ago; the last deletion was 11 s ago
    expect(idem.lookup(userId, "k2", "order", { x: 1 })).toBeUndefined();
    idem.store(userId, "k2", "order", { x: 1 }, { id: 10 });
    expect(idem.lookup(userId, "k2", "order", { x: 1 })).toEqual({ id: 10 });
  });

  it("refuse to store a live key twice (the caller looks it up first)", () => {
    const { idem, userId } = setUp();
    idem.store(userId, "k", "order", {}, { id: 1 });
    expect(() => idem.store(userId, "k", "order", {}, { id: 2 })).toThrow(/stored again/);
    expect(idem.lookup(userId, "k", "order", {})).toEqual({ id: 1 });
  });

  it("are deleted once expired, by a key stored a minute after the last deletion", () => {
    const { idem, clock, userId } = setUp();
    idem.store(userId, "old", "order", {}, {});
    clock.now += IDEMPOTENCY_TTL_MS + 1;
    // The first key stored after the expiry deletes the expired one.
    idem.store(userId, "a", "order", {}, {});
    expect(keysStored()).toEqual(["a"]);
    // Keys expiring later are left until a minute has passed since that deletion.
    clock.now += IDEMPOTENCY_TTL_MS + 1 - PURGE_EVERY_MS;
    idem.store(userId, "b", "order", {}, {});
    clock.now += PURGE_EVERY_MS - 1;
    idem.store(userId, "c", "order", {}, {});
    expect(keysStored()).toEqual(["a", "b", "c"]);
    expect(idem.lookup(userId, "a", "order", {})).toBeUndefined();
    clock.now += 1;
    idem.store(userId, "d", "order", {}, {});
    expect(keysStored()).toEqual(["b", "c", "d"]);
  });

  it("in the sequencer: a key read ahead, or committed by an earlier batch, answers without the store; a key of a rolled-back command does not", async () => {
    const { idem, userId } = setUp();
    const seq = new Sequencer({ db, onWriteFailure: () => undefined, maxBatchMs: 60_000 });
    const run = (key: string, id: number) =>
      seq.run(() => {
        const prior = idem.lookup<{ id: number }>(userId, key, "order", {});
        if (prior) return prior;
        idem.store(userId, key, "order", {}, { id });
        return { id };
      });
    // Both read ahead as unused, both in one batch: the second finds the first's uncommitted key.
    await Promise.all([idem.prefetch(userId, "same"), idem.prefetch(userId, "same")]);
    expect(await Promise.all([run("same", 1), run("same", 2)])).toEqual([{ id: 1 }, { id: 1 }]);
    // Read ahead before an earlier batch committed it: the committed answer still wins.
    await idem.prefetch(userId, "raced");
    expect(await run("raced", 3)).toEqual({ id: 3 });
    expect(await run("raced", 4)).toEqual({ id: 3 });
    // A command that stored its key and then failed: the key stays unused.
    await idem.prefetch(userId, "undone");
    await expect(
      seq.run(() => {
        idem.store(userId, "undone", "order", {}, { id: 5 });
        throw new Error("refused after storing");
      }),
    ).rejects.toThrow(/refused after storing/);
    expect(await run("undone", 6)).toEqual({ id: 6 });
    expect(keysStored()).toEqual(["raced", "same", "undone"]);
  });
});
