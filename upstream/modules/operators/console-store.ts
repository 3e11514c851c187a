/**
 * What the operator console reads of other modules' tables (users, charges, draws) that those
 * modules do not answer themselves: the queues of deposits and withdrawals, the user behind each,
 * and the users operators look up. Read only: every change goes through the owning module.
 */
import type { DB } from "../../platform/db.js";

/** The user a deposit or a withdrawal belongs to, as the console names them. */
export interface UserRefRow {
  user_id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
}

/** A user as the console lists them (their money comes from the engine). */
export interface UserListRow {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  is_demo: number;
  created_at: number;
}

/** A deposit's every column with its user's reference, or undefined. */
export function chargeWithUser(
  db: DB,
  p: { id: number },
): (Record<string, unknown> & UserRefRow) | undefined {
  return db
    .prepare(
      "SELECT c.*, u.id AS user_id, u.uid, u.email, u.mobile FROM charges c JOIN users u ON u.id = c.user_id WHERE c.id = ?",
    )
    .get(p.id) as (Record<string, unknown> & UserRefRow) | undefined;
}

/** A withdrawal's user and who decided it, or undefined. */
export function drawUserAndDecider(
  db: DB,
  p: { id: number },
): (UserRefRow & { decided_by: string | null }) | undefined {
  return db
    .prepare(
      "SELECT u.id AS user_id, u.uid, u.email, u.mobile, d.decided_by FROM draws d JOIN users u ON u.id = d.user_id WHERE d.id = ?",
    )
    .get(p.id) as (UserRefRow & { decided_by: string | null }) | undefined;
}

/** A user as the console names them, or undefined. */
export function userRefById(db: DB, p: { userId: number }): UserRefRow | undefined {
  return db
    .prepare("SELECT id AS user_id, uid, email, mobile FROM users WHERE id = ?")
    .get(p.userId) as UserRefRow | undefined;
}

/** The ids of one status of a queue (deposits or withdrawals), oldest first; with their total. */
export function queueIds(
  db: DB,
  p: { queue: "charges" | "draws"; status: number; limit: number; offset: number },
): { ids: number[]; total: number } {
  const rows = db
    .prepare(`SELECT id FROM ${p.queue} WHERE status = ? ORDER BY id LIMIT ? OFFSET ?`)
    .all(p.status, p.limit, p.offset) as { id: number }[];
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM ${p.queue} WHERE status = ?`).get(p.status) as {
      n: number;
    }
  ).n;
  return { ids: rows.map((r) => r.id), total };
}

/** The id of the user with this uid, or null. */
export function userIdByUid(db: DB, p: { uid: string }): number | null {
  const r = db.prepare("SELECT id FROM users WHERE uid = ?").get(p.uid) as
    { id: number } | undefined;
  return r?.id ?? null;
}

/**
 * What a user id that is not a person's own account is: a copy's account (money moves only between
 * the copy and its owner) or a strategy trader's (funded once at its creation); null for a person.
 */
export function accountRoleOf(db: DB, userId: number): "copy" | "strategy" | null {
  const r = db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM copies WHERE account_id = @userId) AS copy,
              EXISTS (SELECT 1 FROM strategy_traders WHERE user_id = @userId) AS strategy`,
    )
    .get({ userId }) as { copy: number | boolean; strategy: number | boolean };
  return r.copy ? "copy" : r.strategy ? "strategy" : null;
}

const USER_COLS = "id, uid, email, mobile, is_demo, created_at";

/** Up to `limit` users whose uid, e-mail (any case) or mobile (its digits) is `q`, oldest first. */
export function usersMatching(
  db: DB,
  p: { q: string; mobileDigits: string; limit: number },
): UserListRow[] {
  return db
    .prepare(
      `SELECT ${USER_COLS} FROM users WHERE (uid = ? OR email = lower(?) OR mobile = ?) AND copy_owner_id IS NULL ORDER BY id LIMIT ?`,
    )
    .all(p.q, p.q, p.mobileDigits, p.limit) as UserListRow[];
}

/** The `limit` newest users (copies' accounts are not customers: they are reached through their copy). */
export function newestUsers(db: DB, p: { limit: number }): UserListRow[] {
  return db
    .prepare(`SELECT ${USER_COLS} FROM users WHERE copy_owner_id IS NULL ORDER BY id DESC LIMIT ?`)
    .all(p.limit) as UserListRow[];
}
