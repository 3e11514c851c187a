/**
 * A handed-off batch's appends merged (platform/store/pg-coalesce.ts): single-row inserts into the
 * append-only tables move to the end of the batch as one INSERT per statement text, their rows in
 * order and their parameters renumbered; anything else stays where it was, as it was.
 */
import { describe, expect, it } from "vitest";
import { WRITTEN_ONCE, coalesceAppends } from "../../upstream/platform/store/pg-coalesce.js";
import type { PreStatement } from "../../upstream/platform/store/pg.js";

const LEDGER =
  "INSERT INTO ledger (user_id, amount_micro, kind)\n       VALUES ($1, $2, $3) RETURNING id";
const KEY =
  "INSERT INTO idempotency (user_id, key, created_at)\n       VALUES ($1, $2, $3)\n       ON CONFLICT (user_id, key) DO UPDATE SET created_at = excluded.created_at\n       WHERE idempotency.created_at <= excluded.created_at - $4";
const ORDER = "INSERT INTO orders (id, user_id) VALUES ($1, $2) RETURNING id";
const BALANCE = "UPDATE users SET balance_micro = balance_micro + $1 WHERE id = $2";

const st = (
  sql: string,
  values: unknown[],
  expect: [number, string] | null = null,
): PreStatement => [sql, values, "t1", expect];

describe("coalesceAppends", () => {
  it("moves the ledger's and the keys' rows to the end as one INSERT each, in their order", () => {
    const batch = [
      st(ORDER, [10, 1]),
      st(BALANCE, [-5, 1]),
      st(LEDGER, [1, -5, "fee"]),
      st(KEY, [1, "a", 100, 86_400_000], [1, "key a"]),
      st(ORDER, [11, 2]),
      st(BALANCE, [-7, 2]),
      st(LEDGER, [2, -7, "fee"]),
      st(KEY, [2, "b", 101, 86_400_000], [1, "key b"]),
    ];
    const out = coalesceAppends(batch);
    expect(out.slice(0, 4)).toEqual([batch[0], batch[1], batch[4], batch[5]]);
    expect(out[4]).toEqual([
      "INSERT INTO ledger (user_id, amount_micro, kind) VALUES ($1, $2, $3), ($4, $5, $6)",
      [1, -5, "fee", 2, -7, "fee"],
      WRITTEN_ONCE,
      null,
    ]);
    const [sql, values, name, expected] = out[5];
    expect(sql).toBe(
      "INSERT INTO idempotency (user_id, key, created_at) VALUES ($1, $2, $3), ($4, $5, $6)\n" +
        "       ON CONFLICT (user_id, key) DO UPDATE SET created_at = excluded.created_at\n" +
        "       WHERE idempotency.created_at <= excluded.created_at - $7",
    );
    expect(values).toEqual([1, "a", 100, 2, "b", 101, 86_400_000]);
    expect(name).toBe(WRITTEN_ONCE);
    expect(expected![0]).toBe(2);
    expect(expected![1]).toMatch(/2 writes into idempotency.*key a/);
    expect(out).toHaveLength(6);
  });

  it("leaves a batch without repeated appends as it was", () => {
    const batch = [st(LEDGER, [1, -5, "fee"]), st(ORDER, [10, 1]), st(ORDER, [11, 1])];
    expect(coalesceAppends(batch)).toEqual(batch);
  });

  it("keeps in place a text whose rows differ in their tail's values or in an expected count", () => {
    const tails = [
      st(ORDER, [1, 1]),
      st(KEY, [1, "a", 1, 5], [1, "a"]),
      st(KEY, [2, "b", 2, 6], [1, "b"]),
    ];
    expect(coalesceAppends(tails)).toEqual(tails);
    const checks = [
      st(LEDGER, [1, 1, "x"], [1, "one"]),
      st(ORDER, [1, 1]),
      st(LEDGER, [2, 2, "x"]),
    ];
    expect(coalesceAppends(checks)).toEqual(checks);
  });

  it("never merges a statement that is not a single-row insert into an append-only table", () => {
    const multi =
      "INSERT INTO ledger (user_id, amount_micro, kind) VALUES ($1, $2, $3), ($4, $5, $6)";
    const other =
      "INSERT INTO ledger (user_id, amount_micro, kind) VALUES ($1, $2, $3) RETURNING kind";
    const batch = [
      st(multi, [1, 1, "a", 2, 2, "b"]),
      st(ORDER, [1, 1]),
      st(multi, [3, 3, "c", 4, 4, "d"]),
      st(other, [1, 1, "a"]),
      st(other, [2, 2, "b"]),
      st(BALANCE, [1, 1]),
      st(BALANCE, [2, 2]),
    ];
    expect(coalesceAppends(batch)).toEqual(batch);
  });
});
