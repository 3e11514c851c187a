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
}

/**
 * One parameter that is an array (PostgreSQL's `?::bigint[]`): a plain array among a statement's
 * values is spread into positional values, as better-sqlite3 reads it.
 */
export class SqlArray {
  constructor(readonly values: readonly unknown[]) {}
}
