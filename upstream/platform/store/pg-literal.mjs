/**
 * Statements with their values written in as literals, so that many go to PostgreSQL in one simple
 * query (one round trip): the store's waiting writes (store/pg.ts, pg-worker.mjs). A value is
 * written as the text node-postgres would send as its parameter, quoted: PostgreSQL gives both an
 * unknown type resolved from the context, so the statement means the same.
 */

/**
 * @param {(s: string) => string} quote  the connection's escapeLiteral
 * @param {unknown} v
 * @returns {string | null}  the literal, or null for a value without one here (a buffer, an array)
 */
function literalOf(quote, v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") return quote(v);
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean")
    return quote(String(v));
  return null;
}

/**
 * Each value as a literal, or null when one has no literal here.
 * @param {(s: string) => string} quote
 * @param {unknown[]} values
 * @returns {string[] | null}
 */
export function literalsOf(quote, values) {
  const literals = values.map((v) => literalOf(quote, v));
  return literals.some((l) => l === null) ? null : /** @type {string[]} */ (literals);
}

/**
 * `sql` with its `$n` parameters written as literals (outside quoted strings and identifiers), or
 * null when a value has no literal here: that statement is then sent with its parameters.
 * @param {(s: string) => string} quote
 * @param {string} sql
 * @param {unknown[] | null} values
 * @returns {string | null}
 */
export function inlined(quote, sql, values) {
  if (!values || values.length === 0) return sql;
  const literals = literalsOf(quote, values);
  if (literals === null) return null;
  let out = "";
  /** @type {string | null} */
  let quoteChar = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quoteChar) {
      out += ch;
      if (ch === quoteChar) quoteChar = null;
    } else if (ch === "'" || ch === '"') {
      quoteChar = ch;
      out += ch;
    } else if (ch === "$" && /[0-9]/.test(sql[i + 1] ?? "")) {
      let j = i + 1;
      while (j < sql.length && /[0-9]/.test(sql[j])) j++;
      const literal = literals[Number(sql.slice(i + 1, j)) - 1];
      if (literal === undefined) throw new RangeError(`no value for $${sql.slice(i + 1, j)}`);
      out += literal;
      i = j - 1;
    } else out += ch;
  }
  return out;
}
