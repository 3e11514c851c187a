/**
 * Session tokens: 128-bit random, revocable, expiring. An invalid token answers code 999. The store
 * keeps only each token's SHA-256 (`token_hash`), so a copy of the database signs nobody in.
 */
import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { DB } from "../db.js";
import { DomainError, CODE_SESSION_INVALID } from "../errors.js";
import {
  insertToken,
  revokeTokenHash,
  revokeUserTokens,
  touchToken,
  userOfLiveToken,
  userOfLiveTokenLater,
  type TokenUserRow,
  type UserRow,
} from "../sessions-store.js";

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
  insertToken(db, {
    tokenHash: tokenHash(token),
    userId,
    createdAt: now,
    expiresAt: now + ttlSeconds * 1000,
    idleS: idleSeconds,
    usedAt: now,
  });
  return token;
}

export function revokeToken(db: DB, token: string): void {
  revokeTokenHash(db, { tokenHash: tokenHash(token), revokedAt: Date.now() });
}

export function revokeAllTokens(db: DB, userId: number): void {
  revokeUserTokens(db, { userId, revokedAt: Date.now() });
}

/**
 * The user a token belongs to, or null when it is unknown, revoked, expired, or unused for longer
 * than its idle time. A use records itself (at most once a minute per token).
 */
export function userForToken(db: DB, token: string | undefined | null): UserRow | null {
  if (!token || !/^[0-9a-f]{32}$/.test(token)) return null;
  const now = Date.now();
  const hash = tokenHash(token);
  return liveUser(db, hash, now, userOfLiveToken(db, { tokenHash: hash, now }));
}

/** userForToken, its read made without holding the event loop (a write only once a minute). */
export async function userForTokenLater(
  db: DB,
  token: string | undefined | null,
): Promise<UserRow | null> {
  if (!token || !/^[0-9a-f]{32}$/.test(token)) return null;
  const now = Date.now();
  const hash = tokenHash(token);
  return liveUser(db, hash, now, await userOfLiveTokenLater(db, { tokenHash: hash, now }));
}

function liveUser(
  db: DB,
  hash: string,
  now: number,
  row: TokenUserRow | undefined,
): UserRow | null {
  if (!row) return null;
  const { token_used_at: usedAt, ...user } = row;
  if (now - usedAt >= USED_AT_RESOLUTION_MS) {
    touchToken(db, { tokenHash: hash, usedAt: now });
  }
  return user;
}

/** Reads the token from the `authorization` header (bare token or "Bearer TOKEN"). */
export function tokenOf(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  return h.startsWith("Bearer ") ? h.slice(7).trim() : h.trim();
}

/**
 * The user the session guard read for a request (guardSession), handed to the handler's first
 * requireUser instead of a second read of the same row. Taken once: a later call in the handler
 * reads the row as it is then.
 */
const guarded = new WeakMap<FastifyRequest, UserRow>();

/** The signed-in user of a request, or an DomainError with code 999. */
export function requireUser(db: DB, req: FastifyRequest): UserRow {
  const g = guarded.get(req);
  if (g) {
    guarded.delete(req);
    return g;
  }
  const u = userForToken(db, tokenOf(req));
  if (!u) throw new DomainError("session_invalid", CODE_SESSION_INVALID);
  return u;
}

/**
 * The session check of an endpoint that declares one (before its handler, platform/http/route.ts):
 * requireUser's check, read without holding the event loop (what was committed), whose row the
 * handler's first requireUser then reuses.
 */
export async function guardSession(db: DB, req: FastifyRequest): Promise<UserRow> {
  const u = await userForTokenLater(db, tokenOf(req));
  if (!u) throw new DomainError("session_invalid", CODE_SESSION_INVALID);
  guarded.set(req, u);
  return u;
}
