/**
 * The rows a handed-off batch appends to its append-only tables, written as one multi-row INSERT
 * per statement text at the end of the batch instead of one INSERT per row where each was made
 * (store/pg.ts commitLater, decision 0024). PostgreSQL's cost per statement (parse, plan, executor
 * start, one row-count check) was most of a batch's time at the server: a batch of six market
 * orders took 4.1-4.4 ms as 24 single-row statements and 1.9-2.6 ms with one statement per table
 * (same server, nothing else running).
 *
 * Why moving these rows to the end is safe:
 * - only the tables in APPEND_ONLY are moved: a batch inserts into them and never reads, updates
 *   or references their rows (the ledger; the idempotency keys, whose sweep deletes only keys a day
 *   old, which no command of the batch inserts);
 * - a row moves later, never earlier, so whatever it references (a user, an order) was written
 *   before it as it was before;
 * - the rows of one statement text keep their order (ledger ids stay in booking order);
 * - a handed-off batch answered nothing while it was decided, so no one read a result (an id,
 *   a row count) of a write that moves, and any failure fails the whole batch anyway.
 * A merged write's expected row count is the sum of its rows' (each row's own, or none at all).
 */
import type { PreStatement } from "./pg.js";

/** The name of a statement the worker writes as it is and never prepares (a merged write). */
export const WRITTEN_ONCE = "";

/** Tables a batch only appends to (see the module's comment). */
export const APPEND_ONLY: ReadonlySet<string> = new Set(["ledger", "idempotency"]);

/**
 * `INSERT INTO table (columns) VALUES ($1, …, $n)` then an optional tail (ON CONFLICT …, RETURNING
 * …) whose parameters, if any, come after the row's.
 */
const SINGLE_ROW_INSERT = /^\s*INSERT INTO (\w+)\s*\(([^)]*)\)\s*VALUES\s*\(([^)]*)\)([\s\S]*)$/i;

interface Shape {
  table: string;
  head: string;
  /** The row's parameters ($1 … $rowArity, in order). */
  rowArity: number;
  tail: string;
}

const shapes = new Map<string, Shape | null>();

/** The shape of a single-row insert into an append-only table, or null for any other statement. */
function shapeOf(sql: string): Shape | null {
  let s = shapes.get(sql);
  if (s !== undefined) return s;
  s = null;
  const m = SINGLE_ROW_INSERT.exec(sql);
  if (m && APPEND_ONLY.has(m[1].toLowerCase())) {
    const params = m[3].split(",").map((p) => p.trim());
    const inOrder = params.every((p, i) => p === `$${i + 1}`);
    const tailParams = [...m[4].matchAll(/\$(\d+)/g)].map((t) => Number(t[1]));
    // The tail is nothing but ON CONFLICT … and RETURNING id (not a second row, nor another result).
    const tailIs = /^\s*(ON CONFLICT\b(?:(?!RETURNING)[\s\S])*)?(RETURNING\s+id)?\s*$/i.test(m[4]);
    if (inOrder && tailIs && tailParams.every((n) => n > params.length))
      s = {
        table: m[1],
        head: `INSERT INTO ${m[1]} (${m[2]}) VALUES `,
        rowArity: params.length,
        tail: m[4].replace(/\s*RETURNING\s+id\s*$/i, "").trimEnd(),
      };
  }
  shapes.set(sql, s);
  return s;
}

/**
 * `pre` (a handed-off batch's statements, in order) with its appends moved to the end and merged:
 * one statement per statement text, its rows in their order. A text whose rows differ in their
 * tail's values or in having an expected row count stays where its rows are, as they are.
 */
export function coalesceAppends(pre: readonly PreStatement[]): PreStatement[] {
  const groups = new Map<string, { shape: Shape; rows: PreStatement[]; mixed: boolean }>();
  for (const st of pre) {
    const [sql, values, , expect] = st;
    const shape = values && values.length > 0 ? shapeOf(sql) : null;
    if (!shape) continue;
    const g = groups.get(sql);
    if (!g) {
      groups.set(sql, { shape, rows: [st], mixed: false });
      continue;
    }
    const first = g.rows[0];
    g.mixed ||=
      (first[3] === null) !== (expect === null) ||
      JSON.stringify(first[1]!.slice(shape.rowArity)) !==
        JSON.stringify(values!.slice(shape.rowArity));
    g.rows.push(st);
  }
  const moved = (st: PreStatement) => {
    const g = groups.get(st[0]);
    return g !== undefined && !g.mixed && g.rows.length > 1;
  };
  const out = pre.filter((st) => !moved(st));
  for (const g of groups.values())
    if (!g.mixed && g.rows.length > 1) out.push(merged(g.shape, g.rows));
  return out;
}

/** One INSERT of all `rows` (each a single-row insert of `shape`), parameters renumbered. */
function merged(shape: Shape, rows: PreStatement[]): PreStatement {
  const n = shape.rowArity;
  const values: unknown[] = [];
  const tuples: string[] = [];
  for (const [, v] of rows) {
    const at = values.length;
    tuples.push(`(${Array.from({ length: n }, (_, i) => `$${at + i + 1}`).join(", ")})`);
    values.push(...v!.slice(0, n));
  }
  // The tail's parameters (equal in every row) follow all the rows'.
  const tailValues = rows[0][1]!.slice(n);
  const base = values.length;
  const tail = shape.tail.replace(/\$(\d+)/g, (_, d: string) => `$${base + Number(d) - n}`);
  values.push(...tailValues);
  const expected = rows[0][3]
    ? ([
        rows.reduce((sum, r) => sum + r[3]![0], 0),
        `${rows.length} writes into ${shape.table}, one of which failed its check: ${rows[0][3][1]}`,
      ] as [number, string])
    : null;
  return [`${shape.head}${tuples.join(", ")}${tail}`, values, WRITTEN_ONCE, expected];
}
