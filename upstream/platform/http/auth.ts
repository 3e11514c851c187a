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

export function issueToken(db: DB, userId: number, ttlSeconds: number): string {
  const token = crypto.randomBytes(16).toString("hex");
  const now = Date.now();
  db.prepare(
    "INSERT INTO tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
  ).run(tokenHash(token), userId, now, now + ttlSeconds * 1000);
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

/** The user a token belongs to, or null when it is unknown, revoked or expired. */
export function userForToken(db: DB, token: string | undefined | null): UserRow | null {
  if (!token || !/^[0-9a-f]{32}$/.test(token)) return null;
  const row = db
    .prepare(
      `SELECT u.id, u.uid, u.email, u.mobile, u.area_id, u.invite_code, u.is_demo, u.balance_micro, u.lock_balance_micro, u.created_at
       FROM tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ?`,
    )
    .get(tokenHash(token), Date.now()) as UserRow | undefined;
  return row ?? null;
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
