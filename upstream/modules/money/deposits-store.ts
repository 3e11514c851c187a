/**
 * The deposits' SQL (deposits.ts): the enabled coin channels and wire accounts, the charges and
 * their proofs. Rows come back as stored (snake_case); the service maps them.
 */
import type { DB } from "../../platform/db.js";

export type ChannelRow = {
  id: number;
  currency_code: string;
  protocol_code: string;
  address: string;
  usd_price: string;
};

export type WireRow = {
  id: number;
  bank_coin: string;
  bank_name: string;
  bank_address: string;
  bank_swift: string;
  payee_name: string;
  payee_account: string;
  bank_remark: string;
};

export type ChargeRow = {
  id: number;
  user_id: number;
  type: number;
  currency_code: string;
  amount_micro: number;
  credited_micro: number | null;
  address: string | null;
  proof: string;
  status: number;
  remark: string | null;
  created_at: number;
  decided_at: number | null;
};

/** Coin deposit channels open to users, in display order. */
export function enabledChannels(db: DB): ChannelRow[] {
  return db
    .prepare("SELECT * FROM charge_channels WHERE enabled = 1 ORDER BY sort, id")
    .all() as ChannelRow[];
}

/** Wire accounts open to users, of one currency when `bankCoin` is given, in display order. */
export function enabledWireAccounts(db: DB, p: { bankCoin?: string } = {}): WireRow[] {
  if (p.bankCoin)
    return db
      .prepare(
        "SELECT * FROM wire_accounts WHERE enabled = 1 AND bank_coin = @bankCoin ORDER BY sort, id",
      )
      .all({ bankCoin: p.bankCoin }) as WireRow[];
  return db
    .prepare("SELECT * FROM wire_accounts WHERE enabled = 1 ORDER BY sort, id")
    .all() as WireRow[];
}

/** Who uploaded the file of that name, or undefined when there is none. */
export function uploadOwner(db: DB, p: { name: string }): number | undefined {
  return (
    db.prepare("SELECT user_id FROM uploads WHERE name = @name").get(p) as
      { user_id: number } | undefined
  )?.user_id;
}

/** Whether an upload is already the proof of a deposit. */
export function proofInUse(db: DB, p: { proof: string }): boolean {
  return db.prepare("SELECT 1 FROM charges WHERE proof = @proof LIMIT 1").get(p) !== undefined;
}

export interface ChargeInsert {
  userId: number;
  type: number;
  channelId: number | null;
  wireId: number | null;
  currencyCode: string;
  amountMicro: number;
  address: string | null;
  proof: string;
  createdAt: number;
}

/** Records a deposit under review; its id. */
export function insertCharge(db: DB, c: ChargeInsert): number {
  return Number(
    db
      .prepare(
        `INSERT INTO charges (user_id, type, channel_id, wire_id, currency_code, amount_micro, address, proof, created_at)
         VALUES (@userId, @type, @channelId, @wireId, @currencyCode, @amountMicro, @address, @proof, @createdAt)`,
      )
      .run(c).lastInsertRowid,
  );
}

export interface ChargeDecision {
  id: number;
  /** The status it moves to from `from`. */
  status: number;
  from: number;
  remark: string | null;
  decidedBy: string;
  decidedAt: number;
  creditedMicro: number | null;
}

/** Decides a deposit still in status `from`; the number of rows changed (0 or 1). */
export function decideCharge(db: DB, d: ChargeDecision): number {
  return db
    .prepare(
      `UPDATE charges SET status = @status, remark = @remark, decided_by = @decidedBy,
         decided_at = @decidedAt, credited_micro = @creditedMicro
       WHERE id = @id AND status = @from`,
    )
    .run(d).changes;
}

export function chargeById(db: DB, p: { id: number }): ChargeRow | undefined {
  return db.prepare("SELECT * FROM charges WHERE id = @id").get(p) as ChargeRow | undefined;
}

/** One page of a user's deposits of a type, newest first. */
export function chargesOfUser(
  db: DB,
  p: { userId: number; type: number; limit: number; offset: number },
): ChargeRow[] {
  return db
    .prepare(
      `SELECT * FROM charges WHERE user_id = @userId AND type = @type
       ORDER BY id DESC LIMIT @limit OFFSET @offset`,
    )
    .all(p) as ChargeRow[];
}

/** How many deposits of a type a user has. */
export function chargeCountOfUser(db: DB, p: { userId: number; type: number }): number {
  return (
    db
      .prepare("SELECT COUNT(*) AS n FROM charges WHERE user_id = @userId AND type = @type")
      .get(p) as { n: number }
  ).n;
}
