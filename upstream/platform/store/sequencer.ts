/**
 * The sequencer in front of the order engine (docs/decisions/0023-sequencer-and-group-commit.md).
 *
 * Commands (orders, closes, cancels, stop changes, demo resets, copy commands) enter one serial
 * queue. A batch takes every command waiting when it starts (smart batching: what arrived while the
 * previous batch was written), runs them in arrival order inside ONE store transaction, each in a
 * savepoint of its own, and commits once: one commit, one flush to disk (and one advisory lock and
 * fence on PostgreSQL) for the whole batch instead of one per command.
 *
 * What the acknowledgement promises. A command's promise settles only after its batch's commit
 * returned: fulfilled with its answer when the command succeeded and the batch is durable, rejected
 * with its own refusal when it failed (its savepoint rolled back, nothing of it written, the rest of
 * the batch unaffected). Its events (pushes, copy mirroring) run after the commit too, in order,
 * and only when the command succeeded (afterCommit).
 *
 * A batch whose transaction fails as a whole (the commit, or the connection inside it) settles every
 * command of it with that failure, never with an answer, and stops the sequencer: the commands had
 * already changed the engine's memory, which no longer equals the store, so the process must stop
 * leading and rebuild from the store (`onWriteFailure`: the node exits; a standby or the web's
 * supervisor starts over from what was committed). Every later command is refused at once.
 *
 * Invariants (asserted): batches do not nest; a command runs only inside its batch's transaction;
 * every command of a batch is settled exactly once; hooks of a failed command never run.
 * A command is what used to be one transaction: its memory changes follow its store writes, so a
 * command that fails has changed nothing in memory that its savepoint's rollback does not undo
 * (a route with two transactions sends two commands).
 */
import assert from "node:assert/strict";
import type { DB } from "./types.js";

/** At most this many commands per batch. */
export const MAX_BATCH_COMMANDS = 512;
/**
 * A batch stops taking the queue's next command once it has run this long (ms), so that the event
 * loop (ticks, pushes, reads) is never held much longer than this by one batch.
 */
export const MAX_BATCH_MS = 8;
/**
 * Batches handed to the store and not yet settled. The next batch is decided while the one before
 * it is written (its commands see what that one did, in memory). On PostgreSQL the batches that
 * wait while one is written are written together, as one transaction, when the connection is free
 * (pg-worker.mjs startBatch; decision 0030's amendment): a command then waits for the write under
 * way and its own group's, however many batches the event loop decided meanwhile. Batches settle
 * in order; a failed batch fails every batch after it too.
 */
export const MAX_IN_FLIGHT_BATCHES = 8;

interface Pending {
  command: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** The hooks of the batch under way on a store: those of settled commands, and the current one's. */
interface OpenBatch {
  committed: (() => void)[];
  current: (() => void)[] | null;
  /** The current command's follow-ups (afterCommand), run once it succeeded. */
  followUps: (() => void)[] | null;
  /** Run when the batch ended, whatever became of it and of its commands (afterBatch). */
  ended: (() => void)[];
}

const openBatches = new WeakMap<DB, OpenBatch>();

/**
 * Runs `fn` once what is being done on `db` is durable: after the commit of the sequencer's batch
 * under way (and only if the current command succeeds), at once when no batch is open.
 */
export function afterCommit(db: DB, fn: () => void): void {
  const b = openBatches.get(db);
  if (!b) return fn();
  assert(b.current !== null, "afterCommit inside a batch but outside its commands");
  b.current.push(fn);
}

/**
 * Runs `fn` once the current command succeeded, as a command of its own in the same batch (its
 * own savepoint; its afterCommit hooks run at the batch's commit, before the batch's answers);
 * at once when no batch is open (after the transaction that called it, as afterCommit). For what a
 * command's outcome sets off that must be decided before its answer, without holding the event
 * loop on the store (copy trading's mirroring of a provider's order). A follow-up that fails is
 * rolled back alone: the command it follows keeps its outcome.
 */
export function afterCommand(db: DB, fn: () => void): void {
  const b = openBatches.get(db);
  if (!b) return fn();
  assert(b.followUps !== null, "afterCommand inside a batch but outside its commands");
  b.followUps.push(fn);
}

/**
 * Runs `fn` when the sequencer's batch under way on `db` has ended, whether it committed or failed
 * and whether the current command succeeded or was rolled back (at once when no batch is open):
 * for what a command holds only while its outcome is unknown.
 */
export function afterBatch(db: DB, fn: () => void): void {
  const b = openBatches.get(db);
  if (!b) return fn();
  b.ended.push(fn);
}

/** True while a sequencer's batch is open on `db` (a command runs in a savepoint of it). */
export function inBatch(db: DB): boolean {
  return openBatches.has(db);
}

/** Why the sequencer refuses commands once a batch failed: the node is stopping. */
export class SequencerStopped extends Error {
  constructor(readonly cause: unknown) {
    super(`the store failed to write a batch; this node stops leading: ${String(cause)}`);
    this.name = "SequencerStopped";
  }
}

export interface SequencerOptions {
  db: DB;
  /** Called once, with the failure, when a batch could not be written (the node must stop). */
  onWriteFailure: (err: unknown) => void;
  maxBatchCommands?: number;
  maxBatchMs?: number;
  /** Batches written at once (MAX_IN_FLIGHT_BATCHES). */
  maxInFlight?: number;
  /**
   * Runs one command in a transaction of its own, nested in the batch's (a savepoint). Default:
   * db.transaction. The upstream passes the money service's, which tells the balances again as the
   * store holds them when a command is rolled back.
   */
  transaction?: <T>(command: () => T) => T;
  /** Hears a follow-up (afterCommand) that failed and was rolled back. */
  onFollowUpError?: (err: unknown) => void;
  /** Milliseconds of a monotonic clock: the batch's time cap and its times (default performance.now). */
  clock?: () => number;
}

/** Figures of the batches so far (GET /healthz of a leader reports them; bench:cluster too). */
export interface SequencerStats {
  batches: number;
  commands: number;
  largestBatch: number;
  /**
   * Milliseconds the event loop spent on the batches, summed: deciding their commands, and on a
   * store that writes a batch as it is decided (SQLite) writing it too. Divided by `batches`: how
   * long one batch held the loop.
   */
  loopMs: number;
  /**
   * Milliseconds from each batch leaving the event loop to its write returning (durable), summed:
   * the store's part of a command's answer time. Divided by `batches`: one write's time, which
   * a slow disk or a busy database server makes grow.
   */
  writeMs: number;
  /** The longest of those writes, in milliseconds. */
  longestWriteMs: number;
}

/** A batch's two times (SequencerStats): on the event loop, then until durable. */
type BatchTimes = Pick<SequencerStats, "loopMs" | "writeMs">;

export class Sequencer {
  private queue: Pending[] = [];
  private head = 0;
  private scheduled = false;
  private stopped: SequencerStopped | null = null;
  /** Batches being written asynchronously, decided and not yet settled. */
  private inFlight = 0;
  /** Settles once the last batch handed to the store has settled (its commands answered). */
  private lastSettled: Promise<void> = Promise.resolve();
  /** Settles once the last command queued has been answered or refused (idle). */
  private lastQueued: Promise<void> = Promise.resolve();
  private readonly maxCommands: number;
  private readonly maxMs: number;
  private readonly maxInFlight: number;
  private readonly clock: () => number;
  readonly stats: SequencerStats = {
    batches: 0,
    commands: 0,
    largestBatch: 0,
    loopMs: 0,
    writeMs: 0,
    longestWriteMs: 0,
  };

  constructor(private readonly o: SequencerOptions) {
    this.maxCommands = o.maxBatchCommands ?? MAX_BATCH_COMMANDS;
    this.maxMs = o.maxBatchMs ?? MAX_BATCH_MS;
    this.maxInFlight = o.maxInFlight ?? MAX_IN_FLIGHT_BATCHES;
    this.clock = o.clock ?? (() => performance.now());
    assert(this.maxCommands >= 1 && this.maxMs > 0, "a batch takes at least one command");
    assert(this.maxInFlight >= 1, "at least one batch is written at a time");
  }

  /**
   * Queues `command` (synchronous: it decides in memory and writes through the store) and resolves
   * with its answer once its batch is durable; rejects with its refusal, or with SequencerStopped.
   */
  run<T>(command: () => T): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const answer = new Promise<T>((resolve, reject) => {
      this.queue.push({ command, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
    this.lastQueued = answer.then(
      () => undefined,
      () => undefined,
    );
    return answer;
  }

  /**
   * Settles once every command queued before it, and every command those queued in turn (a tick's
   * bookings, what their events set off), has been answered or refused: for a reader that must see
   * what the engine set off on its own (a test that moves the market, then reads the store).
   */
  async idle(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.lastQueued;
      await last;
      // The answers' own continuations (events, pushes) may queue more.
      await new Promise<void>((resolve) => setImmediate(resolve));
    } while (last !== this.lastQueued);
  }

  /**
   * For a node shutting down, before its store closes: settles once every command queued so far
   * (and what those queued in turn) is answered, then takes no more. A command queued after that
   * is refused with SequencerStopped and never reaches the store, so no batch is written to a
   * store being closed (which would count as a failed write and end the process).
   */
  async close(): Promise<void> {
    await this.idle();
    this.stopped ??= new SequencerStopped(new Error("the node is shutting down"));
  }

  /** Commands queued and not yet in a batch. */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // After the current I/O phase: every request read in it joins the same batch.
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    if (this.stopped || this.inFlight >= this.maxInFlight || this.waiting === 0) return;
    this.writeBatch();
    if (this.waiting > 0) this.schedule();
    else this.compact();
  }

  private compact(): void {
    this.queue = [];
    this.head = 0;
  }

  /**
   * One batch: its commands in savepoints of one transaction, then hooks and answers once it is
   * written. A store that writes it asynchronously (batchWrites' promise) leaves the event loop
   * free meanwhile; the commands arriving then form the next batch, which is decided and handed to
   * the store while this one is written (at most MAX_IN_FLIGHT_BATCHES at a time), and settles
   * after it.
   */
  private writeBatch(): void {
    const db = this.o.db;
    assert(!openBatches.has(db) && !db.inTransaction, "batches do not nest");
    const batch: OpenBatch = { committed: [], current: null, followUps: null, ended: [] };
    const taken: Pending[] = [];
    const results: { ok: boolean; value: unknown }[] = [];
    const started = this.clock();
    openBatches.set(db, batch);
    const write = db.transaction(() => {
      while (
        this.waiting > 0 &&
        taken.length < this.maxCommands &&
        (taken.length === 0 || this.clock() - started < this.maxMs)
      ) {
        const p = this.queue[this.head++];
        taken.push(p);
        results.push(this.runOne(db, batch, p));
      }
    });
    let written: Promise<void> | null;
    try {
      written = db.batchWrites ? db.batchWrites(() => write()) : (write(), null);
    } catch (err) {
      openBatches.delete(db);
      for (const h of batch.ended) h();
      this.fail(err, taken);
      return;
    }
    openBatches.delete(db);
    const handedAt = this.clock();
    const times: BatchTimes = { loopMs: handedAt - started, writeMs: 0 };
    if (!written && this.inFlight === 0) return this.settle(batch, taken, results, times);
    // In order: after every batch before it has settled.
    this.inFlight++;
    const before = this.lastSettled;
    const outcome = (written ?? Promise.resolve()).then(
      () => {
        times.writeMs = this.clock() - handedAt;
        return null;
      },
      (err: unknown) => ({ err }),
    );
    this.lastSettled = Promise.all([before, outcome]).then(([, failed]) => {
      this.inFlight--;
      if (this.stopped) {
        // A batch before it failed: it was decided on what that one held, and is not answered.
        for (const h of batch.ended) h();
        for (const p of taken) p.reject(this.stopped);
      } else if (failed) {
        for (const h of batch.ended) h();
        this.fail(failed.err, taken);
      } else {
        this.settle(batch, taken, results, times);
      }
      this.drain();
    });
  }

  /** The batch is written: its hooks run, then every command gets its answer or refusal. */
  private settle(
    batch: OpenBatch,
    taken: Pending[],
    results: { ok: boolean; value: unknown }[],
    times: BatchTimes,
  ) {
    for (const h of batch.ended) h();
    assert.equal(results.length, taken.length, "every command of the batch has a result");
    assert(times.loopMs >= 0 && times.writeMs >= 0, "a batch's times are not negative");
    const s = this.stats;
    s.batches++;
    s.commands += taken.length;
    s.largestBatch = Math.max(s.largestBatch, taken.length);
    s.loopMs += times.loopMs;
    s.writeMs += times.writeMs;
    s.longestWriteMs = Math.max(s.longestWriteMs, times.writeMs);
    for (const h of batch.committed) h();
    taken.forEach((p, i) =>
      results[i].ok ? p.resolve(results[i].value) : p.reject(results[i].value),
    );
  }

  /** One command in its own savepoint; its hooks join the batch's only when it succeeded. */
  private runOne(db: DB, batch: OpenBatch, p: Pending): { ok: boolean; value: unknown } {
    return this.runCommand(db, batch, p.command);
  }

  /** A command, then (when it succeeded) its follow-ups, each a command of its own. */
  private runCommand(
    db: DB,
    batch: OpenBatch,
    command: () => unknown,
  ): { ok: boolean; value: unknown } {
    batch.current = [];
    batch.followUps = [];
    let followUps: (() => void)[];
    let value: unknown;
    try {
      value = this.o.transaction ? this.o.transaction(command) : db.transaction(command)();
      batch.committed.push(...batch.current);
      followUps = batch.followUps;
    } catch (err) {
      return { ok: false, value: err };
    } finally {
      batch.current = null;
      batch.followUps = null;
    }
    for (const f of followUps) {
      const r = this.runCommand(db, batch, f);
      if (!r.ok) this.o.onFollowUpError?.(r.value);
    }
    return { ok: true, value };
  }

  /** The batch was not written: nothing of it is acknowledged, and this node stops leading. */
  private fail(err: unknown, taken: Pending[]): void {
    this.stopped = new SequencerStopped(err);
    const rest = this.queue.slice(this.head);
    this.compact();
    for (const p of [...taken, ...rest]) p.reject(this.stopped);
    this.o.onWriteFailure(err);
  }
}
