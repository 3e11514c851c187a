/** The audit log's SQL (table `audit`, append-only): one insert, a page, one row. */
import type { DB } from "../../platform/db.js";

export interface AuditRecord {
  id: number;
  actor: string;
  action: string;
  target: string;
  userId: number | null;
  amountMicro: number | null;
  balanceBeforeMicro: number | null;
  balanceAfterMicro: number | null;
  remark: string | null;
  createdAt: number;
}

/** A row to append: every column given (null where it says nothing). */
export type NewAuditRow = Omit<AuditRecord, "id">;

interface AuditRow {
  id: number;
  actor: string;
  action: string;
  target: string;
  user_id: number | null;
  amount_micro: number | null;
  balance_before_micro: number | null;
  balance_after_micro: number | null;
  remark: string | null;
  created_at: number;
}

const toRecord = (r: AuditRow): AuditRecord => ({
  id: r.id,
  actor: r.actor,
  action: r.action,
  target: r.target,
  userId: r.user_id,
  amountMicro: r.amount_micro,
  balanceBeforeMicro: r.balance_before_micro,
  balanceAfterMicro: r.balance_after_micro,
  remark: r.remark,
  createdAt: r.created_at,
});

/** Appends a row; its id. */
export function insertAuditRow(db: DB, row: NewAuditRow): number {
  const r = db
    .prepare(
      "INSERT INTO audit (actor, action, target, user_id, amount_micro, balance_before_micro, balance_after_micro, remark, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(
      row.actor,
      row.action,
      row.target,
      row.userId,
      row.amountMicro,
      row.balanceBeforeMicro,
      row.balanceAfterMicro,
      row.remark,
      row.createdAt,
    );
  return Number(r.lastInsertRowid);
}

/** The newest rows first, `limit` of them after `offset`, of one actor or of all; with the total. */
export function auditRows(
  db: DB,
  p: { limit: number; offset: number; actor?: string },
): { items: AuditRecord[]; total: number } {
  const where = p.actor === undefined ? "" : "WHERE actor = ?";
  const filter = p.actor === undefined ? [] : [p.actor];
  const rows = db
    .prepare(`SELECT * FROM audit ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(...filter, p.limit, p.offset) as AuditRow[];
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM audit ${where}`).get(...filter) as { n: number }
  ).n;
  return { items: rows.map(toRecord), total };
}

export function auditRowById(db: DB, p: { id: number }): AuditRecord | null {
  const r = db.prepare("SELECT * FROM audit WHERE id = ?").get(p.id) as AuditRow | undefined;
  return r ? toRecord(r) : null;
}
