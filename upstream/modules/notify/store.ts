/** The `notifications` table (migration 036): one row per notice, unread while read_at is NULL. */
import type { DB } from "../../platform/db.js";
import { getLater } from "../../platform/store/read-later.js";

const UNREAD = "SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND read_at IS NULL";

export interface NoticeRow {
  id: number;
  kind: string;
  params: string;
  created_at: number;
  read_at: number | null;
}

function prepare(db: DB) {
  return {
    insert: db.prepare(
      `INSERT INTO notifications (user_id, kind, params, created_at) VALUES (@userId, @kind, @params, @at)`,
    ),
    page: db.prepare(
      `SELECT id, kind, params, created_at, read_at FROM notifications WHERE user_id = @userId
       ORDER BY id DESC LIMIT @limit OFFSET @offset`,
    ),
    total: db.prepare("SELECT COUNT(*) AS n FROM notifications WHERE user_id = ?"),
    unread: db.prepare(UNREAD),
    readAll: db.prepare(
      "UPDATE notifications SET read_at = @at WHERE user_id = @userId AND read_at IS NULL",
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** Writes a notice; its id. */
export function insertNotice(
  db: DB,
  n: { userId: number; kind: string; params: string; at: number },
): number {
  return Number(stmts(db).insert.run(n).lastInsertRowid);
}

export function noticePage(
  db: DB,
  q: { userId: number; limit: number; offset: number },
): NoticeRow[] {
  return stmts(db).page.all(q) as NoticeRow[];
}

export function noticeTotal(db: DB, userId: number): number {
  return Number((stmts(db).total.get(userId) as { n: number }).n);
}

export function unreadNotices(db: DB, userId: number): number {
  return Number((stmts(db).unread.get(userId) as { n: number }).n);
}

export function markNoticesRead(db: DB, q: { userId: number; at: number }): void {
  stmts(db).readAll.run(q);
}

/** A user's unread count as committed, read without holding the event loop. */
export async function unreadNoticesLater(db: DB, userId: number): Promise<number> {
  const r = (await getLater(db, UNREAD, userId)) as { n: number } | undefined;
  return Number(r?.n ?? 0);
}
