/**
 * A user's withdrawal destinations (the wallet): crypto addresses (type 1) checked against the
 * format of their network, and bank accounts (type 2). A destination named by a withdrawal still
 * under review cannot be deleted; deleting marks it, so past withdrawals keep their destination.
 */
import { SWIFT } from "@contract/api/finance";
import { DRAW_TYPE, WITHDRAW_STATUS } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import { validAddress } from "./addresses.js";
import { requireRealAccount } from "./accounts.js";
import {
  bindableCurrency,
  insertAddressMethod,
  insertBankMethod,
  liveMethodCount,
  liveMethodOfUser,
  liveMethodsOfUser,
  markMethodDeleted,
  methodHasDraw,
  type BindCurrencyRow,
  type MethodRow,
} from "./draw-methods-store.js";

export interface DrawMethod {
  id: number;
  type: number;
  drawCurrencyId: number;
  currencyCode: string;
  protocol: string;
  dcAddress: string | null;
  bankName: string | null;
  bankAddress: string | null;
  bankSwift: string | null;
  payeeName: string | null;
  payeeAccount: string | null;
  remark: string | null;
  createdAt: number;
}

export type BindRequest =
  | { type: typeof DRAW_TYPE.ADDRESS; drawCurrencyId: number; address: string }
  | {
      type: typeof DRAW_TYPE.BANK;
      drawCurrencyId: number;
      bankName: string;
      bankAddress: string;
      bankSwift: string;
      payeeName: string;
      payeeAccount: string;
      remark?: string | null;
    };

/** Most destinations one user may keep of each type. */
export const MAX_METHODS_PER_TYPE = 20;

function text(v: string | null | undefined, max: number, key: string): string {
  const t = (v ?? "").trim();
  if (!t || t.length > max) throw new DomainError(key);
  return t;
}

export class DrawMethods {
  constructor(private readonly db: DB) {}

  list(userId: number, type: number): DrawMethod[] {
    return liveMethodsOfUser(this.db, { userId, type }).map(toMethod);
  }

  get(userId: number, id: number): DrawMethod | null {
    const r = liveMethodOfUser(this.db, { userId, id });
    return r ? toMethod(r) : null;
  }

  bind(userId: number, req: BindRequest, now = Date.now()): DrawMethod {
    const tx = this.db.transaction(() => {
      requireRealAccount(this.db, userId);
      const currency = bindableCurrency(this.db, { id: req.drawCurrencyId });
      if (!currency || currency.type !== req.type) throw new DomainError("withdraw_no_channel");
      const count = liveMethodCount(this.db, { userId, type: req.type });
      if (count >= MAX_METHODS_PER_TYPE)
        throw new DomainError("wallet_too_many", CODE.FAIL, { max: MAX_METHODS_PER_TYPE });
      const id =
        req.type === DRAW_TYPE.ADDRESS
          ? this.bindAddress(userId, currency, req, now)
          : this.bindBank(userId, currency, req, now);
      return this.get(userId, id)!;
    });
    return tx();
  }

  /** Saves a crypto address, refused unless it is an address of the currency's network. */
  private bindAddress(
    userId: number,
    currency: BindCurrencyRow,
    req: Extract<BindRequest, { type: typeof DRAW_TYPE.ADDRESS }>,
    now: number,
  ): number {
    const address = text(req.address, 128, "wallet_address_invalid");
    const network = currency.protocol || currency.code;
    if (!validAddress(network, address))
      throw new DomainError("wallet_address_invalid", CODE.FAIL, { network });
    return insertAddressMethod(this.db, {
      userId,
      drawCurrencyId: currency.id,
      address,
      createdAt: now,
    });
  }

  /** Saves a bank account: every field present, and a well-formed SWIFT/BIC. */
  private bindBank(
    userId: number,
    currency: BindCurrencyRow,
    req: Extract<BindRequest, { type: typeof DRAW_TYPE.BANK }>,
    now: number,
  ): number {
    const swift = text(req.bankSwift, 11, "wallet_swift_invalid").toUpperCase();
    if (!SWIFT.test(swift)) throw new DomainError("wallet_swift_invalid");
    return insertBankMethod(this.db, {
      userId,
      drawCurrencyId: currency.id,
      bankName: text(req.bankName, 120, "wallet_bank_required"),
      bankAddress: text(req.bankAddress, 200, "wallet_bank_required"),
      bankSwift: swift,
      payeeName: text(req.payeeName, 120, "wallet_bank_required"),
      payeeAccount: text(req.payeeAccount, 64, "wallet_bank_required"),
      remark: (req.remark ?? "").trim().slice(0, 200) || null,
      createdAt: now,
    });
  }

  /** Deletes a destination unless a withdrawal under review goes to it. */
  remove(userId: number, id: number, now = Date.now()): void {
    const tx = this.db.transaction(() => {
      if (!this.get(userId, id)) throw new DomainError("not_found", CODE.NOT_FOUND);
      if (methodHasDraw(this.db, { methodId: id, status: WITHDRAW_STATUS.REVIEWING }))
        throw new DomainError("wallet_in_use");
      markMethodDeleted(this.db, { id, deletedAt: now });
    });
    tx();
  }
}

const toMethod = (r: MethodRow): DrawMethod => ({
  id: r.id,
  type: r.type,
  drawCurrencyId: r.draw_currency_id,
  currencyCode: r.currency_code,
  protocol: r.protocol,
  dcAddress: r.dc_address,
  bankName: r.bank_name,
  bankAddress: r.bank_address,
  bankSwift: r.bank_swift,
  payeeName: r.payee_name,
  payeeAccount: r.payee_account,
  remark: r.remark,
  createdAt: r.created_at,
});
