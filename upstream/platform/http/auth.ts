/**
 * Session tokens: 128-bit random, revocable, expiring. An invalid token answers code 999. The store
 * keeps only each token's SHA-256 (`token_hash`), so a copy of the database signs nobody in.
 */
import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { DB } from "../db.js";
import { DomainError, CODE_SESSION_INVALID } from "../errors.js";

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

/** The stored form of a token: its SHA-256, hex. */
export function tokenHash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** How stale a token's last use may be before a use records a new one (one write a minute at most). */
const USED_AT_RESOLUTION_MS = 60_000;

/** Issues a token that ends after `ttlSeconds`, or earlier when unused for `idleSeconds`. */
export function issueToken(
  db: DB,
  userId: number,
  ttlSeconds: number,
  idleSeconds: number,
): string {
  const token = crypto.randomBytes(16).toString("hex");
  const now = Date.now();
  db.prepare(
    "INSERT INTO tokens (token_hash, user_id, created_at, expires_at, idle_s, used_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(tokenHash(token), userId, now, now + ttlSeconds * 1000, idleSeconds, now);
  return token;
}

export function revokeToken(db: DB, token: string): void {
  db.prepare("UPDATE tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL").run(
    Date.now(),
    tokenHash(token),
  );
}

export function revokeAllTokens(db: DB, userId: number): void {
  db.prepare("UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").run(
    Date.now(),
    userId,
  );
}

/**
 * The user a token belongs to, or null when it is unknown, revoked, expired, or unused for longer
 * than its idle time. A use records itself (at most once a minute per token).
 */
export function userForToken(db: DB, token: string | undefined | null): UserRow | null {
  if (!token || !/^[0-9a-f]{32}$/.test(token)) return null;
  const now = Date.now();
  const hash = tokenHash(token);
  const row = db
    .prepare(
      `SELECT u.id, u.uid, u.email, u.mobile, u.area_id, u.invite_code, u.is_demo, u.balance_micro, u.lock_balance_micro, u.created_at, t.used_at AS token_used_at
       FROM tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND t.used_at + t.idle_s * 1000 > ?`,
    )
    .get(hash, now, now) as (UserRow & { token_used_at: number }) | undefined;
  if (!row) return null;
  const { token_used_at: usedAt, ...user } = row;
  if (now - usedAt >= USED_AT_RESOLUTION_MS) {
    db.prepare("UPDATE tokens SET used_at = ? WHERE token_hash = ?").run(now, hash);
  }
  return user;
}

/** Reads the token from the `authorization` header (bare token or "Bearer TOKEN"). */
export function tokenOf(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  return h.startsWith("Bearer ") ? h.slice(7).trim() : h.trim();
}

/** The signed-in user of a request, or an DomainError with code 999. */
export function requireUser(db: DB, req: FastifyRequest): UserRow {
  const u = userForToken(db, tokenOf(req));
  if (!u) throw new DomainError("session_invalid", CODE_SESSION_INVALID);
  return u;
}
