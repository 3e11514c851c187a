/** Four-eyes requests' SQL (table `operator_requests`); its CHECK refuses a self-decided request. */
import type { Permission } from "@contract/operators";
import type { RequestKind } from "@contract/api/admin";
import type { DB } from "../../platform/db.js";

export interface RequestRecord {
  id: number;
  kind: RequestKind;
  permission: Permission;
  target: string;
  payload: Record<string, unknown>;
  summary: string;
  /** The requesting operator's own words, or null. */
  note: string | null;
  status: number;
  requestedBy: string;
  requestedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  remark: string | null;
}

interface Row {
  id: number;
  kind: RequestKind;
  permission: Permission;
  target: string;
  payload: string;
  summary: string;
  note: string | null;
  status: number;
  requested_by: string;
  requested_at: number;
  decided_by: string | null;
  decided_at: number | null;
  remark: string | null;
}

const toRecord = (r: Row): RequestRecord => ({
  id: r.id,
  kind: r.kind,
  permission: r.permission,
  target: r.target,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  summary: r.summary,
  note: r.note,
  status: r.status,
  requestedBy: r.requested_by,
  requestedAt: r.requested_at,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at,
  remark: r.remark,
});

/** Files a request (its status the table's default, pending); its id. */
export function insertRequest(
  db: DB,
  p: {
    kind: RequestKind;
    permission: Permission;
    target: string;
    payload: Record<string, unknown>;
    summary: string;
    note: string | null;
    requestedBy: string;
    requestedAt: number;
  },
): number {
  const r = db
    .prepare(
      "INSERT INTO operator_requests (kind, permission, target, payload, summary, note, requested_by, requested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(
      p.kind,
      p.permission,
      p.target,
      JSON.stringify(p.payload),
      p.summary,
      p.note,
      p.requestedBy,
      p.requestedAt,
    );
  return Number(r.lastInsertRowid);
}

export function requestById(db: DB, p: { id: number }): RequestRecord | null {
  const r = db.prepare("SELECT * FROM operator_requests WHERE id = ?").get(p.id) as Row | undefined;
  return r ? toRecord(r) : null;
}

/** The requests of one status, newest first, `limit` of them after `offset`; with their total. */
export function requestRows(
  db: DB,
  p: { status: number; limit: number; offset: number },
): { items: RequestRecord[]; total: number } {
  const rows = db
    .prepare("SELECT * FROM operator_requests WHERE status = ? ORDER BY id DESC LIMIT ? OFFSET ?")
    .all(p.status, p.limit, p.offset) as Row[];
  const total = (
    db.prepare("SELECT COUNT(*) AS n FROM operator_requests WHERE status = ?").get(p.status) as {
      n: number;
    }
  ).n;
  return { items: rows.map(toRecord), total };
}

/** Records the decision on request `id` if it still has status `from`; false when it has not. */
export function markRequestDecided(
  db: DB,
  p: { id: number; from: number; status: number; decidedBy: string; at: number; remark: string },
): boolean {
  return (
    db
      .prepare(
        "UPDATE operator_requests SET status = ?, decided_by = ?, decided_at = ?, remark = ? WHERE id = ? AND status = ?",
      )
      .run(p.status, p.decidedBy, p.at, p.remark, p.id, p.from).changes === 1
  );
}
