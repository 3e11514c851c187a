/**
 * MoneyService.postMany: many postings of distinct users booked with one balance statement and one
 * ledger statement per 500, exactly as the same post() calls in order would book them; the
 * listeners hear each balance, a refusal or a rollback undoes all of them and re-announces.
 */
import { afterEach, describe, expect, it } from "vitest";
import { moneyOf, type Posting } from "../../upstream/modules/money/service.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { rig, type Rig } from "./engine-helpers.js";

const rigs: Rig[] = [];
afterEach(() => {
  for (const r of rigs.splice(0)) r.close();
});

function newRig(): Rig {
  const r = rig();
  rigs.push(r);
  return r;
}

/** Every ledger row and balance of the users, ids and times left out. */
function booked(r: Rig, users: number[]) {
  return users.map((u) => ({ balance: r.balance(u), sum: r.ledgerSum(u), rows: r.ledger(u) }));
}

describe("money service, postMany", () => {
  it("books as the same posts one by one, across several statements, and tells the listeners", () => {
    const one = newRig();
    const many = newRig();
    const make = (r: Rig) => Array.from({ length: 1_203 }, (_, i) => r.user(10 + (i % 5)));
    const usersOne = make(one);
    const usersMany = make(many);
    expect(usersMany).toEqual(usersOne);
    const postings: Posting[] = usersOne.map((u, i) => ({
      userId: u,
      amountMicro: ((i % 3) - 1) * 1_234_567 || -1,
      kind: i % 2 ? "fee" : "adjustment",
      memo: i % 4 ? null : `m${i}`,
      ref: `order:${i}`,
      at: 1_700_000_000_000 + i,
    }));
    const heard: [number, number][] = [];
    moneyOf(many.db).onBalance((u, b) => heard.push([u, b]));
    const byOne = moneyOf(one.db).transaction(() => postings.map((p) => moneyOf(one.db).post(p)));
    const byMany = moneyOf(many.db).postMany(postings);
    expect(byMany).toEqual(byOne);
    expect(heard).toEqual(usersOne.map((u, i) => [u, byOne[i]]));
    expect(booked(many, usersOne)).toEqual(booked(one, usersOne));
    const at = many.db.prepare("SELECT created_at FROM ledger WHERE ref = ?").get("order:7") as {
      created_at: number;
    };
    expect(at.created_at).toBe(1_700_000_000_007);
  }, 120_000);

  it("a floor refusal undoes every posting and re-announces the balances", () => {
    const r = newRig();
    const users = [r.user(10), r.user(10), r.user(10)];
    const before = booked(r, users);
    const heard: [number, number][] = [];
    const money = moneyOf(r.db);
    money.onBalance((u, b) => heard.push([u, b]));
    let refused: unknown = null;
    try {
      money.postMany(
        users.map((u, i) => ({
          userId: u,
          amountMicro: i === 2 ? -11_000_000 : -1_000_000,
          kind: "adjustment" as const,
          floorMicro: 0,
        })),
      );
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).key).toBe("insufficient_balance");
    expect(booked(r, users)).toEqual(before);
    // Refused before any balance was announced: memory never hears of one that did not commit.
    expect(heard).toEqual([]);
  });

  it("a rollback after it re-announces each balance as the store holds it", () => {
    const r = newRig();
    const users = [r.user(10), r.user(20)];
    const before = booked(r, users);
    const heard: [number, number][] = [];
    const money = moneyOf(r.db);
    money.onBalance((u, b) => heard.push([u, b]));
    expect(() =>
      money.transaction(() => {
        money.postMany(users.map((u) => ({ userId: u, amountMicro: -1, kind: "fee" as const })));
        throw new Error("a later step failed");
      }),
    ).toThrow("a later step failed");
    expect(booked(r, users)).toEqual(before);
    expect(heard).toEqual([
      [users[0], 9_999_999],
      [users[1], 19_999_999],
      [users[0], 10_000_000],
      [users[1], 20_000_000],
    ]);
  });

  it("refuses a user twice and a user that does not exist, writing nothing", () => {
    const r = newRig();
    const u = r.user(10);
    const money = moneyOf(r.db);
    const p = { userId: u, amountMicro: 1, kind: "adjustment" as const };
    expect(() => money.postMany([p, p])).toThrow(/posted twice/);
    expect(() => money.postMany([p, { ...p, userId: 987_654 }])).toThrow(/no such user/);
    expect(booked(r, [u])).toEqual([{ balance: 10_000_000, sum: 10_000_000, rows: r.ledger(u) }]);
    expect(r.ledger(u)).toHaveLength(1);
    expect(money.postMany([])).toEqual([]);
  });
});
