/** The store's SQL as PostgreSQL reads it (upstream/platform/store/sql-dialect.ts). */
import { describe, expect, it } from "vitest";
import { toPostgres, valuesFor } from "../../upstream/platform/store/sql-dialect.js";
import { SqlArray } from "../../upstream/platform/db.js";

const ids = new Set(["orders", "users"]);

describe("a statement written once, for PostgreSQL", () => {
  it("numbers ? in order and gives a name used twice one number", () => {
    expect(toPostgres("SELECT * FROM orders WHERE id = ? AND user_id = ?", ids).text).toBe(
      "SELECT * FROM orders WHERE id = $1 AND user_id = $2",
    );
    const named = toPostgres(
      "UPDATE users SET a = @amount, b = b + @amount WHERE id = @userId",
      ids,
    );
    expect(named.text).toBe("UPDATE users SET a = $1, b = b + $1 WHERE id = $2");
    expect(named.slots).toEqual(["amount", "userId"]);
  });

  it("leaves quoted text, comments and casts as they are", () => {
    const st = toPostgres(
      "SELECT '?', 'it''s @x', \"a?\" FROM t -- why? @note\nWHERE x = ?::bigint[] AND ref LIKE 'order:%'",
      ids,
    );
    expect(st.text).toBe(
      "SELECT '?', 'it''s @x', \"a?\" FROM t -- why? @note\nWHERE x = $1::bigint[] AND ref LIKE 'order:%'",
    );
    expect(st.slots).toEqual([0]);
  });

  it("asks an INSERT into a table with ids for its id, once", () => {
    expect(toPostgres("INSERT INTO orders (a) VALUES (?)", ids)).toMatchObject({
      text: "INSERT INTO orders (a) VALUES ($1) RETURNING id",
      returnsId: true,
    });
    expect(toPostgres("INSERT INTO orders (a) VALUES (?) RETURNING a", ids).returnsId).toBe(false);
    expect(toPostgres("INSERT INTO settings (k) VALUES (?)", ids).returnsId).toBe(false);
  });
});

describe("a call's values", () => {
  it("reads better-sqlite3's forms: values, spread arrays, one object of names", () => {
    expect(valuesFor([0, 1, 2], [1, [2, 3]])).toEqual([1, 2, 3]);
    expect(valuesFor(["a", "b"], [{ a: 1, b: null }])).toEqual([1, null]);
  });

  it("keeps an SqlArray as one value, and sends big integers as text", () => {
    expect(valuesFor([0, 1], [new SqlArray([1, 2]), 10n])).toEqual([[1, 2], "10"]);
  });

  it("refuses a missing value instead of sending NULL", () => {
    expect(() => valuesFor(["a"], [{}])).toThrow(RangeError);
    expect(() => valuesFor([0, 1], [1])).toThrow(RangeError);
  });
});
