/**
 * PostgreSQL's write-behind inside the sequencer's batches (store/pg.ts, decision 0024): writes
 * wait and go together; a read sees the writes before it; a batch that needed no answer is written
 * whole while the event loop goes on, and every call made meanwhile waits for it and fails when it
 * failed; a write's expected row count and a waiting write's failure fail the whole batch, with
 * nothing of it written; ids are taken ahead from the table's own sequence; and a balance held in
 * memory that is no longer the stored one fails its batch instead of booking on it; a batch's writes
 * go as prepared statements (or with literals where PostgreSQL cannot prepare one).
 * PostgreSQL only (unit-postgres): SQLite runs every statement at once.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { DB, RunResult } from "../../upstream/platform/db.js";
import { WRITE_LOCK, type PgStore } from "../../upstream/platform/store/pg.js";
import { Sequencer, SequencerStopped } from "../../upstream/platform/store/sequencer.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { closeConnectionPairs, testDialect, twoConnections } from "../support/test-store.js";
import { newUser } from "./engine-helpers.js";
import { until } from "../support/wait.js";

afterEach(closeConnectionPairs);

const insertUser = (db: DB, uid: string) =>
  db.prepare("INSERT INTO users (uid, invite_code, created_at) VALUES (?, ?, 0)").run(uid, uid);

/** Users `wb-<from>` … `wb-<from + count - 1>`, 500 to a statement (1,000 values each). */
function insertUsers(db: DB, from: number, count: number): RunResult[] {
  const results: RunResult[] = [];
  for (let at = from; at < from + count; at += 500) {
    const n = Math.min(500, from + count - at);
    const names = Array.from({ length: n }, (_, k) => `wb-${at + k}`);
    results.push(
      db
        .prepare(
          `INSERT INTO users (uid, invite_code, created_at) VALUES ${names.map(() => "(?, ?, 0)").join(", ")}`,
        )
        .run(...names.flatMap((u) => [u, u])),
    );
  }
  return results;
}

/** How long a batch's first parts may take to reach the server on a busy machine. */
const PARTS_SENT_WITHIN_MS = 10_000;

/**
 * True once the store's batch is open on the server (its BEGIN took the write lock) while the
 * batch is still being decided: seen from the other connection, in this test's database only (an
 * advisory lock is one per database, and the other tests' databases on the same server hold the
 * same write lock whenever their leaders write). The caller is inside the batch's command, so the
 * batch cannot end meanwhile: the looks go on for as long as a busy machine may take to send the
 * first parts, and a store that sent nothing before the batch's end fails after
 * PARTS_SENT_WITHIN_MS.
 */
function batchOpenOnServer(other: DB): boolean {
  const held = other.prepare(
    `SELECT count(*) AS n FROM pg_locks
     WHERE locktype = 'advisory' AND objid = ? AND granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  const deadline = performance.now() + PARTS_SENT_WITHIN_MS;
  while (performance.now() < deadline)
    if (Number((held.get(WRITE_LOCK) as { n: number }).n) === 1) return true;
  return false;
}

const uids = (db: DB): string[] =>
  (
    db.prepare("SELECT uid FROM users WHERE uid LIKE 'wb-%' ORDER BY id").all() as {
      uid: string;
    }[]
  ).map((r) => r.uid);

const sequencer = (db: DB, failures: unknown[] = []) =>
  new Sequencer({ db, onWriteFailure: (e) => failures.push(e), maxBatchMs: 60_000 });

/**
 * Runs a batch of `fn`, in which `lockedWrite(uid)` inserts a user that waits for an advisory lock
 * the other connection holds, and answers the batch's answer once the lock is let go. Handed off,
 * that write waits in the worker while the event loop goes on, and the other connection sees
 * nothing of the batch meanwhile (checked); written on the connection while the event loop
 * waited, the lock could never be let go, and the batch fails at the call's time-out.
 */
async function throughHeldLock<T>(
  db: DB,
  other: DB,
  fn: (lockedWrite: (uid: string) => void) => T,
): Promise<T> {
  const key = 4242;
  other.prepare("SELECT pg_advisory_lock(?)").get(key);
  const written = sequencer(db).run(() =>
    fn((uid) => {
      db.prepare(
        "INSERT INTO users (uid, invite_code, created_at) SELECT ?, ?, 0 FROM (SELECT pg_advisory_xact_lock(?)) AS l",
      ).run(uid, uid, key);
    }),
  );
  await new Promise((r) => setImmediate(r));
  expect(uids(other)).toEqual([]);
  other.prepare("SELECT pg_advisory_unlock(?)").get(key);
  return written;
}

describe.runIf(testDialect() === "postgres")("write-behind on PostgreSQL", () => {
  it("a read inside a batch sees the writes that waited before it, and a result asked for is there", async () => {
    const { db, other } = twoConnections();
    const seq = sequencer(db);
    const seen = await seq.run(() => {
      const r = insertUser(db, "wb-1");
      const id = Number(r.lastInsertRowid);
      insertUser(db, "wb-2");
      const n = (
        db.prepare("SELECT COUNT(*) AS n FROM users WHERE uid LIKE 'wb-%'").get() as {
          n: number;
        }
      ).n;
      return { id, n, inserted: r.changes };
    });
    expect(seen.n).toBe(2);
    expect(seen.inserted).toBe(1);
    const stored = other.prepare("SELECT id FROM users WHERE uid = 'wb-1'").get() as { id: number };
    expect(seen.id).toBe(stored.id);
    expect(uids(other)).toEqual(["wb-1", "wb-2"]);
  });

  it("a waiting write that fails (a duplicate key) fails its whole batch: nothing of it is written or answered", async () => {
    const { db, other } = twoConnections();
    const failures: unknown[] = [];
    const seq = sequencer(db, failures);
    const settled = await Promise.allSettled([
      seq.run(() => insertUser(db, "wb-1").changes === undefined),
      seq.run(() => {
        insertUser(db, "wb-2");
        // users.uid is unique: this write fails on the server, where the batch is written.
        insertUser(db, "wb-2");
        return true;
      }),
    ]);
    for (const s of settled) {
      expect(s.status).toBe("rejected");
      expect((s as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
    }
    expect(uids(other)).toEqual([]);
    expect(failures).toHaveLength(1);
  });

  it("the same write in batch after batch writes its own values each time; one PostgreSQL cannot prepare still goes", async () => {
    const { db, other } = twoConnections();
    const seq = sequencer(db);
    // Prepared once on the batch's connection, then executed with each batch's values (no result
    // is asked for, so each batch is written whole).
    for (const uid of ["wb-1", "wb-2", "wb-3"]) await seq.run(() => void insertUser(db, uid));
    // `? IS NOT NULL` gives its parameter no type to prepare it with: sent with literals instead.
    await seq.run(() => {
      db.prepare(
        "INSERT INTO users (uid, invite_code, created_at) SELECT ?, ?, 0 WHERE ? IS NOT NULL",
      ).run("wb-4", "wb-4", "yes");
    });
    expect(uids(other)).toEqual(["wb-1", "wb-2", "wb-3", "wb-4"]);
  });

  it("a call made while a batch is written waits for it: it sees the batch, or fails when the batch failed", async () => {
    const { db, other } = twoConnections();
    const seq = sequencer(db);
    const written = seq.run(() => insertUser(db, "wb-1").lastInsertRowid === undefined);
    // The sequencer's turn (setImmediate) has handed the batch to the worker before this one's.
    await new Promise((r) => setImmediate(r));
    const during = uids(db);
    await written;
    expect(during).toEqual(["wb-1"]);

    const failing = sequencer(db);
    const failed = failing.run(() => {
      // The same uid again, after a second on the server: the batch is still being written when
      // the call below is made (a batch that fails at once may be known to have failed before).
      db.prepare(
        "INSERT INTO users (uid, invite_code, created_at) SELECT 'wb-1', 'wb-1', 0 FROM pg_sleep(1)",
      ).run();
      return 1;
    });
    await new Promise((r) => setImmediate(r));
    expect(() => uids(db)).toThrow(/batch written before this call failed/);
    await expect(failed).rejects.toBeInstanceOf(SequencerStopped);
    // Once the failure is known, the store answers again; nothing of the failed batch is there.
    expect(uids(db)).toEqual(["wb-1"]);
    expect(uids(other)).toEqual(["wb-1"]);
  });

  it("the next batch is decided and handed over while one is written; both are written in order, and a batch after a failed one is not written", async () => {
    const { db, other } = twoConnections();
    const slow = (uid: string) =>
      db
        .prepare(
          "INSERT INTO users (uid, invite_code, created_at) SELECT ?, ?, 0 FROM pg_sleep(0.3)",
        )
        .run(uid, uid);
    const seq = new Sequencer({
      db,
      onWriteFailure: () => undefined,
      maxBatchMs: 60_000,
      maxBatchCommands: 1,
    });
    const seenBySecond: string[][] = [];
    const written = [
      seq.run(() => void slow("wb-1")),
      seq.run(() => {
        // Decided while the first batch is being written: nothing of it is committed yet.
        seenBySecond.push(uids(other));
        insertUser(db, "wb-2");
      }),
    ];
    await Promise.all(written);
    expect(seenBySecond).toEqual([[]]);
    expect(uids(other)).toEqual(["wb-1", "wb-2"]);

    const failures: unknown[] = [];
    const failing = new Sequencer({
      db,
      onWriteFailure: (e) => failures.push(e),
      maxBatchMs: 60_000,
      maxBatchCommands: 1,
    });
    const settled = await Promise.allSettled([
      // users.uid is unique: this batch fails on the server, after a while. No result is asked
      // for in either command: each batch is written whole, later.
      failing.run(() => void slow("wb-1")),
      failing.run(() => void insertUser(db, "wb-3")),
    ]);
    for (const s of settled) {
      expect(s.status).toBe("rejected");
      expect((s as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
    }
    expect(failures).toHaveLength(1);
    // The batch decided after the failed one was not written either.
    expect(uids(db)).toEqual(["wb-1", "wb-2"]);
    expect(uids(other)).toEqual(["wb-1", "wb-2"]);
  });

  it("batches handed over while one is written wait as one group, committed as one transaction in order; a group with a failing batch writes none of it", async () => {
    const { db, other } = twoConnections();
    const store = db as PgStore;
    const key = 4243;
    // Waits on the server until the other connection lets go of the lock: the batch stays
    // "being written" for as long as the test needs.
    const lockedInsert = (uid: string) =>
      db
        .prepare(
          "INSERT INTO users (uid, invite_code, created_at) SELECT ?, ?, 0 FROM (SELECT pg_advisory_xact_lock(?)) AS l",
        )
        .run(uid, uid, key);
    const transactionOf = () =>
      Object.fromEntries(
        (
          other.prepare("SELECT uid, xmin::text AS tx FROM users WHERE uid LIKE 'wb-%'").all() as {
            uid: string;
            tx: string;
          }[]
        ).map((r) => [r.uid, r.tx]),
      );
    const oneCommandBatches = (failures: unknown[] = []) =>
      new Sequencer({
        db,
        onWriteFailure: (e) => failures.push(e),
        maxBatchMs: 60_000,
        maxBatchCommands: 1,
      });
    /** Runs the first command, held on the server, with the others handed over behind it. */
    async function behindHeldBatch(seq: Sequencer, first: () => void, rest: (() => void)[]) {
      const before = store.batchesTaken;
      other.prepare("SELECT pg_advisory_lock(?)").get(key);
      const answers = [seq.run(first)];
      // Taken alone, the first batch is being written (waiting on the server) before the others come.
      await until("the worker took the first batch", () => store.batchesTaken === before + 1);
      answers.push(...rest.map((c) => seq.run(c)));
      await until(
        "the worker took every batch",
        () => store.batchesTaken === before + 1 + rest.length,
      );
      other.prepare("SELECT pg_advisory_unlock(?)").get(key);
      return Promise.allSettled(answers);
    }

    const written = await behindHeldBatch(
      oneCommandBatches(),
      () => void lockedInsert("wb-1"),
      ["wb-2", "wb-3", "wb-4"].map((u) => () => void insertUser(db, u)),
    );
    expect(written.map((s) => s.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect(uids(other)).toEqual(["wb-1", "wb-2", "wb-3", "wb-4"]);
    const tx = transactionOf();
    expect(tx["wb-2"]).not.toBe(tx["wb-1"]);
    expect(tx["wb-3"]).toBe(tx["wb-2"]);
    expect(tx["wb-4"]).toBe(tx["wb-2"]);

    const failures: unknown[] = [];
    const failed = await behindHeldBatch(
      oneCommandBatches(failures),
      () => void lockedInsert("wb-5"),
      // users.uid is unique: the group's second batch fails on the server, and its first with it.
      [() => void insertUser(db, "wb-6"), () => void insertUser(db, "wb-2")],
    );
    expect(failed.map((s) => s.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    for (const s of failed.slice(1))
      expect((s as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
    expect(failures).toHaveLength(1);
    expect(uids(other)).toEqual(["wb-1", "wb-2", "wb-3", "wb-4", "wb-5"]);
  });

  it("batches posted on the channel and batches handed over by a call (values the channel cannot carry), in turn, are all written", async () => {
    const { db, other } = twoConnections();
    const seq = new Sequencer({
      db,
      onWriteFailure: () => undefined,
      maxBatchMs: 60_000,
      maxBatchCommands: 1,
    });
    // A BIGINT value is no JSON: its batch goes to the worker by a call instead of the channel,
    // and the worker counts it as taken without its being posted there; the channel's batches
    // around it must still be taken and written, in order (pg-channel-watch.test.ts holds the
    // watch's side of it).
    const handedByCall = (uid: string) =>
      db
        .prepare("INSERT INTO users (uid, invite_code, created_at) VALUES (?, ?, ?)")
        .run(uid, uid, 0n);
    const expected: string[] = [];
    for (let round = 0; round < 20; round++) {
      const answers = [];
      for (const k of [0, 1, 2]) {
        const uid = `wb-${round * 3 + k}`;
        expected.push(uid);
        answers.push(seq.run(() => void (k === 1 ? handedByCall(uid) : insertUser(db, uid))));
      }
      await Promise.all(answers);
    }
    expect(uids(other)).toEqual(expected);
  });

  it("ids taken ahead come from the table's own sequence: a row inserted the usual way later gets a later id", async () => {
    const { db, other } = twoConnections();
    const seq = sequencer(db);
    const taken = await seq.run(() => [db.nextId!("users")!, db.nextId!("users")!]);
    expect(taken[1]).toBe(taken[0] + 1);
    // Outside a batch no id is taken ahead: the INSERT answers its own.
    expect(db.nextId!("users")).toBeUndefined();
    const later = Number(insertUser(other, "wb-later").lastInsertRowid);
    expect(later).toBeGreaterThan(taken[1]);
  });

  it("ids keep rising, each given once, one or many at a time, whether the next ones were read ahead in time or not", async () => {
    const { db } = twoConnections();
    const seq = sequencer(db);
    const take = (n: number) =>
      seq.run(() => Array.from({ length: n }, () => db.nextId!("users")!));
    // Several reads' worth in one batch: the ids read ahead cannot have come, the connection reads
    // them, and the read ahead is dropped when it comes.
    const ids = await take(600);
    // Then a few at a time, with the event loop free between batches: the reads ahead come in time.
    for (let i = 0; i < 40; i++) ids.push(...(await take(16)));
    // Many at once (a copy fan-out's orders): more than are held, read on the connection after
    // those held; then as many again, read ahead in that size meanwhile.
    ids.push(...(await seq.run(() => db.nextIds!("users", 1_000)!)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    ids.push(...(await seq.run(() => db.nextIds!("users", 1_000)!)));
    ids.push(...(await take(3)));
    expect(ids).toHaveLength(3_243);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
  });

  it("ids held ahead for a fan-out to come are there for it: taken without a read on the connection", async () => {
    const { db, other } = twoConnections();
    const seq = sequencer(db);
    const lastId = () =>
      Number(
        (
          other
            .prepare("SELECT last_value AS v FROM pg_sequences WHERE sequencename = 'users_id_seq'")
            .get() as { v: number | null }
        ).v ?? 0,
      );
    await db.holdIdsAhead!("users", 2_000);
    const read = lastId();
    const seen = await seq.run(() => {
      const ids = db.nextIds!("users", 2_000)!;
      // Read before the batch returns: no read ahead can have been sent since (the event loop
      // has not turned), so a sequence that moved was read on the connection.
      return { ids, sequence: lastId() };
    });
    expect(seen.sequence).toBe(read);
    expect(seen.ids).toHaveLength(2_000);
    expect(Math.max(...seen.ids)).toBeLessThanOrEqual(read);
  });

  it("a batch a read made begin on the connection has the rest of it written later, while the event loop goes on", async () => {
    const { db, other } = twoConnections();
    const n = await throughHeldLock(db, other, (lockedWrite) => {
      insertUser(db, "wb-read-1");
      // A read: the batch's BEGIN and the write before it go now, on the connection.
      const read = db.prepare("SELECT COUNT(*) AS n FROM users WHERE uid LIKE 'wb-%'").get();
      lockedWrite("wb-read-2");
      return (read as { n: number }).n;
    });
    expect(n).toBe(1);
    expect(uids(other)).toEqual(["wb-read-1", "wb-read-2"]);
    // A later batch with a read whose rest fails: nothing of it is written, the sequencer stops.
    const failures: unknown[] = [];
    const failing = sequencer(db, failures);
    await expect(
      failing.run(() => {
        insertUser(db, "wb-read-3");
        db.prepare("SELECT 1").get();
        insertUser(db, "wb-read-1"); // a duplicate uid: fails where it is written
        return 0;
      }),
    ).rejects.toBeInstanceOf(SequencerStopped);
    expect(failures).toHaveLength(1);
    expect(uids(other)).toEqual(["wb-read-1", "wb-read-2"]);
  });

  it("a batch whose ids were read on the connection (too few held) is still handed off and written whole later", async () => {
    const { db, other } = twoConnections();
    const ids = await throughHeldLock(db, other, (lockedWrite) => {
      const taken = db.nextIds!("users", 1_000)!;
      lockedWrite("wb-ids");
      return taken;
    });
    expect(ids).toHaveLength(1_000);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    expect(uids(other)).toEqual(["wb-ids"]);
  });

  it("a balance held in memory that is no longer the stored one fails its batch instead of booking on it", async () => {
    const { db, other } = twoConnections();
    const money = moneyOf(db);
    const userId = newUser(db, money, 100);
    const failures: unknown[] = [];
    const seq = sequencer(db, failures);
    const fee = { userId, amountMicro: -1_000_000, kind: "fee" as const };
    // The first booking inside a batch reads the balance; the second books from memory.
    expect(await seq.run(() => money.post(fee))).toBe(99_000_000);
    expect(await seq.run(() => money.post(fee))).toBe(98_000_000);
    // Changed behind the service's back (a repair by hand on another connection).
    other.prepare("UPDATE users SET balance_micro = balance_micro + 5 WHERE id = ?").run(userId);
    await expect(seq.run(() => money.post(fee))).rejects.toThrow(/balance in memory/);
    expect(failures).toHaveLength(1);
    const stored = other
      .prepare(
        "SELECT balance_micro AS b, (SELECT COUNT(*) FROM ledger WHERE user_id = ?) AS n FROM users WHERE id = ?",
      )
      .get(userId, userId) as { b: number; n: number };
    // Nothing of the refused batch: the balance as changed by hand, no third fee row.
    expect(stored).toEqual({ b: 98_000_005, n: 3 });
  });

  it("a batch's ledger rows and bookings, each written as one statement, keep their order and balances", async () => {
    const { db, other } = twoConnections();
    const money = moneyOf(db);
    const users = Array.from({ length: 4 }, () => newUser(db, money, 100));
    const seq = sequencer(db);
    // Every balance read once, so that the batch below needs no answer and is handed off whole.
    await Promise.all(
      users.map((userId) => seq.run(() => money.post({ userId, amountMicro: 1, kind: "fee" }))),
    );
    const before = seq.stats.batches;
    const amounts = Array.from({ length: 24 }, (_, i) => -(i + 1) * 1_000);
    await Promise.all(
      amounts.map((amountMicro, i) =>
        seq.run(() => money.post({ userId: users[i % users.length], amountMicro, kind: "fee" })),
      ),
    );
    expect(seq.stats.batches).toBe(before + 1);
    const rows = other
      .prepare(
        `SELECT user_id, amount_micro, balance_after_micro FROM ledger
         WHERE user_id IN (?, ?, ?, ?) AND amount_micro < 0 ORDER BY id`,
      )
      .all(...users) as { user_id: number; amount_micro: number; balance_after_micro: number }[];
    expect(rows.map((r) => r.amount_micro)).toEqual(amounts);
    // One transaction and one statement wrote them all (rows of one statement share its command id).
    const written = other
      .prepare(
        `SELECT COUNT(DISTINCT xmin::text) AS transactions, COUNT(DISTINCT cmin::text) AS statements
         FROM ledger WHERE user_id IN (?, ?, ?, ?) AND amount_micro < 0`,
      )
      .get(...users);
    expect(written).toEqual({ transactions: 1, statements: 1 });
    // And the four balances, six bookings each, by one statement too.
    const balances = other
      .prepare(
        "SELECT COUNT(DISTINCT xmin::text) AS transactions, COUNT(DISTINCT cmin::text) AS statements FROM users WHERE id IN (?, ?, ?, ?)",
      )
      .get(...users);
    expect(balances).toEqual({ transactions: 1, statements: 1 });
    for (const userId of users) {
      const mine = rows.filter((r) => r.user_id === userId);
      let balance = 100_000_001;
      for (const r of mine) expect(r.balance_after_micro).toBe((balance += r.amount_micro));
      const stored = other.prepare("SELECT balance_micro AS b FROM users WHERE id = ?").get(userId);
      expect(stored).toEqual({ b: balance });
    }
  });
  it("a large batch is sent in parts while it is decided: written by the server before its end, committed whole, its results readable", async () => {
    const { db, other } = twoConnections();
    const seq = sequencer(db);
    const seen = await seq.run(() => {
      // 40 statements of 1,000 values: the first parts go before the batch ends.
      const first = insertUsers(db, 0, 20_000);
      const open = batchOpenOnServer(other);
      const visible = uids(other).length;
      const more = insertUsers(db, 20_000, 10_000);
      return { open, visible, firstChanges: first[0].changes, lastChanges: more[19].changes };
    });
    expect(seen.open).toBe(true);
    // The other connection sees nothing of a batch that has not committed.
    expect(seen.visible).toBe(0);
    expect(seen.firstChanges).toBe(500);
    expect(seen.lastChanges).toBe(500);
    expect(uids(other)).toHaveLength(30_000);
  });

  it("a part that fails fails its whole batch: nothing of it is written, the parts after it neither", async () => {
    const { db, other } = twoConnections();
    const failures: unknown[] = [];
    const seq = sequencer(db, failures);
    const settled = await Promise.allSettled([
      seq.run(() => {
        insertUsers(db, 0, 1_000);
        // users.uid is unique: the first part fails on the server while the batch goes on.
        insertUsers(db, 0, 1_000);
        insertUsers(db, 1_000, 20_000);
        return true;
      }),
    ]);
    expect(settled[0].status).toBe("rejected");
    expect((settled[0] as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
    expect(uids(other)).toEqual([]);
    expect(failures).toHaveLength(1);
  });

  it("a command rolled back after its part was sent is rolled back on the server; the rest of its batch commits", async () => {
    const { db, other } = twoConnections();
    const seq = sequencer(db);
    const sent = await seq.run(() => {
      insertUser(db, "wb-before");
      let open = false;
      try {
        db.transaction(() => {
          insertUsers(db, 0, 20_000);
          open = batchOpenOnServer(other);
          throw new Error("refused after its writes were sent");
        })();
      } catch {
        // The command's refusal: its savepoint is rolled back.
      }
      insertUser(db, "wb-after");
      return open;
    });
    expect(sent).toBe(true);
    expect(uids(other)).toEqual(["wb-before", "wb-after"]);
  });
});
