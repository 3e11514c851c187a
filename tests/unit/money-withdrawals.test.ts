/**
 * Withdrawals and withdrawal destinations over a real store and the real order engine: the amount
 * moves from balance to lock_balance with its ledger row at request, leaves the lock when paid and
 * returns when rejected or cancelled; requests never spend more than the balance or the free margin
 * held by no position; destinations are checked per network and cannot be deleted while in use.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DRAW_TYPE, WITHDRAW_STATUS } from "@contract/enums";
import { DomainError } from "../../upstream/platform/errors.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import { DrawMethods } from "../../upstream/modules/money/draw-methods.js";
import { validAddress } from "../../upstream/modules/money/addresses.js";
import { Withdrawals, drawFigures } from "../../upstream/modules/money/withdrawals.js";
import { rig, type Rig } from "./engine-helpers.js";

let r: Rig | null = null;
afterEach(() => r?.close());

const TRON = "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk";
const M = 1_000_000;

function setup(usd = 1000) {
  r = rig();
  const rr = r;
  const methods = new DrawMethods(rr.db);
  const draws = new Withdrawals({
    db: rr.db,
    freeMarginMicro: (u) => rr.engine.core.accountValues(u).freeMarginMicro,
  });
  const usdtTrc = draws.currencies(DRAW_TYPE.ADDRESS).find((c) => c.protocol === "TRC20")!;
  const user = rr.user(usd);
  const address = methods.bind(user, {
    type: DRAW_TYPE.ADDRESS,
    drawCurrencyId: usdtTrc.id,
    address: TRON,
  });
  return { rr, methods, draws, usdtTrc, user, address };
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.key;
    throw e;
  }
  throw new Error("not refused");
}

describe("withdrawals", () => {
  it("holds the amount at request, pays it out of the lock on approval; balance = ledger, lock = open requests", () => {
    const { rr, draws, usdtTrc, user, address } = setup(1000);
    const d = draws.request(user, {
      drawCurrencyId: usdtTrc.id,
      amountMicro: 300 * M,
      drawMethodId: address.id,
      memo: "rent",
    });
    expect(d.status).toBe(WITHDRAW_STATUS.REVIEWING);
    // USDT on TRC20: a fixed fee of 1 USD, 1 USDT per USD.
    expect(d.feeMicro).toBe(1 * M);
    expect(d.net).toBe("299.00000000");
    expect(moneyOf(rr.db).balances(user)).toEqual({ balanceMicro: 700 * M, lockMicro: 300 * M });
    expect(rr.ledger(user).at(-1)).toMatchObject({
      amount_micro: -300 * M,
      kind: "withdrawal_request",
      ref: `draw:${d.id}`,
    });
    expect(rr.ledgerSum(user)).toBe(rr.balance(user));

    const paid = draws.approve(d.id, "op:alice");
    expect(paid.status).toBe(WITHDRAW_STATUS.PAID);
    expect(moneyOf(rr.db).balances(user)).toEqual({ balanceMicro: 700 * M, lockMicro: 0 });
    expect(rr.ledger(user)).toHaveLength(2);
    expect(refusal(() => draws.approve(d.id, "op:alice"))).toBe("withdraw_already_decided");
    expect(refusal(() => draws.cancel(user, d.id))).toBe("withdraw_already_decided");
  });

  it("returns the amount on rejection (with the remark) and on the user's cancel, each with a ledger row", () => {
    const { rr, draws, usdtTrc, user, address } = setup(500);
    const req = { drawCurrencyId: usdtTrc.id, amountMicro: 100 * M, drawMethodId: address.id };
    const a = draws.request(user, req);
    const b = draws.request(user, req);
    expect(moneyOf(rr.db).balances(user)).toEqual({ balanceMicro: 300 * M, lockMicro: 200 * M });
    expect(refusal(() => draws.reject(a.id, "op", "  "))).toBe("remark_required");
    const rejected = draws.reject(a.id, "op", "Address on a sanctions list");
    expect(rejected).toMatchObject({
      status: WITHDRAW_STATUS.REJECTED,
      remark: "Address on a sanctions list",
    });
    const cancelled = draws.cancel(user, b.id);
    expect(cancelled.status).toBe(WITHDRAW_STATUS.CANCELLED);
    expect(moneyOf(rr.db).balances(user)).toEqual({ balanceMicro: 500 * M, lockMicro: 0 });
    expect(
      rr
        .ledger(user)
        .slice(-2)
        .map((l) => [l.kind, l.amount_micro]),
    ).toEqual([
      ["withdrawal_returned", 100 * M],
      ["withdrawal_returned", 100 * M],
    ]);
    expect(rr.ledgerSum(user)).toBe(500 * M);
    // Another user cannot cancel it.
    const other = rr.user(10);
    const c = draws.request(user, req);
    expect(refusal(() => draws.cancel(other, c.id))).toBe("not_found");
  });

  it("never spends more than the balance, however many requests come", () => {
    const { rr, draws, usdtTrc, user, address } = setup(100);
    const req = { drawCurrencyId: usdtTrc.id, amountMicro: 30 * M, drawMethodId: address.id };
    const outcomes = Array.from({ length: 50 }, () => {
      try {
        draws.request(user, req);
        return "ok";
      } catch (e) {
        return (e as DomainError).key;
      }
    });
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(3);
    expect(new Set(outcomes.filter((o) => o !== "ok"))).toEqual(new Set(["withdraw_above_free"]));
    expect(moneyOf(rr.db).balances(user)).toEqual({ balanceMicro: 10 * M, lockMicro: 90 * M });
    expect(rr.ledgerSum(user)).toBe(10 * M);
    const open = rr.db
      .prepare(
        "SELECT COALESCE(SUM(amount_micro), 0) AS s FROM draws WHERE user_id = ? AND status = 0",
      )
      .get(user) as { s: number };
    expect(open.s).toBe(90 * M);
  });

  it("makes one withdrawal of one idempotency key, and refuses the key for another request", () => {
    const { rr, draws, usdtTrc, user, address } = setup(1000);
    const req = { drawCurrencyId: usdtTrc.id, amountMicro: 100 * M, drawMethodId: address.id };
    const a = draws.request(user, req, "key-1");
    const again = draws.request(user, req, "key-1");
    expect(again).toEqual(a);
    expect(moneyOf(rr.db).balances(user)).toEqual({ balanceMicro: 900 * M, lockMicro: 100 * M });
    expect(() => draws.request(user, { ...req, amountMicro: 200 * M }, "key-1")).toThrow(
      expect.objectContaining({ key: "idempotency_key_reused", status: 422 }),
    );
    // Keys are per user: another user's same key is another request.
    const other = rr.user(1000);
    const theirs = new DrawMethods(rr.db).bind(other, {
      type: DRAW_TYPE.ADDRESS,
      drawCurrencyId: usdtTrc.id,
      address: TRON,
    });
    expect(draws.request(other, { ...req, drawMethodId: theirs.id }, "key-1").id).not.toBe(a.id);
    // Cancelling twice with one key answers the same, and returns the money once.
    const c1 = draws.cancel(user, a.id, "cancel-1");
    expect(draws.cancel(user, a.id, "cancel-1")).toEqual(c1);
    expect(moneyOf(rr.db).balances(user)).toEqual({ balanceMicro: 1000 * M, lockMicro: 0 });
    expect(rr.ledger(user).filter((l) => l.kind === "withdrawal_returned")).toHaveLength(1);
  });

  it("cannot take the margin held by open positions", () => {
    const { rr, draws, usdtTrc, user, address } = setup(1000);
    rr.feed.set("EURUSD", 1.1);
    rr.engine.submit(user, {
      type: 1,
      cont: "0.1",
      forex_id: rr.id("EURUSD"),
      status: 1,
      multiple: 100,
    });
    const free = rr.engine.core.accountValues(user).freeMarginMicro;
    expect(free).toBeLessThan(1000 * M);
    expect(
      refusal(() =>
        draws.request(user, {
          drawCurrencyId: usdtTrc.id,
          amountMicro: free + 1,
          drawMethodId: address.id,
        }),
      ),
    ).toBe("withdraw_above_free");
    const ok = draws.request(user, {
      drawCurrencyId: usdtTrc.id,
      amountMicro: Math.min(free, 10_000 * M),
      drawMethodId: address.id,
    });
    expect(ok.status).toBe(WITHDRAW_STATUS.REVIEWING);
  });

  it("refuses bad requests and changes nothing", () => {
    const { rr, methods, draws, usdtTrc, user, address } = setup(1000);
    const before = [moneyOf(rr.db).balances(user), rr.ledger(user).length];
    const req = { drawCurrencyId: usdtTrc.id, amountMicro: 50 * M, drawMethodId: address.id };
    expect(refusal(() => draws.request(user, { ...req, amountMicro: 0 }))).toBe(
      "withdraw_amount_positive",
    );
    expect(refusal(() => draws.request(user, { ...req, amountMicro: -5 * M }))).toBe(
      "withdraw_amount_positive",
    );
    expect(refusal(() => draws.request(user, { ...req, amountMicro: 1 * M }))).toBe(
      "withdraw_below_min",
    );
    expect(refusal(() => draws.request(user, { ...req, drawCurrencyId: 9999 }))).toBe(
      "withdraw_no_channel",
    );
    expect(refusal(() => draws.request(user, { ...req, drawMethodId: 9999 }))).toBe(
      "withdraw_method_missing",
    );
    const erc = draws
      .currencies(DRAW_TYPE.ADDRESS)
      .find((c) => c.protocol === "ERC20" && c.code === "USDT")!;
    expect(refusal(() => draws.request(user, { ...req, drawCurrencyId: erc.id }))).toBe(
      "withdraw_method_mismatch",
    );
    const demo = rr.user(10_000, true);
    expect(refusal(() => draws.request(demo, req))).toBe("demo_only_true_account");
    expect(
      refusal(() =>
        methods.bind(demo, { type: DRAW_TYPE.ADDRESS, drawCurrencyId: usdtTrc.id, address: TRON }),
      ),
    ).toBe("demo_only_true_account");
    expect([moneyOf(rr.db).balances(user), rr.ledger(user).length]).toEqual(before);
    expect((rr.db.prepare("SELECT COUNT(*) AS n FROM draws").get() as { n: number }).n).toBe(0);
  });

  it("computes fee and net per the currency: fixed, or a rate of the amount; net cut, never below 0", () => {
    const base = { id: 1, type: 1, code: "X", protocol: "", minMicro: 1, maxMicro: 10 ** 12 };
    expect(drawFigures({ ...base, drawRate: "5", feeType: 1, usdPrice: "1" }, 100 * M)).toEqual({
      feeMicro: 5 * M,
      net: "95.00000000",
    });
    // BTC: 0.1 % fee, 1 USD = 0.0000153846 BTC.
    expect(
      drawFigures({ ...base, drawRate: "0.001", feeType: 2, usdPrice: "0.0000153846" }, 1000 * M),
    ).toEqual({ feeMicro: 1 * M, net: "0.01536921" });
    expect(drawFigures({ ...base, drawRate: "50", feeType: 1, usdPrice: "1" }, 20 * M).net).toBe(
      "0.00000000",
    );
  });
});

describe("withdrawal destinations", () => {
  it("checks addresses by network and bank details, and keeps a destination while a withdrawal uses it", () => {
    const { rr, methods, draws, usdtTrc, user, address } = setup(1000);
    const erc = draws
      .currencies(DRAW_TYPE.ADDRESS)
      .find((c) => c.protocol === "ERC20" && c.code === "USDT")!;
    expect(
      refusal(() =>
        methods.bind(user, { type: DRAW_TYPE.ADDRESS, drawCurrencyId: erc.id, address: TRON }),
      ),
    ).toBe("wallet_address_invalid");
    const eth = methods.bind(user, {
      type: DRAW_TYPE.ADDRESS,
      drawCurrencyId: erc.id,
      address: "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063",
    });
    expect(methods.list(user, DRAW_TYPE.ADDRESS).map((m) => m.id)).toEqual([address.id, eth.id]);
    const usd = draws.currencies(DRAW_TYPE.BANK)[0];
    const bank = {
      type: DRAW_TYPE.BANK,
      drawCurrencyId: usd.id,
      bankName: "Harbour Bank",
      bankAddress: "1 Quay, Singapore",
      bankSwift: "fhbksgsg",
      payeeName: "Ada Lovelace",
      payeeAccount: "0012-345",
    } as const;
    expect(refusal(() => methods.bind(user, { ...bank, bankSwift: "NOPE" }))).toBe(
      "wallet_swift_invalid",
    );
    expect(refusal(() => methods.bind(user, { ...bank, payeeName: " " }))).toBe(
      "wallet_bank_required",
    );
    expect(methods.bind(user, bank).bankSwift).toBe("FHBKSGSG");

    const d = draws.request(user, {
      drawCurrencyId: usdtTrc.id,
      amountMicro: 20 * M,
      drawMethodId: address.id,
    });
    expect(refusal(() => methods.remove(user, address.id))).toBe("wallet_in_use");
    draws.cancel(user, d.id);
    methods.remove(user, address.id);
    expect(methods.list(user, DRAW_TYPE.ADDRESS).map((m) => m.id)).toEqual([eth.id]);
    // The past withdrawal still shows where it went.
    expect(draws.get(d.id)!.address).toBe(TRON);
    expect(refusal(() => methods.remove(user, address.id))).toBe("not_found");
    expect(refusal(() => methods.remove(rr.user(1), eth.id))).toBe("not_found");
  });

  it("knows the formats of the seeded networks", () => {
    expect(validAddress("TRC20", TRON)).toBe(true);
    expect(validAddress("TRC20", "T0rZ8tKfjqaPZQq4bKXvQ1YVn7Yw6zk6dE")).toBe(false);
    expect(validAddress("ERC20", "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063")).toBe(true);
    expect(validAddress("ERC20", "0x8f3C")).toBe(false);
    expect(validAddress("BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")).toBe(true);
    expect(validAddress("BTC", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT")).toBe(true);
    expect(validAddress("BTC", "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063")).toBe(false);
  });
});
