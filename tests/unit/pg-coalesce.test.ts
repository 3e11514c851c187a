/**
 * A handed-off batch's appends merged (platform/store/pg-coalesce.ts): single-row inserts into the
 * append-only tables move to the end of the batch as one INSERT per statement text, their rows in
 * order and their parameters renumbered; runs of new orders and of guarded bookings become one
 * statement each where nothing between their rows can see the difference; anything else stays
 * where it was, as it was.
 */
import { describe, expect, it } from "vitest";
import {
  WRITTEN_ONCE,
  coalesceAppends,
  coalesceRuns,
  type PreStatement,
} from "../../upstream/platform/store/pg-coalesce.js";

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

const NEW_ORDER = "INSERT INTO orders (id, user_id, lots)\n       VALUES ($1, $2, $3) RETURNING id";
const BOOK =
  "UPDATE users SET balance_micro = balance_micro + $1 WHERE id = $2 AND balance_micro = $3";
const CLOSE = "UPDATE orders SET status = 3 WHERE id = $1";
const LOCK = "UPDATE users SET lock_balance_micro = lock_balance_micro + $1 WHERE id = $2";
const book = (amount: number, user: number, before: number) =>
  st(BOOK, [amount, user, before], [1, `user ${user}`]);

describe("coalesceRuns", () => {
  it("writes a run of new orders and a run of bookings as one statement each, at the run's end", () => {
    const batch = [
      st(NEW_ORDER, [10, 1, "0.1"]),
      book(-5, 1, 100),
      st(NEW_ORDER, [11, 2, "0.2"]),
      book(-7, 2, 200),
      st(NEW_ORDER, [12, 1, "0.3"]),
      book(-9, 1, 95),
    ];
    const out = coalesceRuns(batch);
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual([
      "INSERT INTO orders (id, user_id, lots) VALUES ($1, $2, $3), ($4, $5, $6), ($7, $8, $9)",
      [10, 1, "0.1", 11, 2, "0.2", 12, 1, "0.3"],
      WRITTEN_ONCE,
      null,
    ]);
    // User 1's two bookings fold into one: the first expected balance, the amounts summed.
    const [sql, values, name, expected] = out[1];
    expect(sql).toMatch(
      /^UPDATE users SET balance_micro = users.balance_micro \+ v.amount FROM \(VALUES/,
    );
    expect(sql).toContain(
      "($1::bigint, $2::bigint, $3::bigint), ($4::bigint, $5::bigint, $6::bigint)",
    );
    expect(values).toEqual([1, -14, 100, 2, -7, 200]);
    expect(name).toBe(WRITTEN_ONCE);
    expect(expected![0]).toBe(2);
  });

  it("ends a run at a statement that may see what it writes", () => {
    const batch = [
      st(NEW_ORDER, [10, 1, "0.1"]),
      book(-5, 1, 100),
      st(CLOSE, [10]),
      st(NEW_ORDER, [11, 2, "0.2"]),
      st(LOCK, [3, 2]),
      book(-7, 2, 200),
      st(NEW_ORDER, [12, 2, "0.3"]),
      book(-9, 2, 193),
    ];
    const out = coalesceRuns(batch);
    // The close names orders: the first order stays before it. The lock names users: the first
    // booking of user 2 stays before it; the orders after the close merge.
    expect(out.map((s) => s[0].slice(0, 40))).toEqual([
      NEW_ORDER.slice(0, 40),
      BOOK.slice(0, 40),
      CLOSE.slice(0, 40),
      LOCK.slice(0, 40),
      "INSERT INTO orders (id, user_id, lots) V",
      "UPDATE users SET balance_micro = users.b",
    ]);
    expect(out[4][1]).toEqual([11, 2, "0.2", 12, 2, "0.3"]);
    expect(out[5][1]).toEqual([2, -16, 200]);
  });

  it("leaves bookings as they are when one did not expect the balance the one before it left", () => {
    const batch = [book(-5, 1, 100), book(-7, 1, 90)];
    expect(coalesceRuns(batch)).toEqual(batch);
  });

  it("with the appends merged first, a batch of market orders is four statements", () => {
    const orders = [1, 2, 3].flatMap((u) => [
      st(NEW_ORDER, [10 + u, u, "0.1"]),
      book(-5, u, 100),
      st(LEDGER, [u, -5, "fee"]),
      st(KEY, [u, `k${u}`, 100, 86_400_000], [1, `key ${u}`]),
    ]);
    const out = coalesceRuns(coalesceAppends(orders));
    expect(out.map((s) => s[0].split(" ").slice(0, 3).join(" "))).toEqual([
      "INSERT INTO orders",
      "UPDATE users SET",
      "INSERT INTO ledger",
      "INSERT INTO idempotency",
    ]);
  });
});
