/** The store's synchronous interface (platform/db.ts), which both SQLite and PostgreSQL implement. */

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface Statement {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** A function of any arguments (better-sqlite3's VariableArgFunction). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFn = (...params: any[]) => unknown;

type ArgsOf<F extends AnyFn> = F extends (...params: infer A) => unknown ? A : never;

/** `fn` run in a transaction; `.deferred` runs it as a read-only snapshot. */
export interface TransactionFn<F extends AnyFn> {
  (...params: ArgsOf<F>): ReturnType<F>;
  default(...params: ArgsOf<F>): ReturnType<F>;
  deferred(...params: ArgsOf<F>): ReturnType<F>;
  immediate(...params: ArgsOf<F>): ReturnType<F>;
  exclusive(...params: ArgsOf<F>): ReturnType<F>;
}

export type Dialect = "sqlite" | "postgres";

export interface DB {
  readonly dialect: Dialect;
  prepare(sql: string): Statement;
  exec(sql: string): void;
  transaction<F extends AnyFn>(fn: F): TransactionFn<F>;
  /** A transaction is open on this connection. */
  readonly inTransaction: boolean;
  /** The store was not closed. */
  readonly open: boolean;
  close(): void;
  /**
   * Runs `fn`, a write transaction of the sequencer's batch, with its writes sent together
   * (PostgreSQL's write-behind, store/pg.ts): null when the transaction was written when `fn`
   * returned, else a promise settled once it is written (or failed). A store without it runs `fn`
   * as it is.
   */
  batchWrites?(fn: () => void): Promise<void> | null;
  /** True while writes wait to be sent together (inside batchWrites' transaction). */
  readonly writesWait?: boolean;
  /**
   * Calls `listener` whenever a transaction or savepoint is rolled back (what was written in it is
   * undone): for memory kept beside the store's rows. Only a store that has writesWait has it.
   */
  onRollback?(listener: () => void): void;
  /**
   * A new id for a row of `table`, taken ahead of its INSERT, while writes wait (writesWait), so
   * that the INSERT needs no answer; undefined otherwise (the INSERT then answers its id).
   */
  nextId?(table: string): number | undefined;
  /** `count` new ids for rows of `table`, in the order they are to be used, as nextId gives them. */
  nextIds?(table: string, count: number): number[] | undefined;
  /**
   * Holds at least `count` ids of `table` ahead from now on (read off the event loop), for writes
   * of that many rows at once to come (a copy fan-out), so that nextIds finds them. Settles once
   * they are held (or their read is over).
   */
  holdIdsAhead?(table: string, count: number): Promise<void>;
}

/**
 * One parameter that is an array (PostgreSQL's `?::bigint[]`): a plain array among a statement's
 * values is spread into positional values, as better-sqlite3 reads it.
 */
export class SqlArray {
  constructor(readonly values: readonly unknown[]) {}
}
