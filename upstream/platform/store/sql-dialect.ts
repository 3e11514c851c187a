/**
 * The one place where a statement written for the store becomes PostgreSQL's: the store's SQL is
 * written once, in the part of SQL both engines read alike (ON CONFLICT, RETURNING, COALESCE, …),
 * with `?` or `@name` parameters as better-sqlite3 takes them. For PostgreSQL, parameters become
 * `$1…$n` (a name used twice is one parameter), and an INSERT into a table with an `id` column
 * answers that id (`RETURNING id`), which better-sqlite3 reports as lastInsertRowid.
 *
 * Quoted text ('…', "…") and comments are copied unchanged.
 */

import { SqlArray } from "./types.js";

export interface PgStatement {
  text: string;
  /** Where each $k comes from: an index into the positional values, or a name of the named ones. */
  slots: Array<number | string>;
  /** The statement is an INSERT to which `RETURNING id` was added. */
  returnsId: boolean;
}

/** Rewrites one statement (see above); `tablesWithId` are the tables whose rows have an `id`. */
export function toPostgres(sql: string, tablesWithId: ReadonlySet<string>): PgStatement {
  const slots: Array<number | string> = [];
  const named = new Map<string, number>();
  let positional = 0;
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      const end = closing(sql, i, ch);
      out += sql.slice(i, end);
      i = end;
    } else if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === "?") {
      slots.push(positional++);
      out += `$${slots.length}`;
      i++;
    } else if (
      (ch === "@" || ch === ":") &&
      /[A-Za-z_]/.test(sql[i + 1] ?? "") &&
      sql[i - 1] !== ":"
    ) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))!;
      const name = m[0];
      let k = named.get(name);
      if (k === undefined) {
        slots.push(name);
        k = slots.length;
        named.set(name, k);
      }
      out += `$${k}`;
      i += 1 + name.length;
    } else {
      out += ch;
      i++;
    }
  }
  const insert = /^\s*INSERT\s+INTO\s+("?)([A-Za-z_][A-Za-z0-9_]*)\1/i.exec(out);
  const returnsId =
    insert !== null && tablesWithId.has(insert[2].toLowerCase()) && !/\bRETURNING\b/i.test(out);
  if (returnsId) out = `${out.replace(/[\s;]+$/, "")} RETURNING id`;
  return { text: out, slots, returnsId };
}

/** Index just past the quote that closes the one at `start` (a doubled quote is part of the text). */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

/** The values of a call in the order of `slots` (better-sqlite3's calling forms: values, arrays, one object of names). */
export function valuesFor(slots: ReadonlyArray<number | string>, args: unknown[]): unknown[] {
  const positional: unknown[] = [];
  let names: Record<string, unknown> = {};
  for (const a of args) {
    if (a instanceof SqlArray) positional.push(a.values);
    else if (Array.isArray(a)) positional.push(...(a as unknown[]));
    else if (a !== null && typeof a === "object" && !(a instanceof Buffer) && !(a instanceof Date))
      names = { ...names, ...(a as Record<string, unknown>) };
    else positional.push(a);
  }
  return slots.map((s) => {
    const v = typeof s === "number" ? positional[s] : names[s];
    if (v === undefined) throw new RangeError(`Missing value for parameter ${String(s)}`);
    return typeof v === "bigint" ? v.toString() : v;
  });
}
