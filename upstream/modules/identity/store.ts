/**
 * The identity module's SQL: users and their identities, fresh uid and invite codes, dialling
 * areas, tokens. Verification codes and captchas have their own stores (codes-store.ts,
 * captcha-store.ts).
 */
import { tokenHash } from "../../platform/http/auth.js";
import crypto from "node:crypto";
import type { DB } from "../../platform/db.js";
import { sessionCacheOf } from "../../platform/session-cache.js";

export interface UserRecord {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  area_id: number | null;
  password_hash: string | null;
  invite_code: string;
  is_demo: number;
  demo_id: string | null;
  balance_micro: number;
  lock_balance_micro: number;
}

const COLS =
  "id, uid, email, mobile, area_id, password_hash, invite_code, is_demo, demo_id, balance_micro, lock_balance_micro";

export function userByEmail(db: DB, email: string): UserRecord | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE email = ?`).get(email) as
    UserRecord | undefined;
}

/** By mobile number; with no area, only when exactly one area has that number. */
export function userByMobile(
  db: DB,
  mobile: string,
  areaId: number | null,
): UserRecord | undefined {
  if (areaId !== null)
    return db
      .prepare(`SELECT ${COLS} FROM users WHERE area_id = ? AND mobile = ?`)
      .get(areaId, mobile) as UserRecord | undefined;
  const rows = db
    .prepare(`SELECT ${COLS} FROM users WHERE mobile = ? LIMIT 2`)
    .all(mobile) as UserRecord[];
  return rows.length === 1 ? rows[0] : undefined;
}

export function userById(db: DB, id: number): UserRecord | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE id = ?`).get(id) as UserRecord | undefined;
}

export function userByDemoId(db: DB, demoId: string): UserRecord | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE demo_id = ? AND is_demo = 1`).get(demoId) as
    UserRecord | undefined;
}

export function userByInviteCode(db: DB, code: string): UserRecord | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE invite_code = ?`).get(code.toUpperCase()) as
    UserRecord | undefined;
}

/** A fresh 8-digit numeric uid (no leading zero) not yet taken. */
export function newUid(db: DB): string {
  for (;;) {
    const uid = String(crypto.randomInt(10_000_000, 100_000_000));
    if (!db.prepare("SELECT 1 FROM users WHERE uid = ?").get(uid)) return uid;
  }
}

const INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A fresh 6-character invite code (upper-case letters and digits, no look-alikes) not yet taken. */
export function newInviteCode(db: DB): string {
  for (;;) {
    let c = "";
    for (let i = 0; i < 6; i++) c += INVITE_ALPHABET[crypto.randomInt(INVITE_ALPHABET.length)];
    if (!db.prepare("SELECT 1 FROM users WHERE invite_code = ?").get(c)) return c;
  }
}

/** The enabled dialling areas, ordered for display. */
export function areaList(db: DB): { id: number; code: string; global_code: string }[] {
  return db
    .prepare("SELECT id, code, global_code FROM areas WHERE enabled = 1 ORDER BY sort, id")
    .all() as { id: number; code: string; global_code: string }[];
}

/** An enabled dialling area by its id, or null. */
export function areaById(db: DB, id: number): { id: number; global_code: string } | null {
  const row = db
    .prepare("SELECT id, global_code FROM areas WHERE id = ? AND enabled = 1")
    .get(id) as { id: number; global_code: string } | undefined;
  return row ?? null;
}

/** Creates a real user; returns its id. */
export function insertUser(
  db: DB,
  u: {
    email: string | null;
    mobile: string | null;
    areaId: number | null;
    passwordHash: string;
    invitedBy: number | null;
  },
): number {
  const r = db
    .prepare(
      "INSERT INTO users (uid, email, mobile, area_id, password_hash, invite_code, invited_by, is_demo, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)",
    )
    .run(
      newUid(db),
      u.email,
      u.mobile,
      u.areaId,
      u.passwordHash,
      newInviteCode(db),
      u.invitedBy,
      Date.now(),
    );
  return Number(r.lastInsertRowid);
}

/** Creates a demo user reached by `demoId`; returns its id. */
export function insertDemoUser(db: DB, demoId: string): number {
  const r = db
    .prepare(
      "INSERT INTO users (uid, invite_code, is_demo, demo_id, created_at) VALUES (?, ?, 1, ?, ?)",
    )
    .run(newUid(db), newInviteCode(db), demoId, Date.now());
  return Number(r.lastInsertRowid);
}

export function setPasswordHash(db: DB, userId: number, hash: string): void {
  db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").run(hash, userId);
}

/** Revokes every live token of a user except `keep`; returns the hashes of the revoked tokens. */
export function revokeTokensExcept(db: DB, userId: number, keep: string | null): string[] {
  const rows = db
    .prepare(
      // IS DISTINCT FROM: SQLite's `IS NOT` (true against NULL) in the form PostgreSQL reads too.
      "SELECT token_hash FROM tokens WHERE user_id = ? AND revoked_at IS NULL AND token_hash IS DISTINCT FROM ?",
    )
    .all(userId, keep === null ? null : tokenHash(keep)) as { token_hash: string }[];
  const now = Date.now();
  const upd = db.prepare("UPDATE tokens SET revoked_at = ? WHERE token_hash = ?");
  const sessions = sessionCacheOf(db);
  for (const r of rows) {
    upd.run(now, r.token_hash);
    sessions.forget(r.token_hash);
  }
  return rows.map((r) => r.token_hash);
}

/** A dialling area by id, enabled or not (an account keeps the area it registered with). */
export function areaOf(db: DB, id: number): { id: number; global_code: string } | undefined {
  return db.prepare("SELECT id, global_code FROM areas WHERE id = ?").get(id) as
    { id: number; global_code: string } | undefined;
}

/** Sets the user's e-mail when it has none; false when it already had one. */
export function setEmailIfNone(db: DB, userId: number, email: string): boolean {
  return (
    db.prepare("UPDATE users SET email = ? WHERE id = ? AND email IS NULL").run(email, userId)
      .changes === 1
  );
}

/** Real accounts registered with the user's invite code. */
export function invitedCount(db: DB, userId: number): number {
  const row = db
    .prepare("SELECT COUNT(*) AS n FROM users WHERE invited_by = ? AND is_demo = 0")
    .get(userId) as { n: number };
  return row.n;
}
