/**
 * The wallet's SQL (draw-methods.ts): a user's withdrawal destinations, the currencies they are
 * bound to, and whether a withdrawal under review still goes to one. Rows come back as stored
 * (snake_case); the service maps them.
 */
import type { DB } from "../../platform/db.js";

export type MethodRow = {
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

const METHOD_SQL = `SELECT m.*, c.code AS currency_code, c.protocol AS protocol
  FROM draw_methods m JOIN draw_currencies c ON c.id = m.draw_currency_id`;

/** A user's destinations of a type, not deleted, oldest first. */
export function liveMethodsOfUser(db: DB, p: { userId: number; type: number }): MethodRow[] {
  return db
    .prepare(
      `${METHOD_SQL} WHERE m.user_id = @userId AND m.type = @type AND m.deleted_at IS NULL ORDER BY m.id`,
    )
    .all(p) as MethodRow[];
}

/** A user's destination, not deleted, or undefined. */
export function liveMethodOfUser(db: DB, p: { userId: number; id: number }): MethodRow | undefined {
  return db
    .prepare(`${METHOD_SQL} WHERE m.user_id = @userId AND m.id = @id AND m.deleted_at IS NULL`)
    .get(p) as MethodRow | undefined;
}

/** How many destinations of a type a user keeps (deleted ones do not count). */
export function liveMethodCount(db: DB, p: { userId: number; type: number }): number {
  return (
    db
      .prepare(
        "SELECT COUNT(*) AS n FROM draw_methods WHERE user_id = @userId AND type = @type AND deleted_at IS NULL",
      )
      .get(p) as { n: number }
  ).n;
}

export type BindCurrencyRow = { id: number; type: number; code: string; protocol: string };

/** An enabled withdrawal currency a destination may be bound to, or undefined. */
export function bindableCurrency(db: DB, p: { id: number }): BindCurrencyRow | undefined {
  return db
    .prepare("SELECT id, type, code, protocol FROM draw_currencies WHERE id = @id AND enabled = 1")
    .get(p) as BindCurrencyRow | undefined;
}

/** Saves a crypto address (type 1); its id. */
export function insertAddressMethod(
  db: DB,
  m: { userId: number; drawCurrencyId: number; address: string; createdAt: number },
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO draw_methods (user_id, type, draw_currency_id, dc_address, created_at)
         VALUES (@userId, 1, @drawCurrencyId, @address, @createdAt)`,
      )
      .run(m).lastInsertRowid,
  );
}

export interface BankMethodInsert {
  userId: number;
  drawCurrencyId: number;
  bankName: string;
  bankAddress: string;
  bankSwift: string;
  payeeName: string;
  payeeAccount: string;
  remark: string | null;
  createdAt: number;
}

/** Saves a bank account (type 2); its id. */
export function insertBankMethod(db: DB, m: BankMethodInsert): number {
  return Number(
    db
      .prepare(
        `INSERT INTO draw_methods (user_id, type, draw_currency_id, bank_name, bank_address,
           bank_swift, payee_name, payee_account, remark, created_at)
         VALUES (@userId, 2, @drawCurrencyId, @bankName, @bankAddress,
           @bankSwift, @payeeName, @payeeAccount, @remark, @createdAt)`,
      )
      .run(m).lastInsertRowid,
  );
}

/** Whether a withdrawal in `status` goes to that destination. */
export function methodHasDraw(db: DB, p: { methodId: number; status: number }): boolean {
  return (
    db
      .prepare("SELECT 1 FROM draws WHERE draw_method_id = @methodId AND status = @status LIMIT 1")
      .get(p) !== undefined
  );
}

/** Marks a destination deleted (past withdrawals keep it). */
export function markMethodDeleted(db: DB, p: { id: number; deletedAt: number }): void {
  db.prepare("UPDATE draw_methods SET deleted_at = @deletedAt WHERE id = @id").run(p);
}
