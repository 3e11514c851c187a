/**
 * Deposits (charges): coin transfers to a channel's address (type 0) and bank wires to a wire
 * account (type 1), each with one proof image (trading-rules.md "Deposits, withdrawals,
 * verification").
 *
 * States: 0 unchecked -> 1 finished (operator; credited) | 2 rejected (operator, remark) | 3 invalid
 * (operator, remark). A deposit changes no balance until it is approved; approval books exactly one
 * ledger row of kind deposit (ref "charge:ID") for the amount actually received, which the operator
 * may give when it differs from the declared one.
 */
import { notify } from "../notify/notices.js";
import assert from "node:assert/strict";
import { CHANNEL_TYPE, CHARGE_STATUS } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import { getSetting } from "../../platform/settings.js";
import { dec, toMicro, MICRO } from "./decimal.js";
import { moneyOf, type MoneyService } from "./service.js";
import { Idempotency } from "../../platform/idempotency.js";
import { requireRealAccount } from "./accounts.js";
import {
  chargeById,
  chargeCountOfUser,
  chargesOfUser,
  decideCharge,
  enabledChannels,
  enabledWireAccounts,
  insertCharge,
  proofInUse,
  uploadOwner,
  type ChannelRow,
  type ChargeRow,
  type WireRow,
} from "./deposits-store.js";

export interface ChargeChannel {
  id: number;
  currencyCode: string;
  protocolCode: string;
  address: string;
  usdPrice: string;
}

export interface WireAccount {
  id: number;
  bankCoin: string;
  bankName: string;
  bankAddress: string;
  bankSwift: string;
  payeeName: string;
  payeeAccount: string;
  bankRemark: string;
}

export interface ChargeRecord {
  id: number;
  userId: number;
  type: number;
  currencyCode: string;
  amountMicro: number;
  creditedMicro: number | null;
  address: string | null;
  proof: string;
  status: number;
  remark: string | null;
  createdAt: number;
  decidedAt: number | null;
}

export type ChargeRequest =
  | {
      type: typeof CHANNEL_TYPE.COIN;
      channelId: number;
      amountMicro: number;
      proof: string;
      address?: string | null;
    }
  | { type: typeof CHANNEL_TYPE.BANK; wireId: number; amountMicro: number; proof: string };

export class Deposits {
  private readonly money: MoneyService;
  private readonly idem: Idempotency;

  constructor(
    private readonly db: DB,
    private readonly now: () => number = Date.now,
  ) {
    this.money = moneyOf(db);
    this.idem = new Idempotency(db, now);
  }

  channels(): ChargeChannel[] {
    return enabledChannels(this.db).map(toChannel);
  }

  wireAccounts(bankCoin?: string): WireAccount[] {
    return enabledWireAccounts(this.db, { bankCoin }).map(toWire);
  }

  /** The smallest and largest deposit accepted (settings deposit.min_usd and deposit.max_usd). */
  bounds(): { minMicro: number; maxMicro: number } {
    return {
      minMicro: toMicro(dec(getSetting(this.db, "deposit.min_usd") ?? "10")),
      maxMicro: toMicro(dec(getSetting(this.db, "deposit.max_usd") ?? "1000000")),
    };
  }

  /**
   * Records a deposit for review; nothing is credited yet. The same idempotency key again answers
   * the first deposit and records nothing more.
   */
  submit(userId: number, req: ChargeRequest, idemKey: string | null = null): ChargeRecord {
    const tx = this.db.transaction(() => {
      // The proof is left out of the key's request: a form posted again (a retry, a double
      // submit) uploads its image again under a new name, and is still the same deposit.
      const { proof: _proof, ...keyed } = req;
      const seen = this.idem.lookup<{ id: number }>(userId, idemKey, "charge", keyed);
      if (seen) return this.get(seen.id)!;
      requireRealAccount(this.db, userId);
      this.checkAmount(req.amountMicro);
      this.checkProof(userId, req.proof);
      const id = insertCharge(this.db, {
        userId,
        type: req.type,
        channelId: req.type === CHANNEL_TYPE.COIN ? req.channelId : null,
        wireId: req.type === CHANNEL_TYPE.BANK ? req.wireId : null,
        ...this.destination(req),
        amountMicro: req.amountMicro,
        proof: req.proof,
        createdAt: this.now(),
      });
      this.idem.store(userId, idemKey, "charge", keyed, { id });
      return this.get(id)!;
    });
    return tx();
  }

  /** A declared amount: a positive integer micro-USD value within the deposit bounds. */
  private checkAmount(amount: number): void {
    if (!Number.isSafeInteger(amount) || amount <= 0)
      throw new DomainError("deposit_amount_positive");
    const { minMicro, maxMicro } = this.bounds();
    if (amount < minMicro)
      throw new DomainError("deposit_below_min", CODE.FAIL, { min: usd(minMicro) });
    if (amount > maxMicro)
      throw new DomainError("deposit_above_max", CODE.FAIL, { max: usd(maxMicro) });
  }

  /** Where the money was sent: the coin channel's currency and address, or the wire's currency. */
  private destination(req: ChargeRequest): { currencyCode: string; address: string | null } {
    if (req.type === CHANNEL_TYPE.COIN) {
      const ch = this.channels().find((c) => c.id === req.channelId);
      if (!ch) throw new DomainError("withdraw_no_channel");
      if (req.address && req.address.trim() !== ch.address)
        throw new DomainError("deposit_address_changed");
      return { currencyCode: ch.currencyCode, address: ch.address };
    }
    const wire = this.wireAccounts().find((w) => w.id === req.wireId);
    if (!wire) throw new DomainError("deposit_no_wire");
    return { currencyCode: wire.bankCoin, address: null };
  }

  /** The proof must be an image this user uploaded, not already the proof of another deposit. */
  private checkProof(userId: number, proof: string): void {
    if (uploadOwner(this.db, { name: proof }) !== userId)
      throw new DomainError("deposit_proof_missing");
    if (proofInUse(this.db, { proof })) throw new DomainError("deposit_proof_used");
  }

  /** Credits the deposit: `receivedMicro` (default the declared amount), one ledger row. */
  approve(id: number, by: string, receivedMicro?: number | null): ChargeRecord {
    return this.money.transaction(() => {
      const c = this.open(id);
      const credited = receivedMicro ?? c.amountMicro;
      if (!Number.isSafeInteger(credited) || credited <= 0)
        throw new DomainError("deposit_amount_positive");
      this.close(id, CHARGE_STATUS.FINISHED, by, null, credited);
      this.money.post({
        userId: c.userId,
        amountMicro: credited,
        kind: "deposit",
        ref: `charge:${id}`,
        memo: c.type === CHANNEL_TYPE.COIN ? `${c.currencyCode} deposit` : "bank wire",
      });
      notify(this.db, {
        userId: c.userId,
        kind: "deposit_credited",
        params: { id, amount: usd(credited) },
      });
      return this.get(id)!;
    });
  }

  reject(id: number, by: string, remark: string): ChargeRecord {
    return this.refuse(id, CHARGE_STATUS.REJECTED, by, remark);
  }

  invalid(id: number, by: string, remark: string): ChargeRecord {
    return this.refuse(id, CHARGE_STATUS.INVALID, by, remark);
  }

  private refuse(id: number, to: number, by: string, remark: string): ChargeRecord {
    if (!remark.trim()) throw new DomainError("remark_required");
    const tx = this.db.transaction(() => {
      const c = this.open(id);
      this.close(id, to, by, remark.trim(), null);
      notify(this.db, {
        userId: c.userId,
        kind: "deposit_rejected",
        params: { id, amount: usd(c.amountMicro), remark: remark.trim() },
      });
      return this.get(id)!;
    });
    return tx();
  }

  /** The deposit, still waiting for its decision (refused otherwise). */
  private open(id: number): ChargeRecord {
    const c = this.get(id);
    if (!c) throw new DomainError("not_found", CODE.NOT_FOUND);
    if (c.status !== CHARGE_STATUS.UNCHECKED) throw new DomainError("deposit_already_decided");
    return c;
  }

  /**
   * Decides a deposit: only from unchecked, and only a finished one is credited, with a positive
   * integer micro-USD amount.
   */
  private close(
    id: number,
    to: number,
    by: string,
    remark: string | null,
    credited: number | null,
  ): void {
    assert(to !== CHARGE_STATUS.UNCHECKED, `deposit ${id} decided back to unchecked`);
    assert(
      to === CHARGE_STATUS.FINISHED
        ? credited !== null && Number.isSafeInteger(credited) && credited > 0
        : credited === null,
      `deposit ${id}: status ${to} with credited amount ${credited}`,
    );
    const changed = decideCharge(this.db, {
      id,
      status: to,
      from: CHARGE_STATUS.UNCHECKED,
      remark,
      decidedBy: by,
      decidedAt: this.now(),
      creditedMicro: credited,
    });
    assert.equal(changed, 1, `deposit ${id} changed under its own transaction`);
  }

  get(id: number): ChargeRecord | null {
    const r = chargeById(this.db, { id });
    return r ? toCharge(r) : null;
  }

  /** A user's deposits of a type, newest first, one page. */
  list(
    userId: number,
    type: number,
    page: number,
    pageSize: number,
  ): { items: ChargeRecord[]; total: number } {
    const offset = (Math.max(1, Math.floor(page)) - 1) * pageSize;
    return {
      items: chargesOfUser(this.db, { userId, type, limit: pageSize, offset }).map(toCharge),
      total: chargeCountOfUser(this.db, { userId, type }),
    };
  }
}

const toChannel = (r: ChannelRow): ChargeChannel => ({
  id: r.id,
  currencyCode: r.currency_code,
  protocolCode: r.protocol_code,
  address: r.address,
  usdPrice: r.usd_price,
});

const toWire = (r: WireRow): WireAccount => ({
  id: r.id,
  bankCoin: r.bank_coin,
  bankName: r.bank_name,
  bankAddress: r.bank_address,
  bankSwift: r.bank_swift,
  payeeName: r.payee_name,
  payeeAccount: r.payee_account,
  bankRemark: r.bank_remark,
});

const toCharge = (r: ChargeRow): ChargeRecord => ({
  id: r.id,
  userId: r.user_id,
  type: r.type,
  currencyCode: r.currency_code,
  amountMicro: r.amount_micro,
  creditedMicro: r.credited_micro,
  address: r.address,
  proof: r.proof,
  status: r.status,
  remark: r.remark,
  createdAt: r.created_at,
  decidedAt: r.decided_at,
});

function usd(micro: number): string {
  return (micro / MICRO).toFixed(2);
}
