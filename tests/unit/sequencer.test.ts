/**
 * The sequencer (platform/store/sequencer.ts): commands that arrive together are written as one
 * batch (one transaction, one commit), each in a savepoint of its own; an answer and a command's
 * events come only once its batch is durable; a refused command leaves nothing behind; and a batch
 * that cannot be written answers none of its commands, stops the sequencer and says so once.
 * Runs on both stores (unit-postgres too).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DB } from "../../upstream/platform/db.js";
import {
  Sequencer,
  SequencerStopped,
  afterBatch,
  afterCommand,
  afterCommit,
} from "../../upstream/platform/store/sequencer.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { closeConnectionPairs, testDialect, twoConnections } from "../support/test-store.js";
import { failingCommits } from "../support/failing-store.js";
import { expectChanges } from "../../upstream/platform/store/expect-changes.js";
import { until } from "../support/wait.js";
import { heldWrites } from "../support/held-writes.js";

afterEach(closeConnectionPairs);

const memoOf = (n: number) => `seq-${n}`;

/** A command that books one row the other connection can look for. */
function writeRow(db: DB, n: number): () => number {
  return () => {
    db.prepare("INSERT INTO users (uid, invite_code, created_at) VALUES (?, ?, 0)").run(
      memoOf(n),
      memoOf(n),
    );
    return n;
  };
}

function committedRows(other: DB): string[] {
  return (
    other.prepare("SELECT uid FROM users WHERE uid LIKE 'seq-%' ORDER BY id").all() as {
      uid: string;
    }[]
  ).map((r) => r.uid);
}

/**
 * Two connections to a new store, a sequencer on the first (no time cap: a slow machine must not
 * split a test's batch) and the first's server process, for a test that ends it.
 */
function killable() {
  const { db, other } = twoConnections();
  const failures: unknown[] = [];
  const seq = new Sequencer({ db, onWriteFailure: (e) => failures.push(e), maxBatchMs: 60_000 });
  const pid = (db.prepare("SELECT pg_backend_pid() AS pid").get() as { pid: number }).pid;
  return { db, other, seq, failures, pid };
}

/**
 * A sequencer on a store whose batches the test lets be written, or fails, one by one
 * (heldWrites), with the write failures it reported; `other` reads what was committed.
 */
function heldSequencer() {
  const { db, other } = twoConnections();
  const { store, held } = heldWrites(db);
  const failures: unknown[] = [];
  const seq = new Sequencer({
    db: store,
    onWriteFailure: (e) => failures.push(e),
    maxBatchMs: 60_000,
  });
  return { other, store, held, failures, seq };
}

/** A few turns of the event loop: what the sequencer would do next, it has done. */
const turns = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe("the sequencer", () => {
  it("decides the next batch while the one before is written (at most maxInFlight at a time, here two), and answers them in order", async () => {
    const { db } = twoConnections();
    const { store, held } = heldWrites(db);
    const seq = new Sequencer({
      db: store,
      onWriteFailure: () => undefined,
      maxBatchMs: 60_000,
      maxInFlight: 2,
    });
    const answered: number[] = [];
    const run = (n: number) => seq.run(writeRow(store, n)).then((v) => void answered.push(v));
    const first = run(1);
    await until("the first batch is handed to the store", () => held.length === 1);
    const second = run(2);
    await until("the second batch is decided while the first is written", () => held.length === 2);
    const third = run(3);
    await turns();
    // Two batches are being written: the third waits to be decided.
    expect(held).toHaveLength(2);
    // The second is durable first: it is still answered after the first.
    held[1]();
    await turns();
    expect(answered).toEqual([]);
    held[0]();
    await second;
    expect(answered).toEqual([1, 2]);
    await until("the third batch is decided once one is answered", () => held.length === 3);
    held[2]();
    await Promise.all([first, third]);
    expect(answered).toEqual([1, 2, 3]);
    expect(seq.stats.batches).toBe(3);
  });

  it("reports how long its batches held the event loop and how long their writes took (GET /healthz)", async () => {
    const { db } = twoConnections();
    const { store, held } = heldWrites(db);
    // A clock the test moves: each command takes 2 ms of the loop, the writes 30 and 10 ms.
    let nowMs = 1_000;
    const seq = new Sequencer({
      db: store,
      onWriteFailure: () => undefined,
      maxBatchMs: 60_000,
      clock: () => nowMs,
    });
    const command = (n: number) => () => {
      nowMs += 2;
      return writeRow(store, n)();
    };
    const first = [1, 2, 3].map((n) => seq.run(command(n)));
    await until("the first batch is handed to the store", () => held.length === 1);
    nowMs += 30;
    held[0]();
    await Promise.all(first);
    const second = seq.run(command(4));
    await until("the second batch is handed to the store", () => held.length === 2);
    nowMs += 10;
    held[1]();
    await second;
    expect(seq.stats).toEqual({
      batches: 2,
      commands: 4,
      largestBatch: 3,
      loopMs: 8,
      writeMs: 40,
      longestWriteMs: 30,
    });
  });

  it("closing waits for the batch being written, then refuses new commands before they reach the store", async () => {
    const { other, store, held, failures, seq } = heldSequencer();
    const written = seq.run(writeRow(store, 1));
    await until("the batch is handed to the store", () => held.length === 1);
    let closed = false;
    const closing = seq.close().then(() => (closed = true));
    await turns();
    // A node shutting down does not close its store under a batch being written.
    expect(closed).toBe(false);
    held[0]();
    expect(await written).toBe(1);
    await closing;
    await expect(seq.run(writeRow(store, 2))).rejects.toBeInstanceOf(SequencerStopped);
    await turns();
    expect(held).toHaveLength(1);
    expect(committedRows(other)).toEqual([memoOf(1)]);
    expect(failures).toEqual([]);
  });

  it("a command's follow-ups run in its batch once it succeeded, each rolled back alone, before its answer", async () => {
    const { db, other } = twoConnections();
    const followUpErrors: unknown[] = [];
    const seq = new Sequencer({
      db,
      onWriteFailure: () => undefined,
      maxBatchMs: 60_000,
      onFollowUpError: (e) => followUpErrors.push(e),
    });
    const seenAtAnswer: string[][] = [];
    const fired: string[] = [];
    const withFollowUps = seq.run(() => {
      writeRow(db, 1)();
      afterCommand(db, () => {
        writeRow(db, 2)();
        afterCommit(db, () => fired.push("follow-up committed"));
      });
      afterCommand(db, () => {
        writeRow(db, 3)();
        throw new Error("a follow-up that fails");
      });
      afterCommit(db, () => fired.push("command committed"));
      return 1;
    });
    const refused = seq.run(() => {
      afterCommand(db, () => void writeRow(db, 5)());
      writeRow(db, 4)();
      throw new DomainError("refused", 0);
    });
    const answer = await withFollowUps.then((v) => {
      seenAtAnswer.push(committedRows(other));
      return v;
    });
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    expect(answer).toBe(1);
    // One batch: the command, its first follow-up; the failed follow-up and the refused command
    // (with its follow-up, which never ran) left nothing.
    expect(seq.stats.batches).toBe(1);
    expect(seenAtAnswer).toEqual([["seq-1", "seq-2"]]);
    expect(fired).toEqual(["command committed", "follow-up committed"]);
    expect(followUpErrors).toHaveLength(1);
    expect(String(followUpErrors[0])).toMatch(/a follow-up that fails/);
  });

  it("a batch decided after one that fails is not answered, even when it was itself written", async () => {
    const { store, held, failures, seq } = heldSequencer();
    const first = seq.run(writeRow(store, 1));
    await until("the first batch is handed to the store", () => held.length === 1);
    const second = seq.run(writeRow(store, 2));
    await until("the second batch is decided while the first is written", () => held.length === 2);
    held[1]();
    held[0](new Error("disk I/O error"));
    for (const answer of await Promise.allSettled([first, second])) {
      expect(answer.status).toBe("rejected");
      expect((answer as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
    }
    expect(failures).toHaveLength(1);
  });

  it("writes commands that arrive together as one batch, in arrival order, and answers after the commit", async () => {
    const { db, other } = twoConnections();
    const failures: unknown[] = [];
    // No time cap: a slow machine must not split the batch (the cap is tested below by count).
    const seq = new Sequencer({ db, onWriteFailure: (e) => failures.push(e), maxBatchMs: 60_000 });
    const seenByHooks: string[][] = [];
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        seq.run(() => {
          const v = writeRow(db, n)();
          // What a command's event sees: the commit of its whole batch, from another connection.
          afterCommit(db, () => seenByHooks.push(committedRows(other)));
          return v;
        }),
      ),
    );
    expect(answers).toEqual([1, 2, 3, 4, 5]);
    expect(seq.stats).toMatchObject({ batches: 1, commands: 5, largestBatch: 5 });
    const all = [1, 2, 3, 4, 5].map(memoOf);
    expect(committedRows(other)).toEqual(all);
    expect(seenByHooks).toEqual([all, all, all, all, all]);
    expect(failures).toEqual([]);
  });

  it("a refused command leaves nothing and fires nothing; the rest of its batch is written", async () => {
    const { db, other } = twoConnections();
    const seq = new Sequencer({ db, onWriteFailure: () => undefined, maxBatchMs: 60_000 });
    const fired: number[] = [];
    const ended: number[] = [];
    const command = (n: number) => () => {
      writeRow(db, n)();
      afterCommit(db, () => fired.push(n));
      afterBatch(db, () => ended.push(n));
      if (n === 2) throw new DomainError("insufficient_balance");
      return n;
    };
    const settled = await Promise.allSettled([1, 2, 3].map((n) => seq.run(command(n))));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
    expect(committedRows(other)).toEqual([memoOf(1), memoOf(3)]);
    expect(fired).toEqual([1, 3]);
    // The end of the batch is told for every command, the refused one included.
    expect(ended).toEqual([1, 2, 3]);
    expect(seq.stats.batches).toBe(1);
  });

  it("takes what arrives while a batch is written into the next one, and caps a batch's size", async () => {
    const { db, other } = twoConnections();
    const seq = new Sequencer({
      db,
      onWriteFailure: () => undefined,
      maxBatchCommands: 2,
      maxBatchMs: 60_000,
    });
    const first = [1, 2, 3, 4, 5].map((n) => seq.run(writeRow(db, n)));
    await first[0];
    const later = [6, 7].map((n) => seq.run(writeRow(db, n)));
    expect(await Promise.all([...first, ...later])).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seq.stats.largestBatch).toBe(2);
    expect(seq.stats.batches).toBe(4);
    expect(committedRows(other)).toEqual([1, 2, 3, 4, 5, 6, 7].map(memoOf));
  });

  it("answers no command of a batch whose commit fails, runs none of its events, and stops", async () => {
    const { db, other } = twoConnections();
    const failing = { on: true };
    const failures: unknown[] = [];
    const store = failingCommits(db, failing);
    const seq = new Sequencer({
      db: store,
      onWriteFailure: (e) => failures.push(e),
      maxBatchMs: 60_000,
    });
    const fired: number[] = [];
    const ended: number[] = [];
    const settled = await Promise.allSettled(
      [1, 2, 3].map((n) =>
        seq.run(() => {
          writeRow(store, n)();
          afterCommit(store, () => fired.push(n));
          afterBatch(store, () => ended.push(n));
          return n;
        }),
      ),
    );
    expect(settled.every((s) => s.status === "rejected")).toBe(true);
    expect(ended).toEqual([1, 2, 3]);
    for (const s of settled)
      expect((s as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
    expect(fired).toEqual([]);
    expect(committedRows(other)).toEqual([]);
    expect(failures).toHaveLength(1);
    // The node is stopping: nothing more is taken, even once the store would write again.
    failing.on = false;
    await expect(seq.run(writeRow(store, 9))).rejects.toBeInstanceOf(SequencerStopped);
    expect(committedRows(other)).toEqual([]);
  });

  it.runIf(testDialect() === "postgres")(
    "a connection killed inside a batch that had begun: nothing of it is written or answered",
    async () => {
      const { db, other, seq, failures, pid } = killable();
      const settled = await Promise.allSettled([
        seq.run(() => {
          const n = writeRow(db, 1)();
          // A read needs an answer: the batch's transaction is open on the connection from here.
          db.prepare("SELECT 1 AS one").get();
          return n;
        }),
        seq.run(() => {
          other.prepare("SELECT pg_terminate_backend(?, 10000)").get(pid);
          return writeRow(db, 2)();
        }),
        seq.run(writeRow(db, 3)),
      ]);
      expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected"]);
      for (const s of settled)
        expect((s as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
      expect(committedRows(other)).toEqual([]);
      expect(failures).toHaveLength(1);
    },
  );

  it.runIf(testDialect() === "postgres")(
    "a batch that needed no answer is written whole, after its commands ran, on a working connection",
    async () => {
      const { db, other, seq, failures, pid } = killable();
      const seenInside: string[][] = [];
      const settled = await Promise.allSettled([
        seq.run(writeRow(db, 1)),
        seq.run(() => {
          // Nothing of the batch has reached the server yet: ending the connection loses nothing.
          other.prepare("SELECT pg_terminate_backend(?, 10000)").get(pid);
          seenInside.push(committedRows(other));
          return writeRow(db, 2)();
        }),
        seq.run(writeRow(db, 3)),
      ]);
      expect(seenInside).toEqual([[]]);
      expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      expect(committedRows(other)).toEqual(["seq-1", "seq-2", "seq-3"]);
      expect(failures).toEqual([]);
    },
  );

  it("a write that changes another number of rows than it must fails its whole batch before any commit", async () => {
    const { db, other } = twoConnections();
    const failures: unknown[] = [];
    const seq = new Sequencer({ db, onWriteFailure: (e) => failures.push(e), maxBatchMs: 60_000 });
    const settled = await Promise.allSettled([
      seq.run(writeRow(db, 1)),
      seq.run(() => {
        const r = db.prepare("UPDATE users SET created_at = 1 WHERE uid = 'nobody'").run();
        expectChanges(r, 1, "the row to update was not there");
        return 2;
      }),
      seq.run(writeRow(db, 3)),
    ]);
    const reasons = settled.map((s) => (s as PromiseRejectedResult).reason as unknown);
    if (testDialect() === "postgres") {
      // The UPDATE waited to go with the batch: its row count is known only there, and fails it.
      for (const r of reasons) expect(r).toBeInstanceOf(SequencerStopped);
      expect(String(reasons[0])).toContain("the row to update was not there");
      expect(committedRows(other)).toEqual([]);
      expect(failures).toHaveLength(1);
    } else {
      // SQLite answered at once: the command alone is refused, the others are written.
      expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect(String(reasons[1])).toContain("the row to update was not there");
      expect(committedRows(other)).toEqual(["seq-1", "seq-3"]);
      expect(failures).toEqual([]);
    }
  });
});
