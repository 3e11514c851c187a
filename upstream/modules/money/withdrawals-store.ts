/**
 * The withdrawals' SQL (withdrawals.ts): the withdrawal currencies, the destination a request names,
 * and the requests (draws). Rows come back as stored (snake_case); the service maps them.
 */
import type { DB } from "../../platform/db.js";

export type CurrencyRow = {
  id: number;
  type: number;
  code: string;
  protocol: string;
  draw_rate: string;
  fee_type: number;
  usd_price: string;
  min_micro: number;
  max_micro: number;
};

/** Enabled withdrawal currencies of a type, in display order. */
export function enabledCurrencies(db: DB, p: { type: number }): CurrencyRow[] {
  return db
    .prepare("SELECT * FROM draw_currencies WHERE enabled = 1 AND type = @type ORDER BY sort, id")
    .all(p) as CurrencyRow[];
}

export function enabledCurrency(db: DB, p: { id: number }): CurrencyRow | undefined {
  return db.prepare("SELECT * FROM draw_currencies WHERE id = @id AND enabled = 1").get(p) as
    CurrencyRow | undefined;
}

/** A destination as a withdrawal request copies it. */
export type DestinationRow = {
  id: number;
  type: number;
  draw_currency_id: number;
  dc_address: string | null;
  bank_name: string | null;
  payee_name: string | null;
  payee_account: string | null;
};

/** A user's destination not deleted, or undefined. */
export function liveDestination(
  db: DB,
  p: { id: number; userId: number },
): DestinationRow | undefined {
  return db
    .prepare(
      `SELECT id, type, draw_currency_id, dc_address, bank_name, payee_name, payee_account
       FROM draw_methods WHERE id = @id AND user_id = @userId AND deleted_at IS NULL`,
    )
    .get(p) as DestinationRow | undefined;
}

/** A withdrawal request as recorded: what it was made with is kept on its own row. */
export interface DrawInsert {
  userId: number;
  type: number;
  drawCurrencyId: number;
  drawMethodId: number;
  amountMicro: number;
  feeMicro: number;
  net: string;
  memo: string | null;
  createdAt: number;
  currencyCode: string;
  currencyProtocol: string;
  usdPrice: string;
  drawRate: string;
  feeType: number;
  destAddress: string | null;
  destBankName: string | null;
  destPayeeName: string | null;
  destPayeeAccount: string | null;
}

/** Records a withdrawal under review; its id. */
export function insertDraw(db: DB, d: DrawInsert): number {
  return Number(
    db
      .prepare(
        `INSERT INTO draws (user_id, type, draw_currency_id, draw_method_id, amount_micro, fee_micro,
           net, memo, created_at, currency_code, currency_protocol, usd_price, draw_rate, fee_type,
           dest_address, dest_bank_name, dest_payee_name, dest_payee_account)
         VALUES (@userId, @type, @drawCurrencyId, @drawMethodId, @amountMicro, @feeMicro,
           @net, @memo, @createdAt, @currencyCode, @currencyProtocol, @usdPrice, @drawRate, @feeType,
           @destAddress, @destBankName, @destPayeeName, @destPayeeAccount)`,
      )
      .run(d).lastInsertRowid,
  );
}

export interface DrawDecision {
  id: number;
  /** The status it moves to from `from`. */
  status: number;
  from: number;
  remark: string | null;
  decidedBy: string | null;
  decidedAt: number;
}

/** Decides a withdrawal still in status `from`; the number of rows changed (0 or 1). */
export function decideDraw(db: DB, d: DrawDecision): number {
  return db
    .prepare(
      `UPDATE draws SET status = @status, remark = @remark, decided_by = @decidedBy,
         decided_at = @decidedAt
       WHERE id = @id AND status = @from`,
    )
    .run(d).changes;
}

/**
 * A withdrawal as it was requested: currency, network, price, rate, fee type and destination from
 * its own row; only the currency's current bounds come from the catalogue.
 */
const RECORD_SQL = `SELECT d.*, c.type AS c_type,
  c.min_micro AS c_min_micro, c.max_micro AS c_max_micro
  FROM draws d JOIN draw_currencies c ON c.id = d.draw_currency_id`;

export type DrawRow = {
  id: number;
  user_id: number;
  type: number;
  draw_currency_id: number;
  draw_method_id: number;
  amount_micro: number;
  fee_micro: number;
  net: string;
  memo: string | null;
  status: number;
  remark: string | null;
  created_at: number;
  decided_at: number | null;
  c_type: number;
  c_min_micro: number;
  c_max_micro: number;
  currency_code: string;
  currency_protocol: string;
  usd_price: string;
  draw_rate: string;
  fee_type: number;
  dest_address: string | null;
  dest_bank_name: string | null;
  dest_payee_name: string | null;
  dest_payee_account: string | null;
};

export function drawById(db: DB, p: { id: number }): DrawRow | undefined {
  return db.prepare(`${RECORD_SQL} WHERE d.id = @id`).get(p) as DrawRow | undefined;
}

/** One page of a user's withdrawals of a type, newest first. */
export function drawsOfUser(
  db: DB,
  p: { userId: number; type: number; limit: number; offset: number },
): DrawRow[] {
  return db
    .prepare(
      `${RECORD_SQL} WHERE d.user_id = @userId AND d.type = @type
       ORDER BY d.id DESC LIMIT @limit OFFSET @offset`,
    )
    .all(p) as DrawRow[];
}

/** How many withdrawals of a type a user has. */
export function drawCountOfUser(db: DB, p: { userId: number; type: number }): number {
  return (
    db
      .prepare("SELECT COUNT(*) AS n FROM draws WHERE user_id = @userId AND type = @type")
      .get(p) as { n: number }
  ).n;
}
