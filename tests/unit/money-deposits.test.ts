/**
 * Deposits over a real store: recorded for review with their proof, no balance change until an
 * operator approves; approval books exactly one deposit row (for the amount actually received);
 * rejection and invalidation book nothing and keep the remark; bad requests change nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CHARGE_STATUS } from "@contract/enums";
import { DomainError } from "../../upstream/platform/errors.js";
import { Deposits } from "../../upstream/modules/money/deposits.js";
import { rig, type Rig } from "./engine-helpers.js";
import { showSeededDeposits } from "./money-helpers";

let r: Rig | null = null;
afterEach(() => r?.close());

const M = 1_000_000;
let uploads = 0;

/** An uploaded image row as the upload route leaves it (the store-level part of an upload). */
function upload(rr: Rig, userId: number): string {
  const name = `proof-${++uploads}.jpg`;
  rr.db
    .prepare(
      "INSERT INTO uploads (name, user_id, mime, bytes, width, height, created_at) VALUES (?, ?, 'image/jpeg', 1234, 10, 10, ?)",
    )
    .run(name, userId, Date.now());
  return name;
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

function setup() {
  r = rig();
  const rr = r;
  showSeededDeposits(rr.db);
  const deposits = new Deposits(rr.db);
  const user = rr.user(0);
  const trc = deposits.channels().find((c) => c.protocolCode === "TRC20")!;
  const wire = deposits.wireAccounts("USD")[0];
  return { rr, deposits, user, trc, wire };
}

describe("deposits", () => {
  it("credit nothing until approved, then exactly the amount received, once", () => {
    const { rr, deposits, user, trc } = setup();
    const c = deposits.submit(user, {
      type: 0,
      channelId: trc.id,
      amountMicro: 250 * M,
      proof: upload(rr, user),
      address: trc.address,
    });
    expect(c).toMatchObject({
      status: CHARGE_STATUS.UNCHECKED,
      currencyCode: "USDT",
      address: trc.address,
    });
    expect(rr.balance(user)).toBe(0);
    expect(rr.ledger(user)).toEqual([]);

    const done = deposits.approve(c.id, "op:alice", 249_500_000);
    expect(done).toMatchObject({ status: CHARGE_STATUS.FINISHED, creditedMicro: 249_500_000 });
    expect(rr.balance(user)).toBe(249_500_000);
    expect(rr.ledger(user)).toEqual([
      {
        amount_micro: 249_500_000,
        kind: "deposit",
        ref: `charge:${c.id}`,
        balance_after_micro: 249_500_000,
      },
    ]);
    expect(refusal(() => deposits.approve(c.id, "op:alice"))).toBe("deposit_already_decided");
    expect(refusal(() => deposits.reject(c.id, "op", "late"))).toBe("deposit_already_decided");
    expect(rr.ledger(user)).toHaveLength(1);
  });

  it("reject and invalid keep the remark and book nothing; a bank wire works the same way", () => {
    const { rr, deposits, user, wire } = setup();
    const a = deposits.submit(user, {
      type: 1,
      wireId: wire.id,
      amountMicro: 500 * M,
      proof: upload(rr, user),
    });
    const b = deposits.submit(user, {
      type: 1,
      wireId: wire.id,
      amountMicro: 500 * M,
      proof: upload(rr, user),
    });
    expect(refusal(() => deposits.reject(a.id, "op", " "))).toBe("remark_required");
    expect(deposits.reject(a.id, "op", "Name on the transfer differs")).toMatchObject({
      status: CHARGE_STATUS.REJECTED,
      remark: "Name on the transfer differs",
    });
    expect(deposits.invalid(b.id, "op", "Duplicate of #1")).toMatchObject({
      status: CHARGE_STATUS.INVALID,
    });
    expect(rr.balance(user)).toBe(0);
    expect(rr.ledger(user)).toEqual([]);
    expect(deposits.list(user, 1, 1, 20)).toMatchObject({ total: 2 });
    expect(deposits.list(user, 0, 1, 20)).toMatchObject({ total: 0, items: [] });
  });

  it("refuses bad requests and records nothing", () => {
    const { rr, deposits, user, trc } = setup();
    const proof = upload(rr, user);
    const ok = { type: 0 as const, channelId: trc.id, amountMicro: 100 * M, proof };
    expect(refusal(() => deposits.submit(user, { ...ok, amountMicro: 0 }))).toBe(
      "deposit_amount_positive",
    );
    expect(refusal(() => deposits.submit(user, { ...ok, amountMicro: 5 * M }))).toBe(
      "deposit_below_min",
    );
    expect(refusal(() => deposits.submit(user, { ...ok, amountMicro: 2_000_000 * M }))).toBe(
      "deposit_above_max",
    );
    expect(refusal(() => deposits.submit(user, { ...ok, channelId: 999 }))).toBe(
      "withdraw_no_channel",
    );
    expect(refusal(() => deposits.submit(user, { ...ok, address: "TSomewhereElse" }))).toBe(
      "deposit_address_changed",
    );
    expect(refusal(() => deposits.submit(user, { ...ok, proof: "nope.jpg" }))).toBe(
      "deposit_proof_missing",
    );
    const other = rr.user(0);
    expect(refusal(() => deposits.submit(other, ok))).toBe("deposit_proof_missing");
    expect(
      refusal(() => deposits.submit(user, { type: 1, wireId: 999, amountMicro: 100 * M, proof })),
    ).toBe("deposit_no_wire");
    const demo = rr.user(10_000, true);
    expect(refusal(() => deposits.submit(demo, { ...ok, proof: upload(rr, demo) }))).toBe(
      "demo_only_true_account",
    );
    expect((rr.db.prepare("SELECT COUNT(*) AS n FROM charges").get() as { n: number }).n).toBe(0);
    // One proof, one deposit.
    deposits.submit(user, { ...ok, proof });
    expect(refusal(() => deposits.submit(user, { ...ok, proof }))).toBe("deposit_proof_used");
  });

  it("records one deposit of one idempotency key", () => {
    const { rr, deposits, user, trc } = setup();
    const req = {
      type: 0 as const,
      channelId: trc.id,
      amountMicro: 100 * M,
      proof: upload(rr, user),
    };
    const a = deposits.submit(user, req, "dep-1");
    expect(deposits.submit(user, req, "dep-1")).toEqual(a);
    expect(deposits.list(user, 0, 1, 20).total).toBe(1);
    expect(() => deposits.submit(user, { ...req, amountMicro: 200 * M }, "dep-1")).toThrow(
      expect.objectContaining({ key: "idempotency_key_reused", status: 422 }),
    );
  });
});
