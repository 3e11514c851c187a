/**
 * Withdrawals (trading-rules.md "Deposits, withdrawals, verification"; product-spec.md section 9).
 *
 * States: 0 reviewing -> 1 paid (operator) | 2 rejected (operator, remark) | 3 cancelled (user).
 * - Request: the amount (USD) must be positive, within the currency's minimum and maximum, at most
 *   the account's free margin (can_use: money held by open positions cannot leave) and at most its
 *   balance. Both are checked inside the one transaction that moves the amount from balance to
 *   lock_balance with its ledger row, so two requests can never spend the same money.
 * - Fee: fee type 1 is the fixed draw_rate (USD), otherwise draw_rate x amount; net = (amount - fee)
 *   x usd_price in the currency's units, never below 0 (contract/formulas.ts).
 * - Paid: the amount leaves lock_balance (the balance already went down at request).
 * - Rejected or cancelled: the amount returns to the balance with its ledger row.
 *
 * Invariant (checked by ledger:check): a user's lock_balance equals the sum of the amounts of their
 * withdrawals under review.
 */
import { notify } from "../notify/notices.js";
import assert from "node:assert/strict";
import { WITHDRAW_STATUS } from "@contract/enums";
import { withdrawFee } from "@contract/formulas";
import { withdrawNetText } from "@contract/withdraw-net";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import { decimalArith, dec, toMicro, MICRO } from "./decimal.js";
import { moneyOf, type MoneyService } from "./service.js";
import { Idempotency } from "../../platform/idempotency.js";
import { requireRealAccount } from "./accounts.js";
import {
  decideDraw,
  drawById,
  drawCountOfUser,
  drawsOfUser,
  enabledCurrencies,
  enabledCurrency,
  insertDraw,
  liveDestination,
  type CurrencyRow,
  type DestinationRow,
  type DrawRow,
} from "./withdrawals-store.js";

export interface DrawCurrency {
  id: number;
  type: number;
  code: string;
  protocol: string;
  drawRate: string;
  feeType: number;
  usdPrice: string;
  minMicro: number;
  maxMicro: number;
}

export interface DrawRecord {
  id: number;
  userId: number;
  type: number;
  currency: DrawCurrency;
  methodId: number;
  amountMicro: number;
  feeMicro: number;
  net: string;
  memo: string | null;
  status: number;
  remark: string | null;
  createdAt: number;
  decidedAt: number | null;
  /** Where it goes: the address, or the bank account's payee and number. */
  address: string | null;
  payeeAccount: string | null;
  payeeName: string | null;
  bankName: string | null;
}

export interface DrawRequest {
  drawCurrencyId: number;
  amountMicro: number;
  drawMethodId: number;
  memo?: string | null;
}

export interface WithdrawalDeps {
  db: DB;
  /** The account's free margin (can_use) now, in micro-USD: equity minus the margin in use. */
  freeMarginMicro(userId: number): number;
  now?: () => number;
}

const toCurrency = (r: CurrencyRow): DrawCurrency => ({
  id: r.id,
  type: r.type,
  code: r.code,
  protocol: r.protocol,
  drawRate: r.draw_rate,
  feeType: r.fee_type,
  usdPrice: r.usd_price,
  minMicro: r.min_micro,
  maxMicro: r.max_micro,
});

/** Fee (micro-USD, half-even) and net (currency units, WITHDRAW_NET_DP places, down) of a withdrawal. */
export function drawFigures(
  c: DrawCurrency,
  amountMicro: number,
): { feeMicro: number; net: string } {
  const amount = dec(amountMicro).div(MICRO);
  const fee = withdrawFee(decimalArith, amount, c.feeType, dec(c.drawRate));
  // The same function the web shows the expected arrival with (cut down, never rounded up).
  const net = withdrawNetText(amount.toFixed(), c.feeType, c.drawRate, c.usdPrice);
  if (net === null) throw new Error(`withdrawal currency ${c.id} has a malformed rate or price`);
  return { feeMicro: toMicro(fee), net };
}

export class Withdrawals {
  private readonly money: MoneyService;
  private readonly now: () => number;
  private readonly idem: Idempotency;

  constructor(private readonly d: WithdrawalDeps) {
    this.money = moneyOf(d.db);
    this.now = d.now ?? Date.now;
    this.idem = new Idempotency(d.db, this.now);
  }

  /** Enabled withdrawal currencies of a type (1 address, 2 bank), in display order. */
  currencies(type: number): DrawCurrency[] {
    return enabledCurrencies(this.d.db, { type }).map(toCurrency);
  }

  currency(id: number): DrawCurrency | null {
    const r = enabledCurrency(this.d.db, { id });
    return r ? toCurrency(r) : null;
  }

  /**
   * Requests a withdrawal: holds the amount (balance -> lock_balance) and records it for review.
   * The same idempotency key again answers the first withdrawal and holds nothing more.
   */
  /** The withdrawal an idempotency key already made with this request (a replay), else null. */
  replayOf(userId: number, req: DrawRequest, idemKey: string | null): DrawRecord | null {
    const seen = this.idem.lookup<{ id: number }>(userId, idemKey, "draw", req);
    return seen ? this.get(seen.id)! : null;
  }

  request(userId: number, req: DrawRequest, idemKey: string | null = null): DrawRecord {
    return this.money.transaction(() => {
      const seen = this.idem.lookup<{ id: number }>(userId, idemKey, "draw", req);
      if (seen) return this.get(seen.id)!;
      requireRealAccount(this.d.db, userId);
      const { currency, method } = this.target(userId, req);
      const amount = req.amountMicro;
      this.checkAmount(userId, currency, amount);
      const { feeMicro, net } = drawFigures(currency, amount);
      if (feeMicro >= amount) throw new DomainError("withdraw_fee_exceeds");
      const at = this.now();
      const id = insertDraw(this.d.db, {
        userId,
        type: currency.type,
        drawCurrencyId: currency.id,
        drawMethodId: method.id,
        amountMicro: amount,
        feeMicro,
        net,
        memo: req.memo ?? null,
        createdAt: at,
        ...requestedWith(currency, method),
      });
      // Funds locked at request: refused (and everything above rolled back) when the balance
      // cannot cover it.
      const held = this.money.hold({ userId, amountMicro: amount, ref: `draw:${id}`, at });
      assert(held.lockMicro >= amount, `draw:${id} is not held`);
      this.idem.store(userId, idemKey, "draw", req, { id });
      return this.get(id)!;
    });
  }

  /** The request's currency and destination: enabled, the user's own, and matching each other. */
  private target(
    userId: number,
    req: DrawRequest,
  ): { currency: DrawCurrency; method: DestinationRow } {
    const currency = this.currency(req.drawCurrencyId);
    if (!currency) throw new DomainError("withdraw_no_channel");
    const method = liveDestination(this.d.db, { id: req.drawMethodId, userId });
    if (!method) throw new DomainError("withdraw_method_missing");
    if (method.type !== currency.type || method.draw_currency_id !== currency.id)
      throw new DomainError("withdraw_method_mismatch");
    return { currency, method };
  }

  /** A positive integer micro-USD amount within the currency's bounds and the free margin. */
  private checkAmount(userId: number, currency: DrawCurrency, amount: number): void {
    if (!Number.isSafeInteger(amount) || amount <= 0)
      throw new DomainError("withdraw_amount_positive");
    if (amount < currency.minMicro)
      throw new DomainError("withdraw_below_min", CODE.FAIL, { min: usd(currency.minMicro) });
    if (amount > currency.maxMicro)
      throw new DomainError("withdraw_above_max", CODE.FAIL, { max: usd(currency.maxMicro) });
    const free = this.d.freeMarginMicro(userId);
    if (amount > free)
      throw new DomainError("withdraw_above_free", CODE.FAIL, { free: usd(Math.max(0, free)) });
  }

  /**
   * The user takes back a withdrawal still under review: the amount returns to the balance. The same
   * idempotency key again answers the cancelled withdrawal instead of "already decided".
   */
  cancel(userId: number, id: number, idemKey: string | null = null): DrawRecord {
    return this.money.transaction(() => {
      const seen = this.idem.lookup<{ id: number }>(userId, idemKey, "draw_cancel", { id });
      if (seen) return this.get(seen.id)!;
      const done = this.decide(id, WITHDRAW_STATUS.CANCELLED, { userId, remark: null, by: null });
      this.idem.store(userId, idemKey, "draw_cancel", { id }, { id });
      return done;
    });
  }

  /** An operator paid it: the amount leaves lock_balance. */
  approve(id: number, by: string): DrawRecord {
    return this.decide(id, WITHDRAW_STATUS.PAID, { remark: null, by });
  }

  /** An operator refused it (with a remark): the amount returns to the balance. */
  reject(id: number, by: string, remark: string): DrawRecord {
    if (!remark.trim()) throw new DomainError("remark_required");
    return this.decide(id, WITHDRAW_STATUS.REJECTED, { remark: remark.trim(), by });
  }

  /**
   * Decides a withdrawal, only from reviewing: paid takes the amount out of the lock, rejected or
   * cancelled returns it to the balance.
   */
  private decide(
    id: number,
    to: number,
    o: { userId?: number; remark: string | null; by: string | null },
  ): DrawRecord {
    assert(DECISIONS.includes(to), `withdrawal ${id} cannot be decided to status ${to}`);
    return this.money.transaction(() => {
      const draw = this.get(id);
      if (!draw || (o.userId !== undefined && draw.userId !== o.userId))
        throw new DomainError("not_found", CODE.NOT_FOUND);
      if (draw.status !== WITHDRAW_STATUS.REVIEWING)
        throw new DomainError("withdraw_already_decided");
      const at = this.now();
      const changed = decideDraw(this.d.db, {
        id,
        status: to,
        from: WITHDRAW_STATUS.REVIEWING,
        remark: o.remark,
        decidedBy: o.by,
        decidedAt: at,
      });
      assert.equal(changed, 1, `withdrawal ${id} changed under its own transaction`);
      const hold = { userId: draw.userId, amountMicro: draw.amountMicro, ref: `draw:${id}`, at };
      if (to === WITHDRAW_STATUS.PAID) this.money.payOut(hold);
      else this.money.unhold({ ...hold, memo: o.remark });
      // The user's own cancel needs no notice; an operator's decision does.
      if (o.by !== null && to !== WITHDRAW_STATUS.CANCELLED)
        notify(this.d.db, {
          userId: draw.userId,
          kind: to === WITHDRAW_STATUS.PAID ? "withdrawal_paid" : "withdrawal_rejected",
          params: { id, amount: usd(draw.amountMicro), remark: o.remark ?? "" },
        });
      return this.get(id)!;
    });
  }

  get(id: number): DrawRecord | null {
    const r = drawById(this.d.db, { id });
    return r ? toRecord(r) : null;
  }

  /** A user's withdrawals of a type, newest first, one page. */
  list(
    userId: number,
    type: number,
    page: number,
    pageSize: number,
  ): { items: DrawRecord[]; total: number } {
    const offset = (Math.max(1, Math.floor(page)) - 1) * pageSize;
    return {
      items: drawsOfUser(this.d.db, { userId, type, limit: pageSize, offset }).map(toRecord),
      total: drawCountOfUser(this.d.db, { userId, type }),
    };
  }
}

/** The states a withdrawal under review may move to. */
const DECISIONS: readonly number[] = [
  WITHDRAW_STATUS.PAID,
  WITHDRAW_STATUS.REJECTED,
  WITHDRAW_STATUS.CANCELLED,
];

/**
 * What the request was made with, kept on its row: the catalogue and the wallet may change
 * afterwards, the request does not.
 */
function requestedWith(c: DrawCurrency, m: DestinationRow) {
  return {
    currencyCode: c.code,
    currencyProtocol: c.protocol,
    usdPrice: c.usdPrice,
    drawRate: c.drawRate,
    feeType: c.feeType,
    destAddress: m.dc_address,
    destBankName: m.bank_name,
    destPayeeName: m.payee_name,
    destPayeeAccount: m.payee_account,
  };
}

function toRecord(r: DrawRow): DrawRecord {
  return {
    id: r.id,
    userId: r.user_id,
    type: r.type,
    currency: {
      id: r.draw_currency_id,
      type: r.c_type,
      code: r.currency_code,
      protocol: r.currency_protocol,
      drawRate: r.draw_rate,
      feeType: r.fee_type,
      usdPrice: r.usd_price,
      minMicro: r.c_min_micro,
      maxMicro: r.c_max_micro,
    },
    methodId: r.draw_method_id,
    amountMicro: r.amount_micro,
    feeMicro: r.fee_micro,
    net: r.net,
    memo: r.memo,
    status: r.status,
    remark: r.remark,
    createdAt: r.created_at,
    decidedAt: r.decided_at,
    address: r.dest_address,
    payeeAccount: r.dest_payee_account,
    payeeName: r.dest_payee_name,
    bankName: r.dest_bank_name,
  };
}

/** micro-USD as a USD text with 2 decimals, for messages. */
function usd(micro: number): string {
  return (micro / MICRO).toFixed(2);
}
