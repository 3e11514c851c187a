/** The operators' audit log (append-only): written in the same transaction as the action it records. */
import type { DB } from "../../platform/db.js";
import { auditRowById, auditRows, insertAuditRow, type AuditRecord } from "./audit-store.js";

export type { AuditRecord } from "./audit-store.js";

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
  /** The four-eyes request whose approval carries the action out (null: one operator acted alone). */
  requestId?: number | null;
}

/** Appends a row (now, unless the entry says when); its id. */
export function writeAudit(db: DB, e: AuditEntry): number {
  return insertAuditRow(db, {
    actor: e.actor,
    action: e.action,
    target: e.target,
    userId: e.userId ?? null,
    amountMicro: e.amountMicro ?? null,
    balanceBeforeMicro: e.balanceBeforeMicro ?? null,
    balanceAfterMicro: e.balanceAfterMicro ?? null,
    remark: e.remark ?? null,
    createdAt: e.at ?? Date.now(),
    requestId: e.requestId ?? null,
  });
}

/** Page `page` (from 1; below counts as 1), newest first, of one actor's rows or of all. */
export function auditPage(
  db: DB,
  page: number,
  pageSize: number,
  actor?: string,
): { items: AuditRecord[]; total: number } {
  return auditRows(db, { limit: pageSize, offset: (Math.max(1, page) - 1) * pageSize, actor });
}

/** One row by its id. */
export function auditRecord(db: DB, id: number): AuditRecord | null {
  return auditRowById(db, { id });
}
