/**
 * The ledger check (upstream/modules/money/check.ts): a store written by the engine passes; each
 * kind of breach, written behind the money service's back, is found and named.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DRAW_TYPE } from "@contract/enums";
import { checkLedger } from "../../upstream/modules/money/check.js";
import { Deposits } from "../../upstream/modules/money/deposits.js";
import { DrawMethods } from "../../upstream/modules/money/draw-methods.js";
import { Withdrawals } from "../../upstream/modules/money/withdrawals.js";
import { rig, type Rig } from "./engine-helpers.js";
import { showSeededDeposits } from "./money-helpers";

let r: Rig | null = null;
afterEach(() => r?.close());

/** A store with an open, a closed and a pending order of one user, and a second user. */
function trading(): { r: Rig; u: number; open: number; closed: number; pending: number } {
  const r = rig();
  const u = r.user(1000);
  r.user(50);
  r.feed.set("EURUSD", 1.1);
  const order = (extra: Record<string, unknown> = {}) =>
    r.engine.submit(u, {
      type: 1,
      cont: "0.1",
      forex_id: r.id("EURUSD"),
      status: 1,
      multiple: 100,
      ...extra,
    }).Id;
  const open = order();
  const closed = order();
  r.feed.set("EURUSD", 1.105);
  r.engine.close(u, closed);
  const pending = order({ status: 0, target_price: "1.0" });
  return { r, u, open, closed, pending };
}

const checks = (rr: Rig) => checkLedger(rr.db).findings.map((f) => f.check);

/** A withdrawal of `usd` under review, made through the service (with its destination). */
function withdrawal(rr: Rig, userId: number, usd: number) {
  const draws = new Withdrawals({
    db: rr.db,
    freeMarginMicro: (u) => rr.engine.core.accountValues(u).freeMarginMicro,
  });
  const currency = draws.currencies(DRAW_TYPE.ADDRESS)[0];
  const method = new DrawMethods(rr.db).bind(userId, {
    type: DRAW_TYPE.ADDRESS,
    drawCurrencyId: currency.id,
    address: "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk",
  });
  const id = draws.request(userId, {
    drawCurrencyId: currency.id,
    amountMicro: usd * 1_000_000,
    drawMethodId: method.id,
  }).id;
  return { draws, id };
}

describe("ledger check", () => {
  it("finds nothing in a store the engine wrote", () => {
    const t = trading();
    r = t.r;
    const rep = checkLedger(r.db);
    expect(rep.findings).toEqual([]);
    expect(rep).toMatchObject({ users: 2, orders: 3 });
    expect(rep.ledgerRows).toBe(5);
  });

  it("finds a balance that is not the sum of the ledger", () => {
    const t = trading();
    r = t.r;
    r.db.prepare("UPDATE users SET balance_micro = balance_micro + 1 WHERE id = ?").run(t.u);
    expect(checks(r)).toEqual(["balance_sum"]);
  });

  it("finds a row whose balance after breaks the running sum, and a row without its balance move", () => {
    const t = trading();
    r = t.r;
    r.db
      .prepare(
        "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, created_at) VALUES (?, 5, 1, 'adjustment', 0)",
      )
      .run(t.u);
    expect(checks(r).sort()).toEqual(["balance_chain", "balance_sum"]);
  });

  it("finds a locked balance that is not what the withdrawals under review hold", () => {
    const t = trading();
    r = t.r;
    const { draws } = withdrawal(r, t.u, 100);
    expect(checks(r)).toEqual([]);
    r.db
      .prepare("UPDATE users SET lock_balance_micro = lock_balance_micro + 1 WHERE id = ?")
      .run(t.u);
    expect(checks(r)).toEqual(["lock"]);
    r.db.prepare("UPDATE users SET lock_balance_micro = -1 WHERE id = ?").run(t.u);
    expect(checks(r)).toEqual(["lock"]);
    expect(draws.get(1)?.status).toBe(0);
  });

  it("finds a withdrawal returned twice, and one paid that was also returned", () => {
    const t = trading();
    r = t.r;
    const { draws, id } = withdrawal(r, t.u, 100);
    draws.reject(id, "op", "wrong address");
    expect(checks(r)).toEqual([]);
    const bal = r.balance(t.u) + 100_000_000;
    r.db.prepare("UPDATE users SET balance_micro = ? WHERE id = ?").run(bal, t.u);
    r.db
      .prepare(
        "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, ref, created_at) VALUES (?, 100000000, ?, 'withdrawal_returned', ?, 0)",
      )
      .run(t.u, bal, `draw:${id}`);
    expect(checks(r)).toEqual(["draw"]);
  });

  it("finds a deposit credited twice, and one credited without being finished", () => {
    const t = trading();
    r = t.r;
    r.db
      .prepare(
        "INSERT INTO uploads (name, user_id, mime, bytes, width, height, created_at) VALUES ('p.jpg', ?, 'image/jpeg', 1, 1, 1, 0)",
      )
      .run(t.u);
    showSeededDeposits(r.db);
    const deposits = new Deposits(r.db);
    const channel = deposits.channels()[0];
    const c = deposits.submit(t.u, {
      type: 0,
      channelId: channel.id,
      amountMicro: 50_000_000,
      proof: "p.jpg",
    });
    expect(checks(r)).toEqual([]);
    const bal = r.balance(t.u) + 50_000_000;
    r.db.prepare("UPDATE users SET balance_micro = ? WHERE id = ?").run(bal, t.u);
    r.db
      .prepare(
        "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, ref, created_at) VALUES (?, 50000000, ?, 'deposit', ?, 0)",
      )
      .run(t.u, bal, `charge:${c.id}`);
    expect(checks(r)).toEqual(["charge"]);
    deposits.approve(c.id, "op");
    // Now finished, but credited twice.
    expect(checks(r)).toEqual(["charge"]);
  });

  it("finds a second fee of one order (money spent twice) and a fee of an order never filled", () => {
    const t = trading();
    r = t.r;
    const book = (id: number, kind: string, amount: number) => {
      const bal = r!.balance(t.u) + amount;
      r!.db.prepare("UPDATE users SET balance_micro = ? WHERE id = ?").run(bal, t.u);
      r!.db
        .prepare(
          "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, ref, created_at) VALUES (?, ?, ?, ?, ?, 0)",
        )
        .run(t.u, amount, bal, kind, `order:${id}`);
    };
    book(t.open, "fee", -220000);
    expect(checkLedger(r.db).findings).toMatchObject([{ check: "order_fee", orderId: t.open }]);
    book(t.pending, "fee", -1);
    expect(checks(r)).toEqual(["order_fee", "order_fee"]);
  });

  it("finds a closed order without its realised profit, and profit booked on an open order", () => {
    const t = trading();
    r = t.r;
    r.db.prepare("UPDATE orders SET profit_micro = profit_micro + 1 WHERE id = ?").run(t.closed);
    expect(checkLedger(r.db).findings).toMatchObject([
      { check: "order_profit", orderId: t.closed },
    ]);
  });

  it("finds order columns that do not fit the status, and rows referring to another user's order", () => {
    const t = trading();
    r = t.r;
    r.db.prepare("UPDATE orders SET margin_micro = 0 WHERE id = ?").run(t.open);
    expect(checks(r)).toEqual(["order_state"]);
    r.db
      .prepare("UPDATE orders SET margin_micro = 1, user_id = ? WHERE id = ?")
      .run(t.u + 1, t.open);
    expect(checks(r)).toContain("ledger_ref");
  });
});
