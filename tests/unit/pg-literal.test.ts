/**
 * Statements with their values written in as literals (store/pg-literal.mjs), which let a batch's
 * writes go to PostgreSQL in one simple query: each value becomes the quoted text its parameter
 * would have been sent as, `$n` inside quoted strings and identifiers is left alone, and a value
 * that has no literal here (a buffer, an array) sends the statement with its parameters instead.
 */
import { describe, expect, it } from "vitest";
import { inlined } from "../../upstream/platform/store/pg-literal.mjs";

/** PostgreSQL's quoting of a literal (node-postgres escapeLiteral, standard_conforming_strings). */
function quote(s: string): string {
  const hasBackslash = s.includes("\\");
  const body = s.replace(/'/g, "''").replace(/\\/g, "\\\\");
  return `${hasBackslash ? " E" : ""}'${body}'`;
}

describe("values written as literals", () => {
  it("writes each value as the quoted text of its parameter, in the place of its number", () => {
    expect(
      inlined(
        quote,
        "UPDATE users SET balance_micro = balance_micro + $1 WHERE id = $2",
        [-1_500_000, 42],
      ),
    ).toBe("UPDATE users SET balance_micro = balance_micro + '-1500000' WHERE id = '42'");
    expect(inlined(quote, "INSERT INTO t (a, b, c) VALUES ($3, $1, $2)", ["x", true, null])).toBe(
      "INSERT INTO t (a, b, c) VALUES (NULL, 'x', 'true')",
    );
    expect(inlined(quote, "SELECT $10, $1", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toBe(
      "SELECT '10', '1'",
    );
  });

  it("quotes what a user typed so that it stays a value", () => {
    expect(
      inlined(quote, "INSERT INTO notes (memo) VALUES ($1)", ["it's; DROP TABLE users; --"]),
    ).toBe("INSERT INTO notes (memo) VALUES ('it''s; DROP TABLE users; --')");
    expect(inlined(quote, "INSERT INTO notes (memo) VALUES ($1)", ["a\\'b"])).toBe(
      "INSERT INTO notes (memo) VALUES ( E'a\\\\''b')",
    );
  });

  it("leaves $n inside quoted strings and quoted identifiers alone", () => {
    expect(inlined(quote, `SELECT '$1 a', "col$2", $1`, [7])).toBe(`SELECT '$1 a', "col$2", '7'`);
  });

  it("answers null (send with parameters) for a value without a literal, and fails on a missing one", () => {
    expect(inlined(quote, "INSERT INTO t (b) VALUES ($1)", [Buffer.from("x")])).toBeNull();
    expect(inlined(quote, "SELECT * FROM t WHERE id = ANY($1)", [[1, 2]])).toBeNull();
    expect(() => inlined(quote, "SELECT $2", [1])).toThrow(RangeError);
    expect(inlined(quote, "SELECT 1", [])).toBe("SELECT 1");
  });
});
