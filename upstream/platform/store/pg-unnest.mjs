/**
 * Multi-row writes sent to PostgreSQL as one array per column (the worker, pg-worker.mjs): an
 * `INSERT INTO t (columns) VALUES (…), (…), …` or an `UPDATE … FROM (VALUES (…), (…), …) AS v`
 * whose rows are all the same tuple of parameters becomes the same statement over
 * `unnest($1::type[], …, $n::type[])`, with each column's values as one array.
 *
 * Why: the stores write many rows as one statement (multi-row.ts, pg-coalesce.ts), but PostgreSQL
 * parses and plans every value of a VALUES list as an expression of its own: 10,000 new orders as
 * twenty 500-row statements took 490-570 ms at the server, and the same rows as twenty unnest()
 * statements 65-120 ms (tests/bench/copy.ts's fill, same server, same run). The statement's text
 * no longer depends on its row count either, so one prepared statement serves every size.
 *
 * What holds:
 * - only a statement of at least two rows is rewritten, each row the same tuple (its own
 *   parameters in order, each bare or cast), with no parameter outside the rows;
 * - a column's type is its cast in the tuple, else (an INSERT) the table's column type as the
 *   catalog has it; an UPDATE's values must all be cast (a VALUES list types them so, too);
 * - the rows go in their order (unnest() reads its arrays in order), so serial ids follow it as
 *   they did;
 * - a value without an array element here (a buffer, a date, an object, a number that is not
 *   finite) leaves the statement as it was: it then goes as before, with its parameters;
 * - an UPDATE whose WHERE starts `t.key = v.c` also restricts `t.key` to column c's array, which
 *   that condition implies, so that the server reads only the rows named (keyedTail).
 */

/**
 * @typedef {object} Shape
 * @property {"insert" | "update"} kind
 * @property {string} head  the text before the VALUES list (INSERT: up to `VALUES`; UPDATE: up to `FROM`)
 * @property {string} table  the INSERT's table (its column types), or "" for an UPDATE
 * @property {string[]} columns  the INSERT's column names, unquoted and lower case
 * @property {(string | null)[]} casts  each column's cast in the tuple, or null
 * @property {number} width  values per row
 * @property {number} rows
 * @property {string} alias  the UPDATE's `AS v(…)` (its column names, given or VALUES' own)
 * @property {string} tail  the text after the VALUES list
 */

/** @type {Map<string, Shape | null>} */
const shapes = new Map();

const INSERT_HEAD = /^\s*INSERT\s+INTO\s+("?[A-Za-z_][A-Za-z0-9_]*"?)\s*\(([^)]*)\)\s*VALUES\s*/i;
const UPDATE_HEAD = /^(\s*UPDATE\s[\s\S]*?\bFROM\s*)\(\s*VALUES\s*/i;
const UPDATE_ALIAS = /^\)\s*AS\s+([A-Za-z_][A-Za-z0-9_]*)(?:\s*\(([^)]*)\))?/i;
const BARE = /^\$(\d+)$/;
const CAST = /^CAST\s*\(\s*\$(\d+)\s+AS\s+([A-Za-z][A-Za-z ]*?)\s*\)$/i;
const COLONS = /^\$(\d+)\s*::\s*([A-Za-z][A-Za-z ]*?)$/;

/**
 * The tuples of a VALUES list from `at`: each tuple's items (split at its top-level commas) and
 * the index just past the list, or null when the text there is not a list of tuples.
 * @param {string} sql
 * @param {number} at
 * @returns {{ tuples: string[][], end: number } | null}
 */
function tuplesAt(sql, at) {
  const tuples = [];
  let i = at;
  for (;;) {
    while (/\s/.test(sql[i] ?? "")) i++;
    if (sql[i] !== "(") return null;
    const items = [];
    let depth = 0;
    let start = i + 1;
    let j = i + 1;
    for (; j < sql.length; j++) {
      const ch = sql[j];
      if (ch === "'" || ch === '"') return null; // no quoted text inside a tuple of parameters
      if (ch === "(") depth++;
      else if (ch === ")" && depth > 0) depth--;
      else if (ch === ")") break;
      else if (ch === "," && depth === 0) {
        items.push(sql.slice(start, j).trim());
        start = j + 1;
      }
    }
    if (j >= sql.length) return null;
    items.push(sql.slice(start, j).trim());
    tuples.push(items);
    i = j + 1;
    let k = i;
    while (/\s/.test(sql[k] ?? "")) k++;
    if (sql[k] !== ",") return { tuples, end: i };
    i = k + 1;
  }
}

/**
 * Each item's parameter number and cast, when every tuple is the same tuple of its own parameters
 * in order (row r's item c is parameter r × width + c + 1, cast alike in every row); else null.
 * @param {string[][]} tuples
 * @returns {(string | null)[] | null}
 */
function castsOf(tuples) {
  const width = tuples[0].length;
  /** @type {(string | null)[]} */
  const casts = [];
  for (let r = 0; r < tuples.length; r++) {
    if (tuples[r].length !== width) return null;
    for (let c = 0; c < width; c++) {
      const item = tuples[r][c];
      const m = BARE.exec(item) ?? CAST.exec(item) ?? COLONS.exec(item);
      if (!m || Number(m[1]) !== r * width + c + 1) return null;
      const cast = m[2] ? m[2].replace(/\s+/g, " ").toLowerCase() : null;
      if (r === 0) casts.push(cast);
      else if (casts[c] !== cast) return null;
    }
  }
  return casts;
}

const unquoted = (name) =>
  name
    .trim()
    .replace(/^"(.*)"$/, "$1")
    .toLowerCase();

/**
 * The shape of a multi-row write that can go as arrays, or null (read once per statement text).
 * @param {string} sql  a statement in PostgreSQL's form ($n parameters)
 * @returns {Shape | null}
 */
export function unnestShapeOf(sql) {
  let s = shapes.get(sql);
  if (s === undefined) {
    s = shapeOf(sql);
    shapes.set(sql, s);
  }
  return s;
}

/** @param {string} sql @returns {Shape | null} */
function shapeOf(sql) {
  const insert = INSERT_HEAD.exec(sql);
  const update = insert ? null : UPDATE_HEAD.exec(sql);
  const head = insert ?? update;
  if (!head) return null;
  const list = tuplesAt(sql, head[0].length);
  if (!list || list.tuples.length < 2) return null;
  const casts = castsOf(list.tuples);
  if (!casts) return null;
  const width = casts.length;
  let tail = sql.slice(list.end);
  let alias = "";
  if (update) {
    if (casts.some((c) => c === null)) return null;
    const a = UPDATE_ALIAS.exec(tail);
    if (!a) return null;
    const names = a[2]
      ? a[2].split(",").map((n) => n.trim())
      : casts.map((_, i) => `column${i + 1}`);
    if (names.length !== width) return null;
    alias = `${a[1]}(${names.join(", ")})`;
    tail = tail.slice(a[0].length);
    if (/\$\d/.test(tail)) return null;
    tail = keyedTail(tail, a[1], names, casts);
  } else if (/\$\d/.test(tail)) return null;
  const columns = insert ? insert[2].split(",").map(unquoted) : [];
  if (insert && columns.length !== width) return null;
  return {
    kind: insert ? "insert" : "update",
    head: insert ? insert[0].replace(/VALUES\s*$/i, "") : head[1],
    table: insert ? unquoted(insert[1]) : "",
    columns,
    casts,
    width,
    rows: list.tuples.length,
    alias,
    tail,
  };
}

/** The first condition of an UPDATE's WHERE when it equates a column with one of the rows'. */
const KEY_EQUALS =
  /^(\s*WHERE\s+)([A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)\s*=\s*([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)/i;

/**
 * An UPDATE's tail (after `AS v(…)`) whose WHERE starts `t.key = v.c`, with `t.key = ANY($c)` put
 * before that condition, $c being the array the rows' column c goes in; any other tail unchanged.
 *
 * Why: PostgreSQL joins the rows to the table by a plan chosen on its costs, and for a table of
 * some ten thousand rows it chose to read the whole table into a hash for every statement: the
 * users table's 20,001 rows, 11-17 ms a statement, twenty statements for the fees of one fill
 * mirrored to 10,000 copies (tests/bench/copy.ts). With a condition on the key alone it reads
 * only the rows named, through the key's index or by a scan that keeps only them (the array
 * hashed): 2-6 ms a statement there. It changes no outcome: `t.key = v.c` holds only where `t.key`
 * is one of the column's values, so `t.key = ANY($c) AND t.key = v.c` holds exactly where
 * `t.key = v.c` does (and is NULL or false where it is; AND binds before any OR after it).
 * @param {string} tail
 * @param {string} alias  the rows' alias (v)
 * @param {string[]} names  the rows' column names
 * @param {(string | null)[]} casts  their types (an UPDATE's are all cast)
 */
function keyedTail(tail, alias, names, casts) {
  const m = KEY_EQUALS.exec(tail);
  if (!m || m[3].toLowerCase() !== alias.toLowerCase()) return tail;
  const c = names.findIndex((n) => n.toLowerCase() === m[4].toLowerCase());
  if (c < 0) return tail;
  return `${m[1]}${m[2]} = ANY($${c + 1}::${casts[c]}[]) AND ${tail.slice(m[1].length)}`;
}

/**
 * The statement over arrays: `types[c]` is column c's type (its cast, or the table's column type).
 * @param {Shape} s
 * @param {string[]} types
 */
export function unnestText(s, types) {
  const arrays = types.map((t, c) => `$${c + 1}::${t}[]`).join(", ");
  return s.kind === "insert"
    ? `${s.head}SELECT * FROM unnest(${arrays})${s.tail}`
    : `${s.head}unnest(${arrays}) AS ${s.alias}${s.tail}`;
}

/**
 * One array element's text, as its parameter would have been sent, or null for a value that has
 * none here.
 * @param {unknown} v
 * @returns {string | null}
 */
function elementOf(v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") return `"${v.replace(/["\\]/g, "\\$&")}"`;
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : null;
  if (typeof v === "bigint") return String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  return null;
}

/**
 * The rows' values as one array literal per column (`values` row after row, `s.width` each), or
 * null when a value has no array element here.
 * @param {Shape} s
 * @param {readonly unknown[]} values
 * @returns {string[] | null}
 */
export function columnArrays(s, values) {
  if (values.length !== s.rows * s.width) return null;
  /** @type {string[]} */
  const out = [];
  for (let c = 0; c < s.width; c++) {
    const elements = new Array(s.rows);
    for (let r = 0; r < s.rows; r++) {
      const e = elementOf(values[r * s.width + c]);
      if (e === null) return null;
      elements[r] = e;
    }
    out.push(`{${elements.join(",")}}`);
  }
  return out;
}

/**
 * `sql` with `values` as arrays when it is a multi-row write that can go so, else null.
 * `columnTypes(table, again)` answers a table's column types by name (the catalog's), or null
 * when there is no such table; `again` reads them anew (a column was missing from those held).
 * @param {string} sql
 * @param {readonly unknown[] | null} values
 * @param {(table: string, again: boolean) => Promise<Map<string, string> | null>} columnTypes
 * @returns {Promise<{ sql: string, values: string[] } | null>}
 */
export async function unnested(sql, values, columnTypes) {
  if (!values || values.length < 2) return null;
  const s = unnestShapeOf(sql);
  if (!s) return null;
  const arrays = columnArrays(s, values);
  if (!arrays) return null;
  let types = /** @type {(string | null)[]} */ (s.casts);
  if (s.kind === "insert" && types.some((t) => t === null)) {
    let known = await columnTypes(s.table, false);
    if (known && s.columns.some((c) => !known?.has(c))) known = await columnTypes(s.table, true);
    if (!known) return null;
    types = s.casts.map((t, c) => t ?? known.get(s.columns[c]) ?? null);
    if (types.some((t) => t === null)) return null;
  }
  return { sql: unnestText(s, /** @type {string[]} */ (types)), values: arrays };
}
