/**
 * The store on PostgreSQL (DATABASE_URL=postgres://…), with the same synchronous interface as
 * better-sqlite3 (db.ts `DB`): each call runs on the store's one connection, held by a worker
 * thread (pg-worker.mjs), and returns when PostgreSQL has answered. See
 * docs/decisions/0018-postgresql-store.md for why the store stays synchronous.
 *
 * Transactions keep SQLite's meaning for the code above:
 * - `db.transaction(fn)()` is one writer at a time across every node: it begins with a
 *   transaction-scoped advisory lock (WRITE_LOCK), as SQLite's BEGIN IMMEDIATE takes the file's
 *   write lock. A read-then-write inside it therefore sees no other writer's commit in between.
 * - `.deferred()` is a read-only snapshot (REPEATABLE READ) without the lock.
 * - A transaction called inside another is a savepoint; a throw rolls back to it and rethrows.
 *   Savepoints cost no round trip of their own: `SAVEPOINT` and `RELEASE SAVEPOINT` wait and go to
 *   the worker with the next statement (in one simple query before it), and a savepoint in which
 *   nothing was sent is never sent at all (the sequencer's batch puts every command in one).
 * Commits are synchronous (synchronous_commit on): a commit returned is on the server's disk.
 *
 * Write-behind inside the sequencer's batches (`batchWrites`, decision 0024): there, a write's
 * `run()` (INSERT, UPDATE, DELETE) is not sent at once. It waits, with the savepoints and the
 * batch's BEGIN, and goes with the next statement that must answer (a read, a result asked for),
 * all of them in one round trip and, where their values allow, one simple query. Reads therefore
 * always see the writes before them. The row count a write must have is given with
 * `expectChanges` and checked where its answer arrives (by the server, inside the batch's own
 * round trip, when the batch is written whole). When nothing in a batch had to answer (the
 * engine decided it from memory), the whole transaction (BEGIN, lock, fence, statements, COMMIT)
 * is handed to the worker through shared memory and written while the event loop goes on; the
 * batch's promise settles once it is durable or failed. The worker runs a store's calls in the
 * order they were made, a handed batch included, and fails every call made while a batch that
 * then failed was being written (it was decided on what that batch held).
 * A waiting write that fails breaks the whole transaction (every later call of it fails, the
 * COMMIT too), since which of the waiting statements failed is not known to their callers:
 * inside a batch, what any failed write means already (the batch fails, the node stops leading).
 */
import assert from "node:assert/strict";
import { createSyncFn } from "synckit";
import pg from "pg";
import { fileURLToPath } from "node:url";
import type { AnyFn, DB, RunResult, Statement, TransactionFn } from "./types.js";
import type { LaterRunResult } from "./expect-changes.js";
import { toPostgres, valuesFor, type PgStatement } from "./sql-dialect.js";
import { coalesceAppends, coalesceRuns, type PreStatement } from "./pg-coalesce.js";

export type { PreStatement } from "./pg-coalesce.js";

interface Answer {
  rows?: Array<Record<string, unknown>>;
  rowCount?: number;
  ok?: boolean;
  error?: { message: string; code: string | null; detail: string | null };
  /** The results of the statements that waited (`pre`), in order. */
  pre?: PreResult[];
}

/** What the worker answers for one statement that waited: its row count and its first row. */
export interface PreResult {
  rowCount: number;
  row: Record<string, unknown> | null;
}

/** What the worker runs (pg-worker.mjs): a transaction's statements stay on its connection. */
type Op =
  | "query"
  | "exec"
  | "begin"
  | "commit"
  | "rollback"
  | "close"
  | "attach"
  | "batch"
  | "batchError"
  | "partResults";

type Call = (
  handle: number,
  url: string,
  op: Op,
  sql: string | null,
  params: unknown[],
  name: string | null,
  pre: PreStatement[] | null,
) => Answer;

/** The advisory lock key every write transaction holds (one writer at a time, as SQLite). */
export const WRITE_LOCK = 7_201_001;

/**
 * How long one call may wait for PostgreSQL before it fails (ms): a node cut off from the server
 * fails its calls (and a leader then finds its lock lost) instead of waiting on the network.
 */
const CALL_TIMEOUT_MS = 20_000;

/**
 * A write-behind batch whose waiting statements hold this many values is sent in parts
 * (streamPart): about 1,500 new orders' rows, some 400 KB on the batch channel.
 */
const STREAM_VALUES = 24_000;

/** Ids a table's sequence is asked for at once (nextId): one read per this many new rows. */
const IDS_PER_READ = 256;

/**
 * The next `count` (IDS_PER_READ) ids of `table`'s sequence. nextval is outside any transaction: the ids stay
 * taken whatever becomes of the transaction, and no other connection is given them.
 */
const idsSql = (table: string, count = IDS_PER_READ) =>
  `SELECT nextval(pg_get_serial_sequence('${table}', 'id')) AS id FROM generate_series(1, ${count})`;

/** Ids as nextId holds them: the next one last. */
const idsOf = (rows: Record<string, unknown>[]): number[] =>
  rows.map((r) => Number(r.id)).sort((a, b) => b - a);

/**
 * Connections of a store's asynchronous reads (getLater), opened as reads wait for one and closed
 * after 10 s idle. Each order reads twice here (its session, its idempotency key) before it is
 * queued: with four, a server 1 ms away capped a leader at about 820 orders/s at 64 clients (reads
 * waiting for a connection, batches of 4.7 commands); with sixteen, 1,461/s (batches of 18.4).
 */
const READ_POOL_SIZE = 16;

let call: Call | null = null;
let nextHandle = 1;

function worker(): Call {
  call ??= createSyncFn<Call>(fileURLToPath(new URL("./pg-worker.mjs", import.meta.url)), {
    timeout: CALL_TIMEOUT_MS,
  }) as unknown as Call;
  return call;
}

/** An error of PostgreSQL, with its SQLSTATE as `code` (23505: unique violation, …). */
export class PgError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly detail: string | null,
  ) {
    super(message);
    this.name = "PgError";
  }
}

/** Atomics.waitAsync (Node 16+; not in the ES2022 library the project compiles against). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      a: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

/** Slots of a batch channel's control words (see BatchChannel). */
const BATCH_POSTED = 0;
const BATCH_DONE = 1;
/** The number of the first batch that failed (0: none since the store last read a failure). */
const BATCH_FAILED = 2;
/** The number of the last batch the worker took: slots up to it may be written again. */
const BATCH_TAKEN = 3;
/** The length of each slot's batch: BATCH_BYTES + slot. */
const BATCH_BYTES = 4;
/**
 * Batches (and parts of one, streamPart) the channel holds at once. A slot is written only once the
 * worker took what it held; one that is not free yet sends its batch by a call instead, and a part
 * waits for a later one.
 */
export const BATCH_SLOTS = 4;
/** The largest batch (its statements as JSON) a slot carries; a larger one goes by a call. */
const BATCH_SLOT_BYTES = 4 * 1024 * 1024;

/**
 * How a batch reaches the worker without a blocking call: shared memory. The main thread writes
 * batch `seq` (JSON) into slot `seq % BATCH_SLOTS` of `data`, its length beside it and `seq` into
 * BATCH_POSTED, and wakes the worker; the worker takes every batch posted since the last it took
 * (and sets BATCH_TAKEN to it, which frees their slots),
 * in order (also before any call that comes after them, so calls and batches run in the order
 * made), writes each, then sets BATCH_DONE to its number (and BATCH_FAILED, once, to the first
 * that failed) and wakes the main thread, which waits without holding its event loop
 * (Atomics.waitAsync). A batch after a failed one is not written: it was decided on what the
 * failed one held.
 */
class BatchChannel {
  readonly ctrl = new Int32Array(new SharedArrayBuffer(4 * (BATCH_BYTES + BATCH_SLOTS)));
  readonly data = new SharedArrayBuffer(BATCH_SLOT_BYTES * BATCH_SLOTS);
  private readonly bytes = new Uint8Array(this.data);
  private readonly encoder = new TextEncoder();

  /**
   * Posts batch `seq`, or a part of one (`final` false: see PgStore.streamPart); false when it
   * cannot go this way (its slot not free yet, too large, or a value JSON cannot carry).
   */
  post(seq: number, begin: string | null, pre: PreStatement[], final = true): boolean {
    if (Atomics.load(this.ctrl, BATCH_TAKEN) < seq - BATCH_SLOTS) return false;
    for (const [, values] of pre) if (values && !values.every(jsonSafe)) return false;
    const json = JSON.stringify([begin, pre, final]);
    const slot = seq % BATCH_SLOTS;
    // Encoded straight into its slot (free: taken by the worker), a fifth of encoding and copying.
    const at = slot * BATCH_SLOT_BYTES;
    const { read, written } = this.encoder.encodeInto(
      json,
      this.bytes.subarray(at, at + BATCH_SLOT_BYTES),
    );
    if (read < json.length) return false;
    Atomics.store(this.ctrl, BATCH_BYTES + slot, written);
    Atomics.store(this.ctrl, BATCH_POSTED, seq);
    Atomics.notify(this.ctrl, BATCH_POSTED);
    return true;
  }

  /** Resolves once batch `seq` (and so every one before it) was written or refused. */
  async done(seq: number, timeoutMs: number): Promise<void> {
    const until = performance.now() + timeoutMs;
    for (;;) {
      const done = Atomics.load(this.ctrl, BATCH_DONE);
      if (done >= seq) return;
      const left = until - performance.now();
      if (left <= 0)
        throw new PgError(`a batch was not written within ${timeoutMs} ms`, null, null);
      const wait = waitAsync(this.ctrl, BATCH_DONE, done, left);
      if (wait.async) await wait.value;
    }
  }

  /** True when batch `seq`, or one before it, failed (read once `done(seq)` resolved). */
  failed(seq: number): boolean {
    const first = Atomics.load(this.ctrl, BATCH_FAILED);
    return first !== 0 && first <= seq;
  }
}

/** A value JSON carries unchanged (what a statement's values are, but buffers and dates). */
const jsonSafe = (v: unknown): boolean =>
  v === null ||
  typeof v === "string" ||
  typeof v === "boolean" ||
  (typeof v === "number" && Number.isFinite(v)) ||
  (Array.isArray(v) && v.every(jsonSafe));

/**
 * A batch's transaction, written later, asynchronously (commitLater): a whole one that needed no
 * answer (its BEGIN), or the rest of one that a read made begin on the connection (null: the
 * transaction is open there already), with the writes still waiting and its COMMIT.
 */
interface HandOff {
  begin: string | null;
  statements: Queued[];
  /** The writes of the batch sent before its end (streamPart): they fail with it. */
  streamed: Queued[];
}

/** BIGINT and NUMERIC as numbers, as the worker reads them (pg-worker.mjs). */
const NUMBER_TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20 || oid === 1700
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/** A write that waits (write-behind), or a savepoint statement; see the module's comment. */
interface Queued {
  sql: string;
  values: unknown[] | null;
  name: string | null;
  returnsId: boolean;
  /** The result handed to the caller of the write's run(); null for savepoint statements. */
  result: LaterResult | null;
  /** For a SAVEPOINT: the depth it opens. */
  opens: number | null;
}

/** A waiting statement as the worker runs it: its SQL, values, name and expected row count. */
const preOf = (q: Queued): PreStatement => [q.sql, q.values, q.name, q.result?.expected ?? null];

/**
 * The result of a write that waits: reading `changes` or `lastInsertRowid` sends what waits first.
 * The row count it must have (expectChanges) is checked where its answer arrives.
 */
class LaterResult implements LaterRunResult {
  private value: RunResult | null = null;
  private dropped = false;
  private failed: Error | null = null;
  expected: [rows: number, message: string] | null = null;

  /** `answer` makes the store send (or fetch the results of) what this write went with. */
  constructor(private readonly answer: (r: LaterResult) => void) {}

  settle(r: RunResult): void {
    this.value = r;
  }

  /** It was sent and what waited with it failed: reading it throws that failure. */
  fail(err: Error): void {
    this.failed = err;
  }

  /** The savepoint around it was rolled back before it was sent: it never ran. */
  drop(): void {
    this.dropped = true;
  }

  private read(): RunResult {
    assert(!this.dropped, "the result of a write that was rolled back before it ran");
    if (this.failed) throw this.failed;
    if (!this.value) this.answer(this);
    assert(this.value, "a waiting write was sent and has a result");
    return this.value;
  }

  get changes(): number {
    return this.read().changes;
  }

  get lastInsertRowid(): number {
    return Number(this.read().lastInsertRowid);
  }

  expect(rows: number, message: string): void {
    assert(this.expected === null, "one expected row count per write");
    if (this.value) {
      if (this.value.changes !== rows) throw new Error(message);
    } else if (!this.dropped && !this.failed) this.expected = [rows, message];
  }
}

const WRITE = /^\s*(INSERT|UPDATE|DELETE)\b/i;

export class PgStore implements DB {
  readonly dialect = "postgres" as const;
  private readonly handle = nextHandle++;
  private readonly statements = new Map<string, PgStatement & { name: string }>();
  private tablesWithId: Set<string> = new Set();
  private depth = 0;
  /** Statements not yet sent (savepoints, waiting writes), in order; they go with the next one. */
  private pending: Queued[] = [];
  /** The values of the pending statements, in all (streamPart's measure of a batch's size). */
  private pendingValues = 0;
  /**
   * The statements of the batch under way sent in parts before its end (streamPart), in order:
   * their results come from the worker when one is read (settleStreamed).
   */
  private streamed: Queued[] = [];
  /** The outer BEGIN of a batch, not sent yet (see within). */
  private beginWaiting: string | null = null;
  private batchChannel: BatchChannel | null = null;
  /** The last batch handed to the worker: true once written, false when it (or one before) failed. */
  private lastBatch: Promise<boolean> = Promise.resolve(true);
  /** Batches handed to the worker so far (their sequence numbers). */
  private batchSeq = 0;
  /** A batch that needed no answer, handed from its transaction to batchWrites' commitLater. */
  private handOff: HandOff | null = null;
  /** Writes wait (write-behind) while this is on: inside the sequencer's batch (batchWrites). */
  private deferring = false;
  /**
   * The failure of a waiting write, which broke the transaction under way: every later call of the
   * transaction fails with it, its COMMIT too, until it is rolled back.
   */
  private broken: PgError | null = null;
  /** A statement every write transaction runs after its BEGIN (the leader's fence), or null. */
  private fence: string | null = null;
  private named = 0;
  private closed = false;

  /** Connections of the asynchronous reads (readLater), opened at the first one. */
  private pool: pg.Pool | null = null;

  constructor(readonly url: string) {}

  /**
   * One row of a read that does not wait in line with the store's statements: it runs on a small
   * pool of its own connections while the event loop goes on, and sees what was committed (never
   * the store's open transaction). For the reads a request makes before its command enters the
   * sequencer (its session, its idempotency key).
   */
  async getLater(sql: string, args: unknown[]): Promise<Record<string, unknown> | undefined> {
    return (await this.allLater(sql, args))[0];
  }

  /** Every row of a read that does not wait in line with the store's statements (see getLater). */
  async allLater(sql: string, args: unknown[]): Promise<Record<string, unknown>[]> {
    if (this.closed) throw new PgError("The store is closed", null, null);
    const st = this.statementOf(sql);
    this.pool ??= this.openPool();
    try {
      const r = await this.pool.query({
        name: st.name,
        text: st.text,
        values: valuesFor(st.slots, args),
      });
      return r.rows as Record<string, unknown>[];
    } catch (err) {
      const e = err as { message?: string; code?: string; detail?: string };
      throw new PgError(String(e.message ?? err), e.code ?? null, e.detail ?? null);
    }
  }

  private openPool(): pg.Pool {
    const pool = new pg.Pool({
      connectionString: this.url,
      max: READ_POOL_SIZE,
      application_name: "tradepost-upstream-reads",
      types: NUMBER_TYPES,
    });
    // A connection that breaks is dropped by the pool; its query already failed.
    pool.on("error", () => undefined);
    this.onClose(() => void pool.end().catch(() => undefined));
    return pool;
  }

  private statementOf(sql: string): PgStatement & { name: string } {
    let st = this.statements.get(sql);
    if (!st) {
      // Names are never reused on the connection, even after learnSchema() forgets the statements.
      st = { ...toPostgres(sql, this.tablesWithId), name: `t${++this.named}` };
      this.statements.set(sql, st);
    }
    return st;
  }

  /**
   * Makes every write transaction begun from now on run `sql` first (in the same round trip), so
   * that it fails when `sql` raises: the leader's fence (platform/store/leader-lock.ts).
   */
  fenceWith(sql: string): void {
    this.fence = sql;
  }

  /** Reads which tables have an `id` column (after the migrations, which may add tables). */
  learnSchema(): void {
    const rows = this.send(
      "query",
      "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'id'",
      [],
    ).rows!;
    this.tablesWithId = new Set(rows.map((r) => String(r.table_name)));
    this.statements.clear();
  }

  prepare(sql: string): Statement {
    const s = this.statementOf(sql);
    const query = (args: unknown[]) => this.send("query", s.text, valuesFor(s.slots, args), s.name);
    const write = WRITE.test(s.text);
    return {
      run: (...args: unknown[]): RunResult => {
        if (write && this.deferring && this.depth > 0) {
          if (this.pendingValues >= STREAM_VALUES) this.streamPart();
          const result = new LaterResult((r) => this.answerFor(r));
          const values = valuesFor(s.slots, args);
          this.pendingValues += values.length;
          this.pending.push({
            sql: s.text,
            values,
            name: s.name,
            returnsId: s.returnsId,
            result,
            opens: null,
          });
          return result;
        }
        const r = query(args);
        const id = s.returnsId && r.rows!.length > 0 ? Number(r.rows![0].id) : 0;
        return { changes: r.rowCount ?? 0, lastInsertRowid: id };
      },
      get: (...args: unknown[]) => query(args).rows![0],
      all: (...args: unknown[]) => query(args).rows!,
    };
  }

  exec(sql: string): void {
    this.send("exec", sql, []);
  }

  get writesWait(): boolean {
    return this.deferring && this.depth > 0;
  }

  /** Ids taken from each table's sequence and not used yet, by table (nextId), the next last. */
  private readonly ids = new Map<string, number[]>();
  /** Per table, the ticket of the read of ids under way off the event loop (readIdsAhead). */
  private readonly idsAhead = new Map<string, number>();
  private idTickets = 0;
  /** Per table, the most ids a fan-out to come was said to take (holdIdsAhead). */
  private readonly idsWanted = new Map<string, number>();
  /** Per table, the last read of ids ahead (readIdsAhead), settled once it is over. */
  private readonly idsRead = new Map<string, Promise<void>>();
  /**
   * Per table, how many ids a read ahead takes: IDS_PER_READ, or the most one nextIds call has
   * asked for (copy trading's mirroring takes one per copy), so that the next such call finds them.
   */
  private readonly idsPerRead = new Map<string, number>();

  nextId(table: string): number | undefined {
    return this.nextIds(table, 1)?.[0];
  }

  nextIds(table: string, count: number): number[] | undefined {
    if (!this.writesWait) return undefined;
    assert(Number.isSafeInteger(count) && count >= 1, `ids are taken one or more at a time`);
    const perRead = Math.max(this.idsPerRead.get(table) ?? IDS_PER_READ, count);
    this.idsPerRead.set(table, perRead);
    let free = this.ids.get(table) ?? [];
    if (free.length < count) {
      assert(this.tablesWithId.has(table), `table ${table} has no id column`);
      // Too few read ahead have come: read the rest on the connection. They follow every id held;
      // a read ahead still under way is dropped when it comes (its ids would come before these).
      this.idsAhead.delete(table);
      const more = idsOf(this.readAside(idsSql(table, count - free.length + IDS_PER_READ)).rows!);
      free = [...more, ...free];
      this.ids.set(table, free);
    }
    const taken = free.splice(free.length - count, count).reverse();
    if (free.length <= perRead / 2 && !this.idsAhead.has(table)) this.readIdsAhead(table);
    return taken;
  }

  /** Settles once the ids are held, or the read of them is over (see DB.holdIdsAhead). */
  holdIdsAhead(table: string, count: number): Promise<void> {
    if (this.closed || !this.tablesWithId.has(table)) return Promise.resolve();
    assert(Number.isSafeInteger(count) && count >= 0, "a count of ids to hold");
    if (count > (this.idsPerRead.get(table) ?? IDS_PER_READ)) this.idsPerRead.set(table, count);
    if (count > (this.idsWanted.get(table) ?? 0)) this.idsWanted.set(table, count);
    // A read under way brings its ids first; the next nextIds reads on when they are too few.
    if (this.idsAhead.has(table)) return this.idsRead.get(table) ?? Promise.resolve();
    const held = this.ids.get(table)?.length ?? 0;
    return held < count ? this.readIdsAhead(table) : Promise.resolve();
  }

  /**
   * Takes the next ids of `table` (idsPerRead) on a read connection, without holding the event
   * loop, before those held run out: each follows every id held (the sequence only grows, and this
   * read began after those were taken), so ids keep the order they are used in.
   */
  private readIdsAhead(table: string): Promise<void> {
    const ticket = ++this.idTickets;
    this.idsAhead.set(table, ticket);
    const mine = () => this.idsAhead.get(table) === ticket;
    const read: Promise<void> = this.allLater(
      idsSql(table, this.idsPerRead.get(table) ?? IDS_PER_READ),
      [],
    ).then(
      (rows): Promise<void> | undefined => {
        if (!mine()) return;
        this.idsAhead.delete(table);
        const held = [...idsOf(rows), ...(this.ids.get(table) ?? [])];
        this.ids.set(table, held);
        // Still fewer than a fan-out to come was said to take (asked for while this read was
        // under way): read on.
        if (held.length < (this.idsWanted.get(table) ?? 0)) return this.readIdsAhead(table);
      },
      () => {
        // The connection read them next time, if it is still needed.
        if (mine()) this.idsAhead.delete(table);
      },
    );
    this.idsRead.set(table, read);
    return read;
  }

  private readonly rollbackListeners: Array<() => void> = [];

  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /**
   * Gives a waiting write its result: sends what waits with it (savepoints, waiting writes) in one
   * round trip, or, for a write sent in a part of the batch (streamPart), fetches the parts' results.
   */
  private answerFor(r: LaterResult): void {
    if (this.pending.some((q) => q.result === r)) this.send("exec", "SELECT 1", []);
    else if (this.streamed.some((q) => q.result === r)) this.settleStreamed();
  }

  /** Replaces the pending statements (and their count of values). */
  private setPending(list: Queued[]): void {
    this.pending = list;
    let n = 0;
    for (const q of list) n += q.values?.length ?? 0;
    this.pendingValues = n;
  }

  /**
   * Sends the statements waiting in a write-behind batch to the worker now, as a part of the batch
   * (with its BEGIN when it is the first), without waiting for them: a large batch (a copy fan-out
   * of thousands of orders) is written by the server while the event loop goes on deciding the rest
   * of it. The transaction stays open in the worker; the batch's end goes as before (commitLater,
   * its BEGIN already sent), and nothing of it is answered before its COMMIT. Savepoints go with
   * their part, so that one rolled back after its SAVEPOINT was sent is rolled back on the server
   * (ROLLBACK TO SAVEPOINT, a call). A part that fails fails the batch: the worker rolls it back
   * and refuses the rest. Nothing is sent while the channel's slot is not free yet.
   */
  private streamPart(): void {
    if (this.broken || this.closed || this.pending.length === 0) return;
    const ch = this.channel();
    const seq = this.batchSeq + 1;
    const sent = this.pending;
    if (!ch.post(seq, this.beginWaiting, sent.map(preOf), false)) return;
    this.batchSeq = seq;
    this.beginWaiting = null;
    for (const q of sent) this.streamed.push(q);
    this.setPending([]);
  }

  /** Gives the writes sent in parts their results, as the worker wrote them. */
  private settleStreamed(): void {
    const a = this.call("partResults", "", [], null, null);
    if (a.error) {
      const err = new PgError(a.error.message, a.error.code, a.error.detail);
      for (const q of this.streamed) q.result?.fail(err);
      throw err;
    }
    this.settle(this.streamed, a.pre);
  }

  /**
   * Runs `fn` (which opens and ends a write transaction: the sequencer's batch) with its writes
   * waiting and sent together (write-behind, see the module's comment). When nothing in it had to
   * answer, the transaction is not written yet when `fn` returns: the promise settles once it is
   * (committed, or failed and rolled back), and the event loop goes on meanwhile. Null when it was
   * written already (a statement had to answer, so the batch went on the synchronous connection).
   */
  batchWrites(fn: () => void): Promise<void> | null {
    assert(!this.deferring && this.depth === 0, "write-behind batches do not nest");
    assert(this.handOff === null, "a batch is handed off once");
    this.deferring = true;
    try {
      fn();
    } finally {
      this.deferring = false;
      assert.equal(this.pending.length, 0, "a write-behind batch ended with writes not sent");
    }
    const h = this.handOff;
    this.handOff = null;
    return h ? this.commitLater(h) : null;
  }

  /**
   * Writes a batch that needed no answer, without holding the event loop: the worker writes its
   * BEGIN (lock and fence) and statements in one simple query where their values allow, checks
   * their expected row counts, and commits, or rolls back on any failure. The store's later calls
   * wait behind it in the worker, and fail when it failed (they were decided on what it held).
   */
  private async commitLater(h: HandOff): Promise<void> {
    const pre: PreStatement[] = coalesceRuns(coalesceAppends(h.statements.map(preOf)));
    // The batch before this one: this one was decided on what it held, so it settles after it,
    // and fails when it failed.
    const before = this.lastBatch;
    const written = this.writeLater(h.begin, pre, before);
    this.lastBatch = written.then(
      () => true,
      () => false,
    );
    try {
      await written;
    } catch (err) {
      for (const q of h.streamed) q.result?.fail(err as Error);
      for (const q of h.statements) q.result?.fail(err as Error);
      for (const l of this.rollbackListeners) l();
      throw err;
    }
  }

  /** Hands batch `pre` to the worker and waits for it (see commitLater). */
  private async writeLater(
    begin: string | null,
    pre: PreStatement[],
    before: Promise<boolean>,
  ): Promise<void> {
    const ch = this.channel();
    const seq = ++this.batchSeq;
    if (!ch.post(seq, begin, pre)) this.call("batch", begin, [ch.ctrl.buffer, seq], null, pre);
    await ch.done(seq, CALL_TIMEOUT_MS);
    const failed = ch.failed(seq);
    if (!(await before))
      throw new PgError(
        "a batch written before this one failed; nothing of it was written",
        null,
        null,
      );
    if (!failed) return;
    const a = this.call("batchError", "", [], null, null);
    throw new PgError(
      a.error?.message ?? "a batch failed",
      a.error?.code ?? null,
      a.error?.detail ?? null,
    );
  }

  /** The store's batch channel to the worker, attached at the first batch (see BatchChannel). */
  private channel(): BatchChannel {
    if (!this.batchChannel) {
      const ch = new BatchChannel();
      this.call("attach", "", [ch.ctrl.buffer, ch.data], null, null);
      this.batchChannel = ch;
    }
    return this.batchChannel;
  }

  transaction<F extends AnyFn>(fn: F): TransactionFn<F> {
    const run =
      (begin: () => string) =>
      (...args: Parameters<F>): ReturnType<F> =>
        this.within(begin(), () => fn(...args) as ReturnType<F>);
    // The fence is read when the transaction runs: one set later applies to it too.
    const immediate = run(
      () =>
        `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK})${this.fence ? `; ${this.fence}` : ""}`,
    );
    return Object.assign(immediate, {
      default: immediate,
      immediate,
      exclusive: immediate,
      deferred: run(() => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"),
    }) as unknown as TransactionFn<F>;
  }
  private within<R>(begin: string, body: () => R): R {
    const outer = this.depth === 0;
    const savepoint = `sp${this.depth}`;
    if (outer && this.deferring) {
      // The batch's BEGIN waits too: sent before the first statement that must answer, or with
      // the whole batch at its end (commitLater) when none had to.
      this.beginWaiting = begin;
    } else if (outer) {
      this.sendBegin(begin);
    } else {
      this.pending.push({
        sql: `SAVEPOINT ${savepoint}`,
        values: null,
        name: null,
        returnsId: false,
        result: null,
        opens: this.depth,
      });
    }
    this.depth++;
    let result: R;
    try {
      result = body();
    } catch (err) {
      this.depth--;
      try {
        if (outer) this.endOuter("rollback");
        else if (!this.dropUnsent() && !this.broken)
          this.exec(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      } finally {
        for (const l of this.rollbackListeners) l();
      }
      throw err;
    }
    this.depth--;
    if (outer && this.beginWaiting !== null) {
      // Nothing had to answer: the whole batch is written later, without holding the event loop.
      // Its savepoints are left out: every one of them left here was released (a rolled-back one
      // was dropped with its writes), and any failure of what is written fails the whole batch, so
      // none would ever be rolled back to; each costs the server a subtransaction.
      this.handOff = {
        begin: this.beginWaiting,
        statements: this.pending.filter((q) => q.result !== null),
        streamed: [],
      };
      this.beginWaiting = null;
      this.setPending([]);
    } else if (outer && this.deferring && !this.broken) {
      // A read made the batch begin on the connection; the writes that still wait and the COMMIT
      // are written later all the same, on the transaction open there, while the event loop goes
      // on (the savepoints left out as above).
      this.handOff = {
        begin: null,
        statements: this.pending.filter((q) => q.result !== null),
        streamed: this.streamed,
      };
      this.streamed = [];
      this.setPending([]);
    } else if (outer) {
      if (this.broken) {
        const err = this.broken;
        try {
          this.endOuter("rollback");
        } finally {
          for (const l of this.rollbackListeners) l();
        }
        throw err;
      }
      try {
        this.endOuter("commit");
      } catch (err) {
        // A COMMIT that failed (or whose waiting writes failed) was rolled back.
        for (const l of this.rollbackListeners) l();
        throw err;
      }
    } else if (!this.releaseUnsent()) {
      this.pending.push({
        sql: `RELEASE SAVEPOINT ${savepoint}`,
        values: null,
        name: null,
        returnsId: false,
        result: null,
        opens: null,
      });
    }
    return result;
  }

  private sendBegin(begin: string): void {
    try {
      this.send("begin", begin, []);
    } catch (err) {
      // A BEGIN whose fence or lock failed leaves the transaction open and aborted: end it.
      this.rollbackQuietly();
      throw err;
    }
  }

  /** Commits (with what waits) or rolls back (dropping it) the outer transaction. */
  private endOuter(how: "commit" | "rollback"): void {
    if (how === "rollback") {
      this.dropPending(0);
      for (const q of this.streamed.splice(0)) q.result?.drop();
      this.broken = null;
      // A BEGIN that never left has nothing to roll back.
      if (this.beginWaiting !== null) this.beginWaiting = null;
      else this.send("rollback", "ROLLBACK", []);
      return;
    }
    try {
      this.send("commit", "COMMIT", []);
    } finally {
      // The worker rolled back a COMMIT whose waiting statements failed.
      this.broken = null;
    }
  }

  /** Where the SAVEPOINT of the current depth waits among the pending statements, or -1 (sent). */
  private unsentAt(): number {
    for (let i = this.pending.length - 1; i >= 0; i--)
      if (this.pending[i].opens === this.depth) return i;
    return -1;
  }

  /**
   * Ends a savepoint that never reached the server by forgetting it with everything after it (a
   * rollback that costs no round trip); false when its SAVEPOINT was sent.
   */
  private dropUnsent(): boolean {
    const at = this.unsentAt();
    if (at < 0) return false;
    this.dropPending(at);
    return true;
  }

  /** Releases a savepoint in which nothing was done by forgetting it; false otherwise. */
  private releaseUnsent(): boolean {
    const at = this.unsentAt();
    if (at < 0 || at !== this.pending.length - 1) return false;
    this.setPending(this.pending.slice(0, -1));
    return true;
  }

  /** Forgets the pending statements from index `from` on; their writes never run. */
  private dropPending(from: number): void {
    const dropped = this.pending.slice(from);
    this.setPending(this.pending.slice(0, from));
    for (const q of dropped) q.result?.drop();
  }

  private rollbackQuietly(): void {
    try {
      this.send("rollback", "ROLLBACK", []);
    } catch {
      // The connection is gone: the server ended the transaction with it.
    }
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /**
   * Batches handed to the worker through the channel and taken by it so far (each then waits its
   * turn there, alone or in a group: pg-worker.mjs startBatch).
   */
  get batchesTaken(): number {
    return this.batchChannel ? Atomics.load(this.batchChannel.ctrl, BATCH_TAKEN) : 0;
  }

  get open(): boolean {
    return !this.closed;
  }

  private readonly closers: Array<() => void> = [];

  /** Runs `f` when the store closes (resources kept beside the connection, e.g. a pool). */
  onClose(f: () => void): void {
    this.closers.push(f);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const f of this.closers.splice(0)) f();
    this.send("close", "", []);
  }

  /** `sql`: the op's statement; for "batch", its BEGIN, or null for a batch's rest (HandOff). */
  private call(
    op: Op,
    sql: string | null,
    params: unknown[],
    name: string | null,
    pre: PreStatement[] | null,
  ): Answer {
    return worker()(this.handle, this.url, op, sql, params, name, pre);
  }

  /**
   * A read that needs nothing of the batch under way (a sequence's next values, which no
   * transaction holds back): it goes alone, before the batch's BEGIN and the writes that wait,
   * which keep waiting, so that a batch that needed no other answer is still written whole later
   * (commitLater) instead of on the connection while the event loop waits.
   */
  private readAside(sql: string): Answer {
    if (this.closed) throw new PgError("The store is closed", null, null);
    const a = this.call("query", sql, [], null, null);
    if (a.error) throw new PgError(a.error.message, a.error.code, a.error.detail);
    return a;
  }

  private send(op: Op, sql: string, params: unknown[], name?: string): Answer {
    if (this.closed && op !== "close") throw new PgError("The store is closed", null, null);
    if (this.broken && op !== "rollback" && op !== "close") throw this.broken;
    if (this.beginWaiting !== null && op !== "close") {
      // The batch's BEGIN goes first, before the savepoints and writes that waited after it.
      const begin = this.beginWaiting;
      const waiting = this.pending;
      this.beginWaiting = null;
      this.setPending([]);
      this.sendBegin(begin);
      this.setPending(waiting);
    }
    const sent = this.pending;
    this.setPending([]);
    const pre: PreStatement[] | null = sent.length > 0 ? sent.map(preOf) : null;
    const a = this.call(op, sql, params, name ?? null, pre);
    if (a.error) {
      const err = new PgError(a.error.message, a.error.code, a.error.detail);
      if (sent.length > 0 && a.pre) this.settle(sent, a.pre);
      else if (sent.length > 0) {
        // What waited failed: the transaction is broken (see the module's comment).
        for (const q of sent) q.result?.fail(err);
        if (this.depth > 0) this.broken = err;
      }
      throw err;
    }
    if (sent.length > 0) this.settle(sent, a.pre);
    return a;
  }

  /** Hands the waiting writes their results (their expected row counts were checked in the worker). */
  private settle(sent: Queued[], results: PreResult[] | undefined): void {
    assert(results && results.length === sent.length, "a result for every statement sent");
    sent.forEach((q, i) => {
      const r = results[i];
      const id = q.returnsId && r.row ? Number(r.row.id) : 0;
      q.result?.settle({ changes: r.rowCount, lastInsertRowid: id });
    });
  }
}
