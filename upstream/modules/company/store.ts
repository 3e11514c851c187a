/**
 * The company module's SQL: the public reads of companies (the operators' list and changes go
 * through the money catalogue's editor, operators/catalog.ts) and the feedback inbox.
 */
import type * as api from "@contract/api/company";
import type { DB } from "../../platform/db.js";

export interface FeedbackRow {
  id: number;
  uid: string | null;
  message: string;
  contact: string;
  lang: string;
  handled: number;
  handled_by: string | null;
  handled_at: number | null;
  created_at: number;
}

/** The characters LIKE reads as wildcards, escaped. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Enabled companies whose name holds `name` (as typed, no wildcards, in any letter case), in display
 * order; at most 100. Both sides lowered: SQLite's LIKE ignores case, PostgreSQL's does not.
 */
export function enabledCompaniesNamed(db: DB, name: string): Record<string, string | number>[] {
  return db
    .prepare(
      "SELECT * FROM companies WHERE enabled = 1 AND lower(name) LIKE lower(?) ESCAPE '\\' ORDER BY sort, id LIMIT 100",
    )
    .all(`%${likeEscape(name)}%`) as Record<string, string | number>[];
}

export function companyStatus(db: DB, id: number): api.CompanyStatus | undefined {
  return db.prepare("SELECT status, type, loss_url FROM companies WHERE id = ?").get(id) as
    api.CompanyStatus | undefined;
}

/** Stores a feedback message; its id. */
export function insertFeedback(
  db: DB,
  f: { userId: number | null; message: string; contact: string; lang: string; createdAt: number },
): number {
  return Number(
    db
      .prepare(
        "INSERT INTO feedback (user_id, message, contact, lang, created_at) VALUES (@userId, @message, @contact, @lang, @createdAt)",
      )
      .run(f).lastInsertRowid,
  );
}

const FEEDBACK_SELECT =
  "SELECT f.id, u.uid, f.message, f.contact, f.lang, f.handled, f.handled_by, f.handled_at, f.created_at FROM feedback f LEFT JOIN users u ON u.id = f.user_id";

export function feedbackCount(db: DB): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM feedback").get() as { n: number }).n;
}

/** One page of the inbox, newest first. */
export function feedbackRows(db: DB, p: { limit: number; offset: number }): FeedbackRow[] {
  return db
    .prepare(`${FEEDBACK_SELECT} ORDER BY f.created_at DESC, f.id DESC LIMIT ? OFFSET ?`)
    .all(p.limit, p.offset) as FeedbackRow[];
}

export function feedbackById(db: DB, id: number): FeedbackRow {
  return db.prepare(`${FEEDBACK_SELECT} WHERE f.id = ?`).get(id) as FeedbackRow;
}

/** A message's handled flag, or undefined when there is no such message. */
export function feedbackHandled(db: DB, id: number): { handled: number } | undefined {
  return db.prepare("SELECT handled FROM feedback WHERE id = ?").get(id) as
    { handled: number } | undefined;
}

export function markFeedbackHandled(
  db: DB,
  p: { id: number; handledBy: string; handledAt: number },
): void {
  db.prepare(
    "UPDATE feedback SET handled = 1, handled_by = @handledBy, handled_at = @handledAt WHERE id = @id",
  ).run(p);
}
