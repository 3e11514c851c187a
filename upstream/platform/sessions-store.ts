/**
 * The `tokens` table (migrations 001, 008, 009): session tokens by their SHA-256 (`token_hash`),
 * with owner, creation, hard expiry, idle time (seconds), last use, revocation and where it signed
 * in from (migration 035); the session a
 * live token reads, and a user's row.
 */
import type { DB } from "./db.js";
import { getLater, runLater } from "./store/read-later.js";
import type { SessionUser } from "./session-cache.js";

/** The users row's columns a request may read (contacts and balances as they are now). */
export interface UserRow extends SessionUser {
  email: string | null;
  mobile: string | null;
  area_id: number | null;
  balance_micro: number;
  lock_balance_micro: number;
}

/** A live token's user (what never changes of them) and the token's times (ms). */
export interface TokenSessionRow extends SessionUser {
  token_used_at: number;
  token_expires_at: number;
  token_idle_s: number;
}

const SESSION_OF_LIVE_TOKEN = `SELECT u.id, u.uid, u.invite_code, u.is_demo, u.created_at, t.used_at AS token_used_at, t.expires_at AS token_expires_at, t.idle_s AS token_idle_s
       FROM tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = @tokenHash AND t.revoked_at IS NULL AND t.expires_at > @now AND t.used_at + t.idle_s * 1000 > @now`;

const TOUCH = "UPDATE tokens SET used_at = @usedAt WHERE token_hash = @tokenHash";

const USER_ROW = `SELECT id, uid, email, mobile, area_id, invite_code, is_demo, balance_micro, lock_balance_micro, created_at
       FROM users WHERE id = ?`;

function prepare(db: DB) {
  return {
    insert: db.prepare(
      `INSERT INTO tokens (token_hash, user_id, created_at, expires_at, idle_s, used_at, ip, user_agent)
       VALUES (@tokenHash, @userId, @createdAt, @expiresAt, @idleS, @usedAt, @ip, @userAgent)`,
    ),
    revoke: db.prepare(
      "UPDATE tokens SET revoked_at = @revokedAt WHERE token_hash = @tokenHash AND revoked_at IS NULL",
    ),
    revokeAll: db.prepare(
      "UPDATE tokens SET revoked_at = @revokedAt WHERE user_id = @userId AND revoked_at IS NULL",
    ),
    sessionOf: db.prepare(SESSION_OF_LIVE_TOKEN),
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
    /** Where the session signed in from (the session list), when known. */
    ip: string | null;
    userAgent: string | null;
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

/** The session of a token that at `now` is neither revoked, expired nor idle for too long. */
export function sessionOfLiveToken(
  db: DB,
  q: { tokenHash: string; now: number },
): TokenSessionRow | undefined {
  return stmts(db).sessionOf.get(q) as TokenSessionRow | undefined;
}

/** sessionOfLiveToken without holding the event loop (store/read-later.ts): what was committed. */
export async function sessionOfLiveTokenLater(
  db: DB,
  q: { tokenHash: string; now: number },
): Promise<TokenSessionRow | undefined> {
  return (await getLater(db, SESSION_OF_LIVE_TOKEN, q)) as TokenSessionRow | undefined;
}

/** A user's row as it is now, read without holding the event loop; undefined for no such user. */
export async function userRowLater(db: DB, userId: number): Promise<UserRow | undefined> {
  return (await getLater(db, USER_ROW, userId)) as UserRow | undefined;
}

/**
 * Records a token's use without holding the event loop (store/read-later.ts: on PostgreSQL a
 * connection of the reads, outside any transaction; on SQLite at once).
 */
export async function touchTokenLater(
  db: DB,
  q: { tokenHash: string; usedAt: number },
): Promise<void> {
  await runLater(db, TOUCH, q);
}
