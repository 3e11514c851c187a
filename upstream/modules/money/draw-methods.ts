/**
 * A user's withdrawal destinations (the wallet): crypto addresses (type 1) checked against the
 * format of their network, and bank accounts (type 2). A destination named by a withdrawal still
 * under review cannot be deleted; deleting marks it, so past withdrawals keep their destination.
 */
import { DRAW_TYPE, WITHDRAW_STATUS } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import { validAddress } from "./addresses.js";

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

/** SWIFT/BIC: 4 bank letters, 2 country letters, 2 location characters, optional 3 branch ones. */
export const SWIFT = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

function text(v: string | null | undefined, max: number, key: string): string {
  const t = (v ?? "").trim();
  if (!t || t.length > max) throw new DomainError(key);
  return t;
}

export class DrawMethods {
  constructor(private readonly db: DB) {}

  list(userId: number, type: number): DrawMethod[] {
    return (
      this.db
        .prepare(
          `${METHOD_SQL} WHERE m.user_id = ? AND m.type = ? AND m.deleted_at IS NULL ORDER BY m.id`,
        )
        .all(userId, type) as MethodRow[]
    ).map(toMethod);
  }

  get(userId: number, id: number): DrawMethod | null {
    const r = this.db
      .prepare(`${METHOD_SQL} WHERE m.user_id = ? AND m.id = ? AND m.deleted_at IS NULL`)
      .get(userId, id) as MethodRow | undefined;
    return r ? toMethod(r) : null;
  }

  bind(userId: number, req: BindRequest, now = Date.now()): DrawMethod {
    const tx = this.db.transaction(() => {
      const user = this.db.prepare("SELECT is_demo FROM users WHERE id = ?").get(userId) as
        { is_demo: number } | undefined;
      if (!user) throw new DomainError("not_found", CODE.NOT_FOUND);
      if (user.is_demo) throw new DomainError("demo_only_true_account");
      const currency = this.db
        .prepare(
          "SELECT id, type, code, protocol FROM draw_currencies WHERE id = ? AND enabled = 1",
        )
        .get(req.drawCurrencyId) as
        { id: number; type: number; code: string; protocol: string } | undefined;
      if (!currency || currency.type !== req.type) throw new DomainError("withdraw_no_channel");
      const count = (
        this.db
          .prepare(
            "SELECT COUNT(*) AS n FROM draw_methods WHERE user_id = ? AND type = ? AND deleted_at IS NULL",
          )
          .get(userId, req.type) as { n: number }
      ).n;
      if (count >= MAX_METHODS_PER_TYPE)
        throw new DomainError("wallet_too_many", CODE.FAIL, { max: MAX_METHODS_PER_TYPE });
      let id: number;
      if (req.type === DRAW_TYPE.ADDRESS) {
        const address = text(req.address, 128, "wallet_address_invalid");
        if (!validAddress(currency.protocol || currency.code, address))
          throw new DomainError("wallet_address_invalid", CODE.FAIL, {
            network: currency.protocol || currency.code,
          });
        id = Number(
          this.db
            .prepare(
              "INSERT INTO draw_methods (user_id, type, draw_currency_id, dc_address, created_at) VALUES (?, 1, ?, ?, ?)",
            )
            .run(userId, currency.id, address, now).lastInsertRowid,
        );
      } else {
        const swift = text(req.bankSwift, 11, "wallet_swift_invalid").toUpperCase();
        if (!SWIFT.test(swift)) throw new DomainError("wallet_swift_invalid");
        id = Number(
          this.db
            .prepare(
              "INSERT INTO draw_methods (user_id, type, draw_currency_id, bank_name, bank_address, bank_swift, payee_name, payee_account, remark, created_at) VALUES (?, 2, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .run(
              userId,
              currency.id,
              text(req.bankName, 120, "wallet_bank_required"),
              text(req.bankAddress, 200, "wallet_bank_required"),
              swift,
              text(req.payeeName, 120, "wallet_bank_required"),
              text(req.payeeAccount, 64, "wallet_bank_required"),
              (req.remark ?? "").trim().slice(0, 200) || null,
              now,
            ).lastInsertRowid,
        );
      }
      return this.get(userId, id)!;
    });
    return tx();
  }

  /** Deletes a destination unless a withdrawal under review goes to it. */
  remove(userId: number, id: number, now = Date.now()): void {
    const tx = this.db.transaction(() => {
      if (!this.get(userId, id)) throw new DomainError("not_found", CODE.NOT_FOUND);
      const busy = this.db
        .prepare("SELECT 1 FROM draws WHERE draw_method_id = ? AND status = ? LIMIT 1")
        .get(id, WITHDRAW_STATUS.REVIEWING);
      if (busy) throw new DomainError("wallet_in_use");
      this.db.prepare("UPDATE draw_methods SET deleted_at = ? WHERE id = ?").run(now, id);
    });
    tx();
  }
}

const METHOD_SQL = `SELECT m.*, c.code AS currency_code, c.protocol AS protocol
  FROM draw_methods m JOIN draw_currencies c ON c.id = m.draw_currency_id`;

type MethodRow = {
  id: number;
  type: number;
  draw_currency_id: number;
  currency_code: string;
  protocol: string;
  dc_address: string | null;
  bank_name: string | null;
  bank_address: string | null;
  bank_swift: string | null;
  payee_name: string | null;
  payee_account: string | null;
  remark: string | null;
  created_at: number;
};

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
