/**
 * Multi-row statements (one INSERT or UPDATE … FROM (VALUES …) for many rows): one round trip for
 * a whole group on PostgreSQL, where every statement crosses a worker thread. A statement carries at
 * most ROWS_PER_STATEMENT rows, which keeps the widest of them (the orders table's 16 columns,
 * 8,000 values) under PostgreSQL's 65,535 parameters and SQLite's 32,766 variables.
 */
import assert from "node:assert/strict";
import type { DB, Statement } from "./types.js";

export const ROWS_PER_STATEMENT = 500;

/** `xs` in consecutive slices of at most ROWS_PER_STATEMENT, in order. */
export function chunked<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += ROWS_PER_STATEMENT)
    out.push(xs.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/**
 * `rows` tuples of `row` ("(?, ?, ?)" or any tuple text with its `?`), joined by commas: the VALUES
 * list of a multi-row statement.
 */
export function tuples(rows: number, row: string): string {
  assert(rows > 0 && rows <= ROWS_PER_STATEMENT, `a multi-row statement of ${rows} rows`);
  return Array.from({ length: rows }, () => row).join(", ");
}

/** `n` positional parameters for an IN list: "?, ?, ?". */
export function inList(n: number): string {
  assert(n > 0 && n <= ROWS_PER_STATEMENT, `an IN list of ${n} values`);
  return Array.from({ length: n }, () => "?").join(", ");
}

const cached = new WeakMap<DB, Map<string, Statement>>();

/**
 * `sql` prepared once per store: a multi-row statement's text depends only on its row count, so a
 * store holds at most ROWS_PER_STATEMENT of each (SQLite would otherwise parse thousands of
 * parameters on every call; PostgreSQL's store keeps its own by text).
 */
export function prepareOnce(db: DB, sql: string): Statement {
  let m = cached.get(db);
  if (!m) cached.set(db, (m = new Map()));
  let st = m.get(sql);
  if (!st) m.set(sql, (st = db.prepare(sql)));
  return st;
}
