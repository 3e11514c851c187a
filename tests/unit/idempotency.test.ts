/**
 * Idempotency keys (platform/idempotency.ts): a key answers its first result for a day, refuses
 * another request, and expired keys leave the store, deleted by the leader's sweep through the
 * sequencer in short commands (never by a user's command).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DB } from "../../upstream/platform/db.js";
import {
  IDEMPOTENCY_TTL_MS,
  Idempotency,
  IdempotencySweep,
  PURGE_ROWS_PER_COMMAND,
  requestHash,
} from "../../upstream/platform/idempotency.js";
import { createHash } from "node:crypto";
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
  it("fingerprint a request by its route and parameters, whatever the order of their keys", () => {
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    // The text keys already stored were hashed from: route, a newline, keys sorted at every level.
    const stored = sha('order\n{"lots":"0.1","trail":{"activation":0,"distance":5},"type":1}');
    const inOrder = { lots: "0.1", trail: { activation: 0, distance: 5 }, type: 1 };
    const shuffled = { type: 1, trail: { distance: 5, activation: 0 }, lots: "0.1" };
    expect(requestHash("order", inOrder)).toBe(stored);
    expect(requestHash("order", shuffled)).toBe(stored);
    expect(requestHash("close", inOrder)).not.toBe(stored);
    expect(requestHash("order", { ...inOrder, lots: "0.2" })).not.toBe(stored);
    // Integer-like keys come first in any JavaScript object, sorted or not.
    expect(requestHash("order", { 10: "a", 9: "b", x: 1 })).toBe(
      sha('order\n{"9":"b","10":"a","x":1}'),
    );
    expect(requestHash("order", undefined)).toBe(sha("order\n"));
  });

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
    // An expired key used again before the sweep deleted it: its new answer replaces the old one.
    idem.store(userId, "k2", "order", {}, { id: 9 });
    clock.now += IDEMPOTENCY_TTL_MS + 1_000;
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

  it("are deleted once expired by the sweep, in commands of the sequencer of a bounded size", async () => {
    const { idem, clock, userId } = setUp();
    const seq = new Sequencer({ db, onWriteFailure: () => undefined });
    const sizes: number[] = [];
    const sweep = new IdempotencySweep({
      db,
      run: (command) =>
        seq.run(() => {
          const n = command() as number;
          sizes.push(n);
          return n;
        }) as never,
      onError: (err) => {
        throw err;
      },
      now: () => clock.now,
    });
    const insert = db.prepare(
      `INSERT INTO idempotency (user_id, key, route, request_hash, response, created_at)
       VALUES (?, ?, 'order', '', '{}', ?)`,
    );
    const expired = PURGE_ROWS_PER_COMMAND + 5;
    db.transaction(() => {
      for (let i = 0; i < expired; i++) insert.run(userId, `old-${i}`, clock.now);
    })();
    clock.now += IDEMPOTENCY_TTL_MS + 1;
    idem.store(userId, "live", "order", {}, { id: 1 });
    // Nothing is deleted by storing a key; the sweep deletes every expired one, a command at a time.
    expect(keysStored()).toHaveLength(expired + 1);
    expect(await sweep.sweep()).toBe(expired);
    expect(sizes).toEqual([PURGE_ROWS_PER_COMMAND, 5]);
    expect(keysStored()).toEqual(["live"]);
    expect(idem.lookup(userId, "live", "order", {})).toEqual({ id: 1 });
    // Nothing left to delete: one command that deletes nothing.
    expect(await sweep.sweep()).toBe(0);
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
    // Every key's batch has ended: none is held as uncommitted any longer.
    expect(idem.uncommittedKeys).toBe(0);
    expect(keysStored()).toEqual(["raced", "same", "undone"]);
  });
});
