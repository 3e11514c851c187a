/** The operators' audit log (append-only): written in the same transaction as the action it records. */
import type { DB } from "../../platform/db.js";

export interface AuditEntry {
  actor: string;
  action: string;
  /** What was acted on: "charge:7", "draw:3", "user:12". */
  target: string;
  userId?: number | null;
  amountMicro?: number | null;
  balanceBeforeMicro?: number | null;
  balanceAfterMicro?: number | null;
  remark?: string | null;
  at?: number;
}

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

/** Appends a row; its id. */
export function writeAudit(db: DB, e: AuditEntry): number {
  const r = db
    .prepare(
      "INSERT INTO audit (actor, action, target, user_id, amount_micro, balance_before_micro, balance_after_micro, remark, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(
      e.actor,
      e.action,
      e.target,
      e.userId ?? null,
      e.amountMicro ?? null,
      e.balanceBeforeMicro ?? null,
      e.balanceAfterMicro ?? null,
      e.remark ?? null,
      e.at ?? Date.now(),
    );
  return Number(r.lastInsertRowid);
}

export function auditPage(
  db: DB,
  page: number,
  pageSize: number,
  actor?: string,
): { items: AuditRecord[]; total: number } {
  const where = actor === undefined ? "" : "WHERE actor = ?";
  const filter = actor === undefined ? [] : [actor];
  const rows = db
    .prepare(`SELECT * FROM audit ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(...filter, pageSize, (Math.max(1, page) - 1) * pageSize) as AuditRow[];
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM audit ${where}`).get(...filter) as { n: number }
  ).n;
  return { items: rows.map(toRecord), total };
}

/** One row by its id. */
export function auditRecord(db: DB, id: number): AuditRecord | null {
  const r = db.prepare("SELECT * FROM audit WHERE id = ?").get(id) as AuditRow | undefined;
  return r ? toRecord(r) : null;
}

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

function toRecord(r: AuditRow): AuditRecord {
  return {
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
  };
}
