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
  /** The four-eyes request whose approval carried the action out; null when one operator acted alone. */
  requestId: number | null;
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
  request_id: number | null;
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
  requestId: r.request_id,
});

/** Appends a row; its id. */
export function insertAuditRow(db: DB, row: NewAuditRow): number {
  const r = db
    .prepare(
      "INSERT INTO audit (actor, action, target, user_id, amount_micro, balance_before_micro, balance_after_micro, remark, created_at, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
      row.requestId,
    );
  return Number(r.lastInsertRowid);
}

/** The audit actions that move a user's money on an operator's word (money-controls.ts). */
export const MONEY_MOVES = ["charge.approve", "draw.approve", "adjustment"] as const;

/**
 * The money `actor` moved alone (no four-eyes request) since `from` (ms): deposits credited,
 * withdrawals paid and adjustments booked, each counted by its size (micro-USD).
 */
export function soloMovedMicro(db: DB, p: { actor: string; from: number }): number {
  const r = db
    .prepare(
      "SELECT COALESCE(SUM(ABS(amount_micro)), 0) AS n FROM audit WHERE actor = ? AND created_at >= ? AND action IN (?, ?, ?) AND request_id IS NULL",
    )
    .get(p.actor, p.from, ...MONEY_MOVES) as { n: number | string };
  return Number(r.n);
}

/** The adjustments booked on `userId` alone (no four-eyes request) since `from`, by size (micro-USD). */
export function soloAdjustedMicro(db: DB, p: { userId: number; from: number }): number {
  const r = db
    .prepare(
      "SELECT COALESCE(SUM(ABS(amount_micro)), 0) AS n FROM audit WHERE user_id = ? AND created_at >= ? AND action = 'adjustment' AND request_id IS NULL",
    )
    .get(p.userId, p.from) as { n: number | string };
  return Number(r.n);
}

/**
 * True when `actor` credited a deposit of `userId` or booked an adjustment for them since `from`:
 * alone, as a request's approver, or by filing the request another operator approved.
 */
export function putMoneyIn(db: DB, p: { actor: string; userId: number; from: number }): boolean {
  return !!db
    .prepare(
      "SELECT 1 AS x FROM audit a LEFT JOIN operator_requests r ON r.id = a.request_id WHERE a.user_id = ? AND a.created_at >= ? AND a.action IN ('charge.approve', 'adjustment') AND (a.actor = ? OR r.requested_by = ?) LIMIT 1",
    )
    .get(p.userId, p.from, p.actor, p.actor);
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
