/**
 * Withdrawals and their destinations at the edges of their rules (upstream/modules/money/
 * withdrawals.ts, draw-methods.ts): inclusive bounds with the figures the refusal shows, free
 * margin, a fee that would take everything, a balance that cannot cover what the free margin
 * allows, decisions by the service's clock, paging; and the wallet's limits: how many
 * destinations, how long each field, which currency a destination may name, when one may go.
 */
import { openTestStore } from "../support/test-store.js";
import { afterEach, describe, expect, it } from "vitest";
import { DRAW_TYPE, WITHDRAW_STATUS } from "@contract/enums";
import { type DB } from "../../upstream/platform/db.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { moneyOf } from "../../upstream/modules/money/service.js";
import {
  DrawMethods,
  MAX_METHODS_PER_TYPE,
  type BindRequest,
} from "../../upstream/modules/money/draw-methods.js";
import { Withdrawals, drawFigures } from "../../upstream/modules/money/withdrawals.js";

const M = 1_000_000;
const TRON = "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk";
const opened: DB[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) if (d.open) d.close();
});

let n = 0;
/** A store, a user with `usd`, the free margin the test sets (default: the balance), a fixed clock. */
function setup(usd = 1000) {
  const db = openTestStore();
  opened.push(db);
  const money = moneyOf(db);
  let clock = 1_000;
  let free: number | null = null;
  const draws = new Withdrawals({
    db,
    freeMarginMicro: (userId) => free ?? money.balances(userId)!.balanceMicro,
    now: () => clock,
  });
  const methods = new DrawMethods(db);
  const user = (dep = 0, isDemo = 0) => {
    const id = Number(
      db
        .prepare("INSERT INTO users (uid, invite_code, is_demo, created_at) VALUES (?, ?, ?, 0)")
        .run(`w${++n}`, `W${n}`, isDemo).lastInsertRowid,
    );
    if (dep) money.post({ userId: id, amountMicro: dep * M, kind: "deposit" });
    return id;
  };
  const u = user(usd);
  const trc = draws.currencies(DRAW_TYPE.ADDRESS).find((c) => c.protocol === "TRC20")!;
  const bankUsd = draws.currencies(DRAW_TYPE.BANK)[0];
  const address = methods.bind(u, {
    type: DRAW_TYPE.ADDRESS,
    drawCurrencyId: trc.id,
    address: TRON,
  });
  const bank: BindRequest = {
    type: DRAW_TYPE.BANK,
    drawCurrencyId: bankUsd.id,
    bankName: "Harbour Bank",
    bankAddress: "1 Quay, Singapore",
    bankSwift: "FHBKSGSG",
    payeeName: "Ada Lovelace",
    payeeAccount: "0012-345",
  };
  const ask = (amountMicro: number, extra: Record<string, unknown> = {}) =>
    draws.request(u, { drawCurrencyId: trc.id, amountMicro, drawMethodId: address.id, ...extra });
  return {
    db,
    money,
    draws,
    methods,
    user,
    u,
    trc,
    bankUsd,
    address,
    bank,
    ask,
    setClock: (t: number) => (clock = t),
    setFree: (f: number | null) => (free = f),
    count: () => (db.prepare("SELECT COUNT(*) AS n FROM draws").get() as { n: number }).n,
  };
}

function refused(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { key: e.key, code: e.code, params: e.params };
    throw e;
  }
  return "accepted";
}

describe("withdrawal bounds", () => {
  it("the currency's minimum and maximum are inclusive; the refusal shows them in USD", () => {
    const s = setup(100_000);
    s.db.prepare("UPDATE draw_currencies SET max_micro = ? WHERE id = ?").run(500 * M, s.trc.id);
    expect(s.ask(10 * M).amountMicro).toBe(10 * M); // TRC20 minimum: 10 USD
    expect(s.ask(500 * M).amountMicro).toBe(500 * M);
    expect(refused(() => s.ask(10 * M - 1))).toEqual({
      key: "withdraw_below_min",
      code: 0,
      params: { min: "10.00" },
    });
    expect(refused(() => s.ask(500 * M + 1))).toEqual({
      key: "withdraw_above_max",
      code: 0,
      params: { max: "500.00" },
    });
    expect(refused(() => s.ask(20.5))).toMatchObject({ key: "withdraw_amount_positive" });
    expect(s.count()).toBe(2);
  });

  it("may take the whole free margin, not a micro-USD more; the refusal shows it, never below 0", () => {
    const s = setup(1000);
    s.setFree(300 * M);
    expect(refused(() => s.ask(300 * M + 1))).toEqual({
      key: "withdraw_above_free",
      code: 0,
      params: { free: "300.00" },
    });
    expect(s.ask(300 * M).status).toBe(WITHDRAW_STATUS.REVIEWING);
    s.setFree(-50 * M);
    expect(refused(() => s.ask(10 * M))).toEqual({
      key: "withdraw_above_free",
      code: 0,
      params: { free: "0.00" },
    });
  });

  it("a balance that cannot cover it is refused even when the free margin would, and nothing is recorded", () => {
    const s = setup(100);
    s.setFree(10_000 * M);
    expect(refused(() => s.ask(150 * M))).toMatchObject({ key: "insufficient_balance" });
    expect(s.count()).toBe(0);
    expect(s.money.balances(s.u)).toEqual({ balanceMicro: 100 * M, lockMicro: 0 });
    expect(s.money.ledgerSum(s.u)).toBe(100 * M);
  });

  it("is refused when the fee would take the whole amount", () => {
    const s = setup(1000);
    // The bank withdrawal's fixed fee is 25 USD; the operator lowers its minimum to 1 USD.
    s.db.prepare("UPDATE draw_currencies SET min_micro = ? WHERE id = ?").run(1 * M, s.bankUsd.id);
    const bank = s.methods.bind(s.u, s.bank);
    const req = { drawCurrencyId: s.bankUsd.id, drawMethodId: bank.id };
    expect(refused(() => s.draws.request(s.u, { ...req, amountMicro: 25 * M }))).toMatchObject({
      key: "withdraw_fee_exceeds",
    });
    expect(refused(() => s.draws.request(s.u, { ...req, amountMicro: 10 * M }))).toMatchObject({
      key: "withdraw_fee_exceeds",
    });
    const d = s.draws.request(s.u, { ...req, amountMicro: 25 * M + 1 });
    expect(d).toMatchObject({ feeMicro: 25 * M, net: "0.00000100" });
    expect(s.count()).toBe(1);
  });
});

describe("requests", () => {
  it("record the currency, destination, fee, net and memo, at the service's time", () => {
    const s = setup(1000);
    s.setClock(4_242);
    const d = s.ask(100 * M, { memo: "rent" });
    expect(d).toMatchObject({
      userId: s.u,
      type: DRAW_TYPE.ADDRESS,
      methodId: s.address.id,
      amountMicro: 100 * M,
      feeMicro: 1 * M,
      net: "99.00000000",
      memo: "rent",
      status: WITHDRAW_STATUS.REVIEWING,
      remark: null,
      createdAt: 4_242,
      decidedAt: null,
      address: TRON,
      payeeAccount: null,
      currency: {
        id: s.trc.id,
        type: 1,
        code: "USDT",
        protocol: "TRC20",
        drawRate: "1",
        feeType: 1,
        usdPrice: "1",
        minMicro: 10 * M,
      },
    });
    expect(s.ask(20 * M).memo).toBeNull();
    const row = s.db
      .prepare("SELECT created_at, ref FROM ledger WHERE user_id = ? ORDER BY id DESC LIMIT 1")
      .get(s.u);
    expect(row).toEqual({ created_at: 4_242, ref: `draw:${d.id + 1}` });
  });

  it("to a bank account show the payee and bank", () => {
    const s = setup(1000);
    const bank = s.methods.bind(s.u, s.bank);
    const d = s.draws.request(s.u, {
      drawCurrencyId: s.bankUsd.id,
      amountMicro: 200 * M,
      drawMethodId: bank.id,
    });
    expect(d).toMatchObject({
      type: DRAW_TYPE.BANK,
      address: null,
      payeeAccount: "0012-345",
      payeeName: "Ada Lovelace",
      bankName: "Harbour Bank",
      feeMicro: 25 * M,
      net: "175.00000000",
    });
  });

  it("refuse a user that does not exist, a disabled currency, and a destination deleted or of another user", () => {
    const s = setup(1000);
    expect(
      refused(() =>
        s.draws.request(9999, {
          drawCurrencyId: s.trc.id,
          amountMicro: 20 * M,
          drawMethodId: s.address.id,
        }),
      ),
    ).toMatchObject({ key: "not_found", code: 404 });
    const other = s.user(1000);
    const theirs = s.methods.bind(other, {
      type: DRAW_TYPE.ADDRESS,
      drawCurrencyId: s.trc.id,
      address: TRON,
    });
    expect(refused(() => s.ask(20 * M, { drawMethodId: theirs.id }))).toMatchObject({
      key: "withdraw_method_missing",
    });
    s.methods.remove(s.u, s.address.id);
    expect(refused(() => s.ask(20 * M))).toMatchObject({ key: "withdraw_method_missing" });
    s.db.prepare("UPDATE draw_currencies SET enabled = 0 WHERE id = ?").run(s.trc.id);
    expect(s.draws.currency(s.trc.id)).toBeNull();
    expect(refused(() => s.ask(20 * M))).toMatchObject({ key: "withdraw_no_channel" });
    expect(s.count()).toBe(0);
  });

  it("refuse a destination saved for the currency when the operator has since changed its type", () => {
    const s = setup(1000);
    s.db.prepare("UPDATE draw_currencies SET type = 2 WHERE id = ?").run(s.trc.id);
    expect(refused(() => s.ask(20 * M))).toMatchObject({ key: "withdraw_method_mismatch" });
    expect(s.count()).toBe(0);
  });

  it("list enabled currencies of a type in the operator's order", () => {
    const s = setup(0);
    expect(s.draws.currencies(DRAW_TYPE.ADDRESS).map((c) => `${c.code}/${c.protocol}`)).toEqual([
      "USDT/TRC20",
      "USDT/ERC20",
      "BTC/BTC",
      "ETH/ERC20",
    ]);
    expect(s.draws.currencies(DRAW_TYPE.BANK).map((c) => c.code)).toEqual(["USD"]);
    s.db.prepare("UPDATE draw_currencies SET sort = 0 WHERE code = 'ETH'").run();
    s.db.prepare("UPDATE draw_currencies SET enabled = 0 WHERE code = 'BTC'").run();
    expect(s.draws.currencies(DRAW_TYPE.ADDRESS).map((c) => c.code)).toEqual([
      "ETH",
      "USDT",
      "USDT",
    ]);
  });

  it("a currency with a malformed rate or price cannot be booked", () => {
    const c = {
      id: 7,
      type: 1,
      code: "X",
      protocol: "",
      drawRate: "1",
      feeType: 1,
      usdPrice: "abc",
      minMicro: 1,
      maxMicro: 10 ** 12,
    };
    expect(() => drawFigures(c, 100 * M)).toThrow(/malformed/);
    // The booked fee rounds half-even to micro-USD: 0.5 % of 0.000100 USD is 0.0000005 -> 0; the
    // net is cut from the exact fee (never more than the amount less the exact fee).
    expect(drawFigures({ ...c, usdPrice: "1", drawRate: "0.005", feeType: 2 }, 100)).toEqual({
      feeMicro: 0,
      net: "0.00009950",
    });
    expect(drawFigures({ ...c, usdPrice: "1", drawRate: "0.015", feeType: 2 }, 100)).toEqual({
      feeMicro: 2,
      net: "0.00009850",
    });
  });
});

describe("decisions", () => {
  it("record who decided and when; a rejection returns the amount with the remark on its row", () => {
    const s = setup(1000);
    const a = s.ask(100 * M);
    const b = s.ask(50 * M);
    s.setClock(9_000);
    expect(s.draws.reject(a.id, "op:bob", "  wrong network ")).toMatchObject({
      status: WITHDRAW_STATUS.REJECTED,
      remark: "wrong network",
      decidedAt: 9_000,
    });
    const back = s.db
      .prepare("SELECT amount_micro, memo, created_at FROM ledger WHERE ref = ? AND kind = ?")
      .get(`draw:${a.id}`, "withdrawal_returned");
    expect(back).toEqual({ amount_micro: 100 * M, memo: "wrong network", created_at: 9_000 });
    s.setClock(9_500);
    expect(s.draws.approve(b.id, "op:bob")).toMatchObject({
      status: WITHDRAW_STATUS.PAID,
      decidedAt: 9_500,
      remark: null,
    });
    const who = s.db
      .prepare("SELECT id, decided_by FROM draws ORDER BY id")
      .all()
      .map((r) => (r as { decided_by: string }).decided_by);
    expect(who).toEqual(["op:bob", "op:bob"]);
    expect(s.money.balances(s.u)).toEqual({ balanceMicro: 950 * M, lockMicro: 0 });
    expect(refused(() => s.draws.approve(9999, "op"))).toMatchObject({
      key: "not_found",
      code: 404,
    });
    expect(refused(() => s.draws.reject(9999, "op", "x"))).toMatchObject({ key: "not_found" });
  });

  it("a user's cancel is recorded as the user's, without an operator", () => {
    const s = setup(1000);
    const d = s.ask(100 * M);
    s.draws.cancel(s.u, d.id);
    expect(s.db.prepare("SELECT decided_by, status FROM draws WHERE id = ?").get(d.id)).toEqual({
      decided_by: null,
      status: WITHDRAW_STATUS.CANCELLED,
    });
  });

  it("lists a user's withdrawals of one type newest first, page by page", () => {
    const s = setup(10_000);
    const ids = [1, 2, 3].map((i) => s.ask((10 + i) * M).id);
    const other = s.user(1000);
    const theirs = s.methods.bind(other, {
      type: DRAW_TYPE.ADDRESS,
      drawCurrencyId: s.trc.id,
      address: TRON,
    });
    s.draws.request(other, {
      drawCurrencyId: s.trc.id,
      amountMicro: 20 * M,
      drawMethodId: theirs.id,
    });
    const page = (p: number) => s.draws.list(s.u, DRAW_TYPE.ADDRESS, p, 2);
    expect(page(1).total).toBe(3);
    expect(page(1).items.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    expect(page(2).items.map((d) => d.id)).toEqual([ids[0]]);
    expect(page(0)).toEqual(page(1));
    expect(page(2.9)).toEqual(page(2));
    expect(s.draws.list(s.u, DRAW_TYPE.BANK, 1, 2)).toEqual({ items: [], total: 0 });
  });
});

describe("withdrawal destinations", () => {
  it("keep at most MAX_METHODS_PER_TYPE of each type; deleted ones and the other type do not count", () => {
    const s = setup(0);
    expect(MAX_METHODS_PER_TYPE).toBe(20);
    for (let i = 1; i < MAX_METHODS_PER_TYPE; i++)
      s.methods.bind(s.u, { type: DRAW_TYPE.ADDRESS, drawCurrencyId: s.trc.id, address: TRON });
    const add = () =>
      s.methods.bind(s.u, { type: DRAW_TYPE.ADDRESS, drawCurrencyId: s.trc.id, address: TRON });
    expect(refused(add)).toEqual({ key: "wallet_too_many", code: 0, params: { max: 20 } });
    expect(s.methods.bind(s.u, s.bank).type).toBe(DRAW_TYPE.BANK);
    s.methods.remove(s.u, s.address.id);
    expect(add().type).toBe(DRAW_TYPE.ADDRESS);
    expect(s.methods.list(s.u, DRAW_TYPE.ADDRESS)).toHaveLength(20);
    expect(s.methods.list(s.u, DRAW_TYPE.BANK)).toHaveLength(1);
  });

  it("bank fields are trimmed, must be present and fit their length; the remark is optional and cut", () => {
    const s = setup(0);
    const fields = {
      bankName: 120,
      bankAddress: 200,
      payeeName: 120,
      payeeAccount: 64,
    } as const;
    for (const [field, max] of Object.entries(fields) as [keyof typeof fields, number][]) {
      expect(
        refused(() => s.methods.bind(s.u, { ...s.bank, [field]: "x".repeat(max + 1) })),
        field,
      ).toMatchObject({ key: "wallet_bank_required" });
      expect(
        refused(() => s.methods.bind(s.u, { ...s.bank, [field]: "   " })),
        field,
      ).toMatchObject({ key: "wallet_bank_required" });
      expect(s.methods.bind(s.u, { ...s.bank, [field]: ` ${"y".repeat(max)} ` })[field]).toBe(
        "y".repeat(max),
      );
    }
    const m = s.methods.bind(s.u, {
      ...s.bank,
      bankSwift: " fhbksgsgxxx ",
      remark: "r".repeat(250),
    });
    expect(m).toMatchObject({ bankSwift: "FHBKSGSGXXX", remark: "r".repeat(200) });
    expect(s.methods.bind(s.u, { ...s.bank, remark: "  " }).remark).toBeNull();
    expect(s.methods.bind(s.u, s.bank).remark).toBeNull();
    expect(
      refused(() => s.methods.bind(s.u, { ...s.bank, payeeName: undefined as never })),
    ).toMatchObject({ key: "wallet_bank_required" });
    // A SWIFT code with anything before or after it is not one.
    for (const bad of ["1FHBKSGSG", "FHBKSGSG1", "FHBKSGSGXX"])
      expect(
        refused(() => s.methods.bind(s.u, { ...s.bank, bankSwift: bad })),
        bad,
      ).toMatchObject({
        key: "wallet_swift_invalid",
      });
    expect(s.methods.bind(s.u, { ...s.bank, remark: " floor 3 " }).remark).toBe("floor 3");
    expect(
      refused(() => s.methods.bind(s.u, { ...s.bank, bankSwift: "FHBKSGSGXXXX" })),
    ).toMatchObject({ key: "wallet_swift_invalid" });
    expect(refused(() => s.methods.bind(s.u, { ...s.bank, bankSwift: "" }))).toMatchObject({
      key: "wallet_swift_invalid",
    });
  });

  it("an address is trimmed, at most 128 characters, checked by the currency's network (its code without one)", () => {
    const s = setup(0);
    const bind = (address: string, drawCurrencyId = s.trc.id) =>
      s.methods.bind(s.u, { type: DRAW_TYPE.ADDRESS, drawCurrencyId, address });
    expect(bind(`  ${TRON}  `).dcAddress).toBe(TRON);
    expect(refused(() => bind("T123"))).toEqual({
      key: "wallet_address_invalid",
      code: 0,
      params: { network: "TRC20" },
    });
    expect(refused(() => bind("  "))).toMatchObject({ key: "wallet_address_invalid" });
    const sol = Number(
      s.db
        .prepare(
          "INSERT INTO draw_currencies (type, code, protocol, draw_rate, fee_type, usd_price, min_micro, max_micro, sort) VALUES (1, 'SOL', '', '0.01', 1, '0.005', 1000000, 1000000000, 9)",
        )
        .run().lastInsertRowid,
    );
    expect(bind("a".repeat(128), sol).dcAddress).toBe("a".repeat(128));
    expect(refused(() => bind("a".repeat(129), sol))).toMatchObject({
      key: "wallet_address_invalid",
    });
    expect(refused(() => bind("short", sol))).toEqual({
      key: "wallet_address_invalid",
      code: 0,
      params: { network: "SOL" },
    });
    expect(bind("7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV", sol)).toMatchObject({
      currencyCode: "SOL",
      protocol: "",
      createdAt: expect.any(Number),
    });
  });

  it("name an enabled currency of their own type; users that do not exist are not found", () => {
    const s = setup(0);
    expect(
      refused(() =>
        s.methods.bind(s.u, {
          type: DRAW_TYPE.ADDRESS,
          drawCurrencyId: s.bankUsd.id,
          address: TRON,
        }),
      ),
    ).toMatchObject({ key: "withdraw_no_channel" });
    expect(
      refused(() => s.methods.bind(s.u, { ...s.bank, drawCurrencyId: s.trc.id } as BindRequest)),
    ).toMatchObject({ key: "withdraw_no_channel" });
    expect(refused(() => s.methods.bind(9999, s.bank))).toMatchObject({
      key: "not_found",
      code: 404,
    });
    s.db.prepare("UPDATE draw_currencies SET enabled = 0 WHERE id = ?").run(s.bankUsd.id);
    expect(refused(() => s.methods.bind(s.u, s.bank))).toMatchObject({
      key: "withdraw_no_channel",
    });
  });

  it("can be deleted once their withdrawal is decided, and are then gone from the wallet only", () => {
    const s = setup(1000);
    const d = s.ask(50 * M);
    expect(refused(() => s.methods.remove(s.u, s.address.id))).toMatchObject({
      key: "wallet_in_use",
    });
    s.draws.approve(d.id, "op");
    s.methods.remove(s.u, s.address.id, 77);
    expect(s.methods.get(s.u, s.address.id)).toBeNull();
    expect(s.methods.list(s.u, DRAW_TYPE.ADDRESS)).toEqual([]);
    expect(
      s.db.prepare("SELECT deleted_at FROM draw_methods WHERE id = ?").get(s.address.id),
    ).toEqual({ deleted_at: 77 });
    expect(s.draws.get(d.id)?.address).toBe(TRON);
    const other = s.user();
    const mine = s.methods.bind(s.u, s.bank);
    expect(s.methods.get(other, mine.id)).toBeNull();
    expect(s.methods.get(s.u, mine.id)?.id).toBe(mine.id);
  });
});
