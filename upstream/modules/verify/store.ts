/**
 * The verification module's SQL: real_name_requests rows (one per submission, never overwritten),
 * and the few facts of other tables a submission and its review need (the account's demo flag and
 * contact, the owner of an uploaded picture).
 */
import type { DB } from "../../platform/db.js";

export interface RealNameRow {
  id: number;
  user_id: number;
  name: string;
  card_id: string;
  front_pic: string;
  reverse_pic: string;
  status: number;
  remark: string | null;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
}

/** The user's most recent request, or undefined. */
export function latestRequestOf(db: DB, userId: number): RealNameRow | undefined {
  return db
    .prepare("SELECT * FROM real_name_requests WHERE user_id = ? ORDER BY id DESC LIMIT 1")
    .get(userId) as RealNameRow | undefined;
}

export function requestById(db: DB, id: number): RealNameRow | undefined {
  return db.prepare("SELECT * FROM real_name_requests WHERE id = ?").get(id) as
    RealNameRow | undefined;
}

/** Stores a submission; its id. */
export function insertRequest(
  db: DB,
  r: {
    userId: number;
    name: string;
    cardId: string;
    frontPic: string;
    reversePic: string;
    status: number;
    createdAt: number;
  },
): number {
  return Number(
    db
      .prepare(
        "INSERT INTO real_name_requests (user_id, name, card_id, front_pic, reverse_pic, status, created_at) VALUES (@userId, @name, @cardId, @frontPic, @reversePic, @status, @createdAt)",
      )
      .run(r).lastInsertRowid,
  );
}

/** Moves a request from status `from` to `to` with its decision; the number of rows changed. */
export function decideRequest(
  db: DB,
  d: {
    id: number;
    from: number;
    to: number;
    remark: string | null;
    decidedAt: number;
    decidedBy: string;
  },
): number {
  return db
    .prepare(
      "UPDATE real_name_requests SET status = @to, remark = @remark, decided_at = @decidedAt, decided_by = @decidedBy WHERE id = @id AND status = @from",
    )
    .run(d).changes;
}

/** One page of the requests of a status, oldest first. */
export function requestsByStatus(
  db: DB,
  p: { status: number; limit: number; offset: number },
): RealNameRow[] {
  return db
    .prepare(
      "SELECT * FROM real_name_requests WHERE status = @status ORDER BY id LIMIT @limit OFFSET @offset",
    )
    .all(p) as RealNameRow[];
}

export function requestCountByStatus(db: DB, status: number): number {
  return (
    db.prepare("SELECT COUNT(*) AS n FROM real_name_requests WHERE status = ?").get(status) as {
      n: number;
    }
  ).n;
}

/** The account's demo flag, or undefined when there is no such account. */
export function userDemoFlag(db: DB, userId: number): { is_demo: number } | undefined {
  return db.prepare("SELECT is_demo FROM users WHERE id = ?").get(userId) as
    { is_demo: number } | undefined;
}

/** True when a verification request names the upload `name` (an identity document). */
export function isIdentityDocument(db: DB, name: string): boolean {
  return (
    db
      .prepare(
        "SELECT 1 AS x FROM real_name_requests WHERE front_pic = ? OR reverse_pic = ? LIMIT 1",
      )
      .get(name, name) !== undefined
  );
}

/** Who uploaded the picture stored under `name`, or undefined. */
export function uploadOwner(db: DB, name: string): { user_id: number } | undefined {
  return db.prepare("SELECT user_id FROM uploads WHERE name = ?").get(name) as
    { user_id: number } | undefined;
}

/** The account a request belongs to, as the operators' view shows it. */
export function requesterOf(
  db: DB,
  userId: number,
): { id: number; uid: string; email: string | null; mobile: string | null } {
  return db.prepare("SELECT id, uid, email, mobile FROM users WHERE id = ?").get(userId) as {
    id: number;
    uid: string;
    email: string | null;
    mobile: string | null;
  };
}
