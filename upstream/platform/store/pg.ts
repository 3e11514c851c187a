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
 */
import { createSyncFn } from "synckit";
import pg from "pg";
import { fileURLToPath } from "node:url";
import type { AnyFn, DB, RunResult, Statement, TransactionFn } from "./types.js";
import { toPostgres, valuesFor, type PgStatement } from "./sql-dialect.js";

interface Answer {
  rows?: Array<Record<string, unknown>>;
  rowCount?: number;
  ok?: boolean;
  error?: { message: string; code: string | null; detail: string | null };
}

/** What the worker runs (pg-worker.mjs): a transaction's statements stay on its connection. */
type Op = "query" | "exec" | "begin" | "commit" | "rollback" | "close";

type Call = (
  handle: number,
  url: string,
  op: Op,
  sql: string,
  params: unknown[],
  name: string | null,
  pre: string | null,
) => Answer;

/** The advisory lock key every write transaction holds (one writer at a time, as SQLite). */
export const WRITE_LOCK = 7_201_001;

/**
 * How long one call may wait for PostgreSQL before it fails (ms): a node cut off from the server
 * fails its calls (and a leader then finds its lock lost) instead of waiting on the network.
 */
const CALL_TIMEOUT_MS = 20_000;

/** Connections of a store's asynchronous reads (getLater). */
const READ_POOL_SIZE = 4;

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

export class PgStore implements DB {
  readonly dialect = "postgres" as const;
  private readonly handle = nextHandle++;
  private readonly statements = new Map<string, PgStatement & { name: string }>();
  private tablesWithId: Set<string> = new Set();
  private depth = 0;
  /** Savepoint statements not yet sent, in order; they go with the next statement (flush). */
  private pending: string[] = [];
  /** Depths whose SAVEPOINT is still among the pending statements (nothing sent inside yet). */
  private readonly unsent = new Set<number>();
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
    if (this.closed) throw new PgError("The store is closed", null, null);
    const st = this.statementOf(sql);
    this.pool ??= this.openPool();
    try {
      const r = await this.pool.query({
        name: st.name,
        text: st.text,
        values: valuesFor(st.slots, args),
      });
      return r.rows[0] as Record<string, unknown> | undefined;
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
      // BIGINT and NUMERIC as numbers, as the worker reads them (pg-worker.mjs).
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === 20 || oid === 1700
            ? (v: string) => Number(v)
            : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
      },
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
    return {
      run: (...args: unknown[]): RunResult => {
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
    if (outer) {
      try {
        this.send("begin", begin, []);
      } catch (err) {
        // A BEGIN whose fence or lock failed leaves the transaction open and aborted: end it.
        this.rollbackQuietly();
        throw err;
      }
    } else {
      this.pending.push(`SAVEPOINT ${savepoint}`);
      this.unsent.add(this.depth);
    }
    this.depth++;
    let result: R;
    try {
      result = body();
    } catch (err) {
      this.depth--;
      if (outer) {
        this.dropPending();
        this.send("rollback", "ROLLBACK", []);
      } else if (!this.forgetUnsent(savepoint)) this.exec(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      throw err;
    }
    this.depth--;
    if (outer) this.send("commit", "COMMIT", []);
    else if (!this.forgetUnsent(savepoint)) this.pending.push(`RELEASE SAVEPOINT ${savepoint}`);
    return result;
  }

  /**
   * Ends the savepoint at the current depth when it was never sent (nothing ran inside it): its
   * SAVEPOINT is the last pending statement (any inner one was ended the same way or sent it).
   */
  private forgetUnsent(savepoint: string): boolean {
    if (!this.unsent.has(this.depth)) return false;
    this.unsent.delete(this.depth);
    const last = this.pending.pop();
    if (last !== `SAVEPOINT ${savepoint}`)
      throw new Error(`pending savepoints out of order: ${last} at ${savepoint}`);
    return true;
  }

  private dropPending(): void {
    this.pending = [];
    this.unsent.clear();
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

  private send(op: Op, sql: string, params: unknown[], name?: string): Answer {
    if (this.closed && op !== "close") throw new PgError("The store is closed", null, null);
    const pre = this.pending.length > 0 ? this.pending.join("; ") : null;
    this.dropPending();
    const a = worker()(this.handle, this.url, op, sql, params, name ?? null, pre);
    if (a.error) throw new PgError(a.error.message, a.error.code, a.error.detail);
    return a;
  }
}
