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
 * Commits are synchronous (synchronous_commit on): a commit returned is on the server's disk.
 */
import { createSyncFn } from "synckit";
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
) => Answer;

/** The advisory lock key every write transaction holds (one writer at a time, as SQLite). */
export const WRITE_LOCK = 7_201_001;

/**
 * How long one call may wait for PostgreSQL before it fails (ms): a node cut off from the server
 * fails its calls (and a leader then finds its lock lost) instead of waiting on the network.
 */
const CALL_TIMEOUT_MS = 20_000;

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
  /** A statement every write transaction runs after its BEGIN (the leader's fence), or null. */
  private fence: string | null = null;
  private named = 0;
  private closed = false;

  constructor(readonly url: string) {}

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
    let st = this.statements.get(sql);
    if (!st) {
      // Names are never reused on the connection, even after learnSchema() forgets the statements.
      st = { ...toPostgres(sql, this.tablesWithId), name: `t${++this.named}` };
      this.statements.set(sql, st);
    }
    const s = st;
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
    try {
      if (outer) this.send("begin", begin, []);
      else this.exec(`SAVEPOINT ${savepoint}`);
    } catch (err) {
      // A BEGIN whose fence or lock failed leaves the transaction open and aborted: end it.
      if (outer) this.rollbackQuietly();
      throw err;
    }
    this.depth++;
    let result: R;
    try {
      result = body();
    } catch (err) {
      this.depth--;
      if (outer) this.send("rollback", "ROLLBACK", []);
      else this.exec(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      throw err;
    }
    this.depth--;
    if (outer) this.send("commit", "COMMIT", []);
    else this.exec(`RELEASE SAVEPOINT ${savepoint}`);
    return result;
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
    const a = worker()(this.handle, this.url, op, sql, params, name ?? null);
    if (a.error) throw new PgError(a.error.message, a.error.code, a.error.detail);
    return a;
  }
}
