/**
 * The `tokens` table (migrations 001, 008, 009): session tokens by their SHA-256 (`token_hash`),
 * with owner, creation, hard expiry, idle time (seconds), last use and revocation; and the signed-in
 * user a live token reads.
 */
import type { DB } from "./db.js";
import { getLater } from "./store/read-later.js";

/** A user as a session knows them: the users row's columns a request reads. */
export interface UserRow {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  area_id: number | null;
  invite_code: string;
  is_demo: number;
  balance_micro: number;
  lock_balance_micro: number;
  created_at: number;
}

/** The user row a live token signs in, with the token's last use (ms). */
export interface TokenUserRow extends UserRow {
  token_used_at: number;
}

const USER_OF_LIVE_TOKEN = `SELECT u.id, u.uid, u.email, u.mobile, u.area_id, u.invite_code, u.is_demo, u.balance_micro, u.lock_balance_micro, u.created_at, t.used_at AS token_used_at
       FROM tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = @tokenHash AND t.revoked_at IS NULL AND t.expires_at > @now AND t.used_at + t.idle_s * 1000 > @now`;

function prepare(db: DB) {
  return {
    insert: db.prepare(
      `INSERT INTO tokens (token_hash, user_id, created_at, expires_at, idle_s, used_at)
       VALUES (@tokenHash, @userId, @createdAt, @expiresAt, @idleS, @usedAt)`,
    ),
    revoke: db.prepare(
      "UPDATE tokens SET revoked_at = @revokedAt WHERE token_hash = @tokenHash AND revoked_at IS NULL",
    ),
    revokeAll: db.prepare(
      "UPDATE tokens SET revoked_at = @revokedAt WHERE user_id = @userId AND revoked_at IS NULL",
    ),
    userOf: db.prepare(USER_OF_LIVE_TOKEN),
    touch: db.prepare("UPDATE tokens SET used_at = @usedAt WHERE token_hash = @tokenHash"),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** Stores a new token (times in ms, idle time in seconds). */
export function insertToken(
  db: DB,
  t: {
    tokenHash: string;
    userId: number;
    createdAt: number;
    expiresAt: number;
    idleS: number;
    usedAt: number;
  },
): void {
  stmts(db).insert.run(t);
}

/** Revokes one token unless it is revoked already. */
export function revokeTokenHash(db: DB, q: { tokenHash: string; revokedAt: number }): void {
  stmts(db).revoke.run(q);
}

/** Revokes every token of a user that is not revoked already. */
export function revokeUserTokens(db: DB, q: { userId: number; revokedAt: number }): void {
  stmts(db).revokeAll.run(q);
}

/** The user of a token that at `now` is neither revoked, expired nor idle for too long. */
export function userOfLiveToken(
  db: DB,
  q: { tokenHash: string; now: number },
): TokenUserRow | undefined {
  return stmts(db).userOf.get(q) as TokenUserRow | undefined;
}

/** userOfLiveToken without holding the event loop (store/read-later.ts): what was committed. */
export async function userOfLiveTokenLater(
  db: DB,
  q: { tokenHash: string; now: number },
): Promise<TokenUserRow | undefined> {
  return (await getLater(db, USER_OF_LIVE_TOKEN, q)) as TokenUserRow | undefined;
}

/** Records a token's use. */
export function touchToken(db: DB, q: { tokenHash: string; usedAt: number }): void {
  stmts(db).touch.run(q);
}
