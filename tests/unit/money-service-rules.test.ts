/**
 * The money service's rules at their edges (upstream/modules/money/service.ts, ledger.ts): a floor
 * refuses exactly below it; money held for a withdrawal leaves the balance with its ledger row and
 * comes back or is paid out of the lock only as far as the lock holds it; the row's time, memo and
 * reference are what the caller gave; the ledger pages newest first.
 */
import { openTestStore } from "../support/test-store.js";
import { afterEach, describe, expect, it } from "vitest";
import { type DB } from "../../upstream/platform/db.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { MoneyService, moneyOf } from "../../upstream/modules/money/service.js";
import { ledgerPage } from "../../upstream/modules/money/ledger.js";

const M = 1_000_000;
const opened: DB[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) if (d.open) d.close();
});

let n = 0;
/** A store with one user holding `usd` (one deposit row at time 1). */
function setup(usd = 100) {
  const db = openTestStore();
  opened.push(db);
  const money = moneyOf(db);
  const user = () =>
    Number(
      db
        .prepare("INSERT INTO users (uid, invite_code, created_at) VALUES (?, ?, 0)")
        .run(`m${++n}`, `M${n}`).lastInsertRowid,
    );
  const u = user();
  if (usd) money.post({ userId: u, amountMicro: usd * M, kind: "deposit", at: 1 });
  const rows = (userId = u) =>
    db
      .prepare(
        "SELECT amount_micro, balance_after_micro, kind, memo, ref, created_at FROM ledger WHERE user_id = ? ORDER BY id",
      )
      .all(userId) as {
      amount_micro: number;
      balance_after_micro: number;
      kind: string;
      memo: string | null;
      ref: string | null;
      created_at: number;
    }[];
  return { db, money, u, user, rows };
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.key;
    throw e;
  }
  return "accepted";
}

describe("posting", () => {
  it("books the row at the time given, or now; memo and ref default to none", () => {
    const { money, u, rows } = setup();
    const before = Date.now();
    money.post({ userId: u, amountMicro: -3 * M, kind: "fee" });
    const after = Date.now();
    money.post({ userId: u, amountMicro: 2 * M, kind: "adjustment", memo: "goodwill", at: 42 });
    const [, fee, adj] = rows();
    expect(fee).toMatchObject({ amount_micro: -3 * M, memo: null, ref: null, kind: "fee" });
    expect(fee.created_at).toBeGreaterThanOrEqual(before);
    expect(fee.created_at).toBeLessThanOrEqual(after);
    expect(adj).toMatchObject({ balance_after_micro: 99 * M, memo: "goodwill", created_at: 42 });
  });

  it("a floor accepts a balance left exactly at it, refuses one below, with the caller's refusal", () => {
    const { money, u, rows } = setup(10);
    expect(money.post({ userId: u, amountMicro: -4 * M, kind: "fee", floorMicro: 6 * M })).toBe(
      6 * M,
    );
    expect(
      refusal(() =>
        money.post({
          userId: u,
          amountMicro: -1,
          kind: "fee",
          floorMicro: 6 * M,
          refusal: "withdraw_above_free",
        }),
      ),
    ).toBe("withdraw_above_free");
    expect(rows().map((r) => r.amount_micro)).toEqual([10 * M, -4 * M]);
    // Without a floor a booking may take the balance below 0 (a loss is a loss).
    expect(money.post({ userId: u, amountMicro: -7 * M, kind: "realised_profit" })).toBe(-1 * M);
  });

  it("refuses a booking that would take the balance out of the exact integer range, and books nothing", () => {
    const { db, money, u, rows } = setup(0);
    db.prepare("UPDATE users SET balance_micro = ? WHERE id = ?").run(Number.MAX_SAFE_INTEGER, u);
    expect(() => money.post({ userId: u, amountMicro: 1, kind: "deposit" })).toThrow(
      /out of range/,
    );
    expect(money.balances(u)?.balanceMicro).toBe(Number.MAX_SAFE_INTEGER);
    expect(rows()).toEqual([]);
  });

  it("refuses an amount that is not a safe integer", () => {
    const { money, u } = setup();
    for (const bad of [Number.NaN, Infinity, 2 ** 53])
      expect(() => money.post({ userId: u, amountMicro: bad, kind: "deposit" })).toThrow(
        /integer micro-USD/,
      );
    expect(money.balances(u)).toEqual({ balanceMicro: 100 * M, lockMicro: 0 });
  });
});

describe("holding money for a withdrawal", () => {
  it("moves it from the balance to the lock with a negative withdrawal_request row", () => {
    const { money, u, rows } = setup(100);
    expect(
      money.hold({ userId: u, amountMicro: 30 * M, ref: "draw:1", memo: "to TRC20", at: 7 }),
    ).toEqual({ balanceMicro: 70 * M, lockMicro: 30 * M });
    expect(rows().at(-1)).toEqual({
      amount_micro: -30 * M,
      balance_after_micro: 70 * M,
      kind: "withdrawal_request",
      memo: "to TRC20",
      ref: "draw:1",
      created_at: 7,
    });
    expect(money.ledgerSum(u)).toBe(70 * M);
  });

  it("may take the whole balance, never more; the refusal is the caller's and nothing is booked", () => {
    const { money, u, rows } = setup(100);
    expect(refusal(() => money.hold({ userId: u, amountMicro: 100 * M + 1, ref: "draw:1" }))).toBe(
      "insufficient_balance",
    );
    expect(
      refusal(() =>
        money.hold({ userId: u, amountMicro: 100 * M + 1, ref: "draw:1", refusal: "too_much" }),
      ),
    ).toBe("too_much");
    expect(rows()).toHaveLength(1);
    expect(money.hold({ userId: u, amountMicro: 100 * M, ref: "draw:1" })).toEqual({
      balanceMicro: 0,
      lockMicro: 100 * M,
    });
  });

  it("returns held money to the balance with a withdrawal_returned row, at most what the lock holds", () => {
    const { money, u, rows } = setup(100);
    money.hold({ userId: u, amountMicro: 40 * M, ref: "draw:1" });
    expect(() => money.unhold({ userId: u, amountMicro: 40 * M + 1, ref: "draw:1" })).toThrow(
      /lock_balance/,
    );
    expect(
      money.unhold({ userId: u, amountMicro: 40 * M, ref: "draw:1", memo: "wrong address", at: 9 }),
    ).toEqual({ balanceMicro: 100 * M, lockMicro: 0 });
    expect(rows().at(-1)).toEqual({
      amount_micro: 40 * M,
      balance_after_micro: 100 * M,
      kind: "withdrawal_returned",
      memo: "wrong address",
      ref: "draw:1",
      created_at: 9,
    });
  });

  it("pays held money out of the lock without a ledger row, at most what the lock holds", () => {
    const { money, u, rows } = setup(100);
    money.hold({ userId: u, amountMicro: 40 * M, ref: "draw:1" });
    const n = rows().length;
    expect(() => money.payOut({ userId: u, amountMicro: 41 * M, ref: "draw:1" })).toThrow(
      /lock_balance/,
    );
    expect(money.payOut({ userId: u, amountMicro: 15 * M, ref: "draw:1" })).toEqual({
      balanceMicro: 60 * M,
      lockMicro: 25 * M,
    });
    expect(money.payOut({ userId: u, amountMicro: 25 * M, ref: "draw:1" })).toEqual({
      balanceMicro: 60 * M,
      lockMicro: 0,
    });
    expect(rows()).toHaveLength(n);
    expect(money.ledgerSum(u)).toBe(60 * M);
  });

  it("refuses held amounts that are not positive integers, and users that do not exist", () => {
    const { money, u } = setup(100);
    for (const amountMicro of [0, -1, 0.5, Number.NaN]) {
      expect(() => money.hold({ userId: u, amountMicro, ref: "draw:1" })).toThrow(/positive/);
      expect(() => money.unhold({ userId: u, amountMicro, ref: "draw:1" })).toThrow(/positive/);
      expect(() => money.payOut({ userId: u, amountMicro, ref: "draw:1" })).toThrow(/positive/);
    }
    for (const op of ["hold", "unhold", "payOut"] as const)
      expect(() => money[op]({ userId: 9999, amountMicro: 1, ref: "draw:1" })).toThrow(
        /no such user/,
      );
    expect(money.balances(u)).toEqual({ balanceMicro: 100 * M, lockMicro: 0 });
    expect(money.balances(9999)).toBeUndefined();
  });

  it("every change is announced with the balance and the lock after, until the listener unsubscribes", () => {
    const { money, u } = setup(100);
    const heard: [number, number, number | undefined][] = [];
    const off = money.onBalance((userId, bal, lock) => heard.push([userId, bal, lock]));
    money.post({ userId: u, amountMicro: 2 * M, kind: "deposit" });
    money.hold({ userId: u, amountMicro: 10 * M, ref: "draw:1" });
    money.unhold({ userId: u, amountMicro: 4 * M, ref: "draw:1" });
    // A payout moves only the lock: announced too, so that a lock held in memory follows it.
    money.payOut({ userId: u, amountMicro: 6 * M, ref: "draw:1" });
    off();
    money.post({ userId: u, amountMicro: 1, kind: "deposit" });
    expect(heard).toEqual([
      [u, 102 * M, undefined],
      [u, 92 * M, 10 * M],
      [u, 96 * M, 6 * M],
      [u, 96 * M, 0],
    ]);
  });
});

describe("transactions", () => {
  it("nested transactions join the outer one: a failure after them undoes all, and re-announces", () => {
    const { money, u, user, rows } = setup(100);
    const v = user();
    money.post({ userId: v, amountMicro: 50 * M, kind: "deposit" });
    const heard: [number, number][] = [];
    money.onBalance((userId, bal) => heard.push([userId, bal]));
    expect(() =>
      money.transaction(() => {
        money.post({ userId: u, amountMicro: 5 * M, kind: "deposit" });
        // The inner transaction is the only one to touch v.
        money.transaction(() => money.hold({ userId: v, amountMicro: 20 * M, ref: "draw:1" }));
        money.post({ userId: u, amountMicro: 1 * M, kind: "deposit" });
        throw new Error("later step failed");
      }),
    ).toThrow("later step failed");
    expect(money.balances(u)).toEqual({ balanceMicro: 100 * M, lockMicro: 0 });
    expect(money.balances(v)).toEqual({ balanceMicro: 50 * M, lockMicro: 0 });
    expect(rows()).toHaveLength(1);
    expect(rows(v)).toHaveLength(1);
    // Every balance heard during the transaction is heard again as the store holds it after.
    expect(heard).toEqual([
      [u, 105 * M],
      [v, 30 * M],
      [u, 106 * M],
      [u, 100 * M],
      [v, 50 * M],
    ]);
    // A later transaction that commits is not undone by the earlier failure.
    money.transaction(() => money.post({ userId: u, amountMicro: 1, kind: "deposit" }));
    expect(money.ledgerSum(u)).toBe(100 * M + 1);
  });

  it("posts every kind of ledger row the store knows, and no other", () => {
    const { money, u, rows } = setup(0);
    const kinds = [
      "deposit",
      "withdrawal_request",
      "withdrawal_returned",
      "fee",
      "realised_profit",
      "demo_reset",
      "protection",
      "adjustment",
      "demo_initial",
    ] as const;
    for (const kind of kinds) money.post({ userId: u, amountMicro: 1, kind });
    expect(rows().map((r) => r.kind)).toEqual(kinds);
    expect(() => money.post({ userId: u, amountMicro: 1, kind: "" as never })).toThrow(
      /unknown ledger kind/,
    );
  });

  it("one service per store", () => {
    const { db, money } = setup(0);
    expect(moneyOf(db)).toBe(money);
    const other = openTestStore();
    opened.push(other);
    expect(moneyOf(other)).not.toBe(money);
    expect(moneyOf(other)).toBeInstanceOf(MoneyService);
  });
});

describe("ledger pages", () => {
  it("pages a user's rows newest first, with the number of rows in all", () => {
    const { db, money, u, user } = setup(0);
    for (let i = 1; i <= 5; i++)
      money.post({ userId: u, amountMicro: i * M, kind: "deposit", at: 100 + i });
    money.post({ userId: user(), amountMicro: 1, kind: "deposit" });
    const p1 = ledgerPage(db, u, 1, 2);
    expect(p1.total).toBe(5);
    expect(p1.items.map((r) => r.amountMicro)).toEqual([5 * M, 4 * M]);
    expect(p1.items[0]).toMatchObject({
      balanceAfterMicro: 15 * M,
      kind: "deposit",
      createdAt: 105,
    });
    expect(p1.items[0].id).toBeGreaterThan(p1.items[1].id);
    expect(ledgerPage(db, u, 3, 2).items.map((r) => r.amountMicro)).toEqual([1 * M]);
    expect(ledgerPage(db, u, 4, 2)).toEqual({ items: [], total: 5 });
    // A page below 1 is the first page.
    expect(ledgerPage(db, u, 0, 2)).toEqual(p1);
    expect(ledgerPage(db, u, -3, 2)).toEqual(p1);
  });
});
