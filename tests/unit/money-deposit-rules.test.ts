/**
 * Deposits at the edges of their rules (upstream/modules/money/deposits.ts): the bounds an operator
 * sets (inclusive, with the figures the refusal shows), the channel and wire account a deposit goes
 * to, what an approval credits (and refuses to credit), times by the service's clock, paging, and
 * the idempotency key that ignores the re-uploaded proof.
 */
import { openTestStore } from "../support/test-store.js";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CHARGE_STATUS } from "@contract/enums";
import { type DB } from "../../upstream/platform/db.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { Deposits } from "../../upstream/modules/money/deposits.js";
import { showSeededDeposits } from "./money-helpers";

const M = 1_000_000;
const opened: DB[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) if (d.open) d.close();
});

let n = 0;
function setup() {
  const db = openTestStore();
  opened.push(db);
  showSeededDeposits(db);
  let clock = 1_000;
  const deposits = new Deposits(db, () => clock);
  const user = (isDemo = 0) =>
    Number(
      db
        .prepare("INSERT INTO users (uid, invite_code, is_demo, created_at) VALUES (?, ?, ?, 0)")
        .run(`d${++n}`, `D${n}`, isDemo).lastInsertRowid,
    );
  const proof = (userId: number) => {
    const name = `proof-${++n}.jpg`;
    db.prepare(
      "INSERT INTO uploads (name, user_id, mime, bytes, width, height, created_at) VALUES (?, ?, 'image/jpeg', 1, 1, 1, 0)",
    ).run(name, userId);
    return name;
  };
  const u = user();
  const trc = deposits.channels().find((c) => c.protocolCode === "TRC20")!;
  const wire = deposits.wireAccounts()[0];
  const coin = (amountMicro: number, extra: Record<string, unknown> = {}) =>
    deposits.submit(u, {
      type: 0,
      channelId: trc.id,
      amountMicro,
      proof: proof(u),
      ...extra,
    } as never);
  const ledger = (userId = u) =>
    db
      .prepare("SELECT amount_micro, kind, memo, ref FROM ledger WHERE user_id = ? ORDER BY id")
      .all(userId);
  const setClock = (t: number) => (clock = t);
  return { db, deposits, user, proof, u, trc, wire, coin, ledger, setClock };
}

/** The refusal of a call: its message key, envelope code and message parameters. */
function refused(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { key: e.key, code: e.code, params: e.params };
    throw e;
  }
  return "accepted";
}

describe("deposit bounds", () => {
  it("are the operator's settings, inclusive, and the refusal shows them in USD", () => {
    const s = setup();
    expect(s.deposits.bounds()).toEqual({ minMicro: 10 * M, maxMicro: 1_000_000 * M });
    s.db.prepare("UPDATE settings SET value = '25.5' WHERE key = 'deposit.min_usd'").run();
    s.db.prepare("UPDATE settings SET value = '300' WHERE key = 'deposit.max_usd'").run();
    expect(s.deposits.bounds()).toEqual({ minMicro: 25_500_000, maxMicro: 300 * M });
    expect(s.coin(25_500_000).status).toBe(CHARGE_STATUS.UNCHECKED);
    expect(s.coin(300 * M).amountMicro).toBe(300 * M);
    expect(refused(() => s.coin(25_499_999))).toEqual({
      key: "deposit_below_min",
      code: 0,
      params: { min: "25.50" },
    });
    expect(refused(() => s.coin(300 * M + 1))).toEqual({
      key: "deposit_above_max",
      code: 0,
      params: { max: "300.00" },
    });
  });

  it("default to 10 and 1,000,000 USD when the settings are missing", () => {
    const s = setup();
    s.db.prepare("DELETE FROM settings WHERE key IN ('deposit.min_usd', 'deposit.max_usd')").run();
    expect(s.deposits.bounds()).toEqual({ minMicro: 10 * M, maxMicro: 1_000_000 * M });
  });

  it("refuse an amount that is not a positive whole number of micro-USD", () => {
    const s = setup();
    for (const bad of [1.5, -10 * M, Number.NaN])
      expect(refused(() => s.coin(bad))).toMatchObject({ key: "deposit_amount_positive" });
    expect(s.deposits.list(s.u, 0, 1, 20).total).toBe(0);
  });
});

describe("where a deposit goes", () => {
  it("a coin deposit records the channel's currency and address; the address may come with spaces", () => {
    const s = setup();
    const c = s.coin(50 * M, { address: `  ${s.trc.address} ` });
    expect(c).toMatchObject({
      userId: s.u,
      type: 0,
      currencyCode: "USDT",
      address: s.trc.address,
      amountMicro: 50 * M,
      creditedMicro: null,
      status: CHARGE_STATUS.UNCHECKED,
      remark: null,
      createdAt: 1_000,
      decidedAt: null,
    });
    expect(s.coin(50 * M, { address: "" }).address).toBe(s.trc.address);
    const row = s.db.prepare("SELECT channel_id, wire_id FROM charges WHERE id = ?").get(c.id);
    expect(row).toEqual({ channel_id: s.trc.id, wire_id: null });
  });

  it("a bank wire records the wire account's currency and no address", () => {
    const s = setup();
    const w = s.deposits.submit(s.u, {
      type: 1,
      wireId: s.wire.id,
      amountMicro: 50 * M,
      proof: s.proof(s.u),
    });
    expect(w).toMatchObject({ type: 1, currencyCode: "USD", address: null });
    const row = s.db.prepare("SELECT channel_id, wire_id FROM charges WHERE id = ?").get(w.id);
    expect(row).toEqual({ channel_id: null, wire_id: s.wire.id });
  });

  it("offers only enabled channels and wire accounts, in the operator's order, by currency", () => {
    const s = setup();
    expect(s.deposits.channels().map((c) => `${c.currencyCode}/${c.protocolCode}`)).toEqual([
      "USDT/TRC20",
      "USDT/ERC20",
      "BTC/BTC",
      "ETH/ERC20",
    ]);
    expect(s.deposits.channels()[2]).toMatchObject({ usdPrice: "65000" });
    expect(s.deposits.wireAccounts("USD")).toHaveLength(1);
    expect(s.deposits.wireAccounts("USD")[0]).toMatchObject({
      bankCoin: "USD",
      bankSwift: "FHBKSGSG",
      payeeName: "Tradepost Client Funds Ltd",
    });
    expect(s.deposits.wireAccounts("EUR")).toEqual([]);
    s.db.prepare("UPDATE charge_channels SET sort = 9 WHERE protocol_code = 'TRC20'").run();
    expect(s.deposits.channels().at(-1)?.protocolCode).toBe("TRC20");
    s.db.prepare("UPDATE charge_channels SET enabled = 0 WHERE id = ?").run(s.trc.id);
    expect(s.deposits.channels().map((c) => c.id)).not.toContain(s.trc.id);
    expect(refused(() => s.coin(50 * M))).toMatchObject({ key: "withdraw_no_channel" });
    s.db.prepare("UPDATE wire_accounts SET enabled = 0").run();
    expect(s.deposits.wireAccounts()).toEqual([]);
  });

  it("a fresh store offers none: the seeded channels and bank account are hidden placeholders", () => {
    const db = openTestStore();
    opened.push(db);
    const deposits = new Deposits(db);
    expect(deposits.channels()).toEqual([]);
    expect(deposits.wireAccounts()).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM charge_channels").get()).toEqual({ n: 4 });
    expect(db.prepare("SELECT count(*) AS n FROM wire_accounts").get()).toEqual({ n: 1 });
  });

  it("hiding the placeholders leaves an entry an operator already made their own", () => {
    const db = openTestStore();
    opened.push(db);
    // A store from before migration 025: everything shown, one address the broker's own.
    showSeededDeposits(db);
    db.prepare(
      "UPDATE charge_channels SET address = 'TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk' WHERE protocol_code = 'TRC20'",
    ).run();
    db.exec(
      fs.readFileSync(
        path.resolve(
          __dirname,
          "../../upstream/platform/migrations/025_seeded_deposits_hidden.sql",
        ),
        "utf8",
      ),
    );
    expect(new Deposits(db).channels().map((c) => c.address)).toEqual([
      "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk",
    ]);
    expect(new Deposits(db).wireAccounts()).toEqual([]);
  });

  it("refuses a user that does not exist (not found)", () => {
    const s = setup();
    expect(
      refused(() =>
        s.deposits.submit(9999, {
          type: 0,
          channelId: s.trc.id,
          amountMicro: 50 * M,
          proof: s.proof(s.u),
        }),
      ),
    ).toMatchObject({ key: "not_found", code: 404 });
  });
});

describe("deciding a deposit", () => {
  it("approval credits the declared amount by default, with the decision's time", () => {
    const s = setup();
    const c = s.coin(50 * M);
    s.setClock(5_000);
    expect(s.deposits.approve(c.id, "op:alice")).toMatchObject({
      status: CHARGE_STATUS.FINISHED,
      creditedMicro: 50 * M,
      decidedAt: 5_000,
      createdAt: 1_000,
    });
    expect(s.ledger()).toEqual([
      { amount_micro: 50 * M, kind: "deposit", memo: "USDT deposit", ref: `charge:${c.id}` },
    ]);
    const decidedBy = s.db.prepare("SELECT decided_by FROM charges WHERE id = ?").get(c.id);
    expect(decidedBy).toEqual({ decided_by: "op:alice" });
  });

  it("a bank wire's credit is booked as a bank wire", () => {
    const s = setup();
    const w = s.deposits.submit(s.u, {
      type: 1,
      wireId: s.wire.id,
      amountMicro: 80 * M,
      proof: s.proof(s.u),
    });
    s.deposits.approve(w.id, "op", 79 * M);
    expect(s.ledger()).toEqual([
      { amount_micro: 79 * M, kind: "deposit", memo: "bank wire", ref: `charge:${w.id}` },
    ]);
  });

  it("refuses to credit an amount received that is not positive, and leaves the deposit open", () => {
    const s = setup();
    const c = s.coin(50 * M);
    for (const bad of [0, -1, 2.5])
      expect(refused(() => s.deposits.approve(c.id, "op", bad))).toMatchObject({
        key: "deposit_amount_positive",
      });
    expect(s.deposits.get(c.id)?.status).toBe(CHARGE_STATUS.UNCHECKED);
    expect(s.ledger()).toEqual([]);
    expect(s.deposits.approve(c.id, "op", 1).creditedMicro).toBe(1);
  });

  it("rejection keeps the remark trimmed and books nothing; unknown deposits are not found", () => {
    const s = setup();
    const c = s.coin(50 * M);
    s.setClock(7_000);
    expect(s.deposits.reject(c.id, "op", "  blurry proof  ")).toMatchObject({
      status: CHARGE_STATUS.REJECTED,
      remark: "blurry proof",
      decidedAt: 7_000,
      creditedMicro: null,
    });
    expect(s.ledger()).toEqual([]);
    for (const fn of [
      () => s.deposits.approve(9999, "op"),
      () => s.deposits.reject(9999, "op", "x"),
      () => s.deposits.invalid(9999, "op", "x"),
    ])
      expect(refused(fn)).toMatchObject({ key: "not_found", code: 404 });
    expect(refused(() => s.deposits.invalid(c.id, "op", "x"))).toMatchObject({
      key: "deposit_already_decided",
    });
    expect(refused(() => s.deposits.invalid(c.id, "op", ""))).toMatchObject({
      key: "remark_required",
    });
  });
});

describe("listing and resubmitting", () => {
  it("lists a user's deposits of one type newest first, page by page; a page below 1 is the first", () => {
    const s = setup();
    const ids = [1, 2, 3, 4, 5].map((i) => s.coin((10 + i) * M).id);
    s.deposits.submit(s.u, {
      type: 1,
      wireId: s.wire.id,
      amountMicro: 99 * M,
      proof: s.proof(s.u),
    });
    const other = s.user();
    s.deposits.submit(other, {
      type: 0,
      channelId: s.trc.id,
      amountMicro: 20 * M,
      proof: s.proof(other),
    });
    const page = (p: number) => s.deposits.list(s.u, 0, p, 2);
    expect(page(1)).toMatchObject({ total: 5 });
    expect(page(1).items.map((c) => c.id)).toEqual([ids[4], ids[3]]);
    expect(page(3).items.map((c) => c.id)).toEqual([ids[0]]);
    expect(page(0)).toEqual(page(1));
    expect(page(1.7)).toEqual(page(1));
    expect(s.deposits.list(s.u, 1, 1, 20).total).toBe(1);
  });

  it("the same key with a new upload of the proof answers the first deposit and records nothing more", () => {
    const s = setup();
    const req = { type: 0 as const, channelId: s.trc.id, amountMicro: 40 * M };
    const a = s.deposits.submit(s.u, { ...req, proof: s.proof(s.u) }, "k1");
    const b = s.deposits.submit(s.u, { ...req, proof: s.proof(s.u) }, "k1");
    expect(b).toEqual(a);
    expect(s.deposits.list(s.u, 0, 1, 20).total).toBe(1);
    // Without a key every submission is a deposit of its own.
    s.deposits.submit(s.u, { ...req, proof: s.proof(s.u) });
    s.deposits.submit(s.u, { ...req, proof: s.proof(s.u) });
    expect(s.deposits.list(s.u, 0, 1, 20).total).toBe(3);
  });

  it("a demo account cannot deposit", () => {
    const s = setup();
    const demo = s.user(1);
    expect(
      refused(() =>
        s.deposits.submit(demo, {
          type: 0,
          channelId: s.trc.id,
          amountMicro: 20 * M,
          proof: s.proof(demo),
        }),
      ),
    ).toMatchObject({ key: "demo_only_true_account" });
  });
});
