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
  sessionOfLiveToken,
  sessionOfLiveTokenLater,
  touchTokenLater,
  userRowLater,
  type TokenSessionRow,
  type UserRow,
} from "../sessions-store.js";
import { sessionCacheOf, type SessionUser } from "../session-cache.js";
import { sha256Hex } from "../sha256.js";

export type { SessionUser } from "../session-cache.js";
export { userRowLater, type UserRow } from "../sessions-store.js";

/** The stored form of a token: its SHA-256, hex. */
export function tokenHash(token: string): string {
  return sha256Hex(token);
}

/** How stale a token's last use may be before a use records a new one (one write a minute at most). */
const USED_AT_RESOLUTION_MS = 60_000;

/** Where a sign-in came from: the client's address and User-Agent, when known. */
export interface SignInOrigin {
  ip: string | null;
  userAgent: string | null;
}

/** Issues a token that ends after `ttlSeconds`, or earlier when unused for `idleSeconds`. */
export function issueToken(
  db: DB,
  userId: number,
  ttlSeconds: number,
  idleSeconds: number,
  origin: SignInOrigin = { ip: null, userAgent: null },
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
    ip: origin.ip,
    userAgent: origin.userAgent,
  });
  return token;
}

export function revokeToken(db: DB, token: string): void {
  const hash = tokenHash(token);
  revokeTokenHash(db, { tokenHash: hash, revokedAt: Date.now() });
  sessionCacheOf(db).forget(hash);
}

export function revokeAllTokens(db: DB, userId: number): void {
  revokeUserTokens(db, { userId, revokedAt: Date.now() });
  sessionCacheOf(db).forgetUser(userId);
}

/**
 * The user a token belongs to, or null when it is unknown, revoked, expired, or unused for longer
 * than its idle time. A session checked before is answered from memory (platform/session-cache.ts);
 * a use records itself (at most once a minute per token).
 */
export function userForToken(db: DB, token: string | undefined | null): SessionUser | null {
  if (!token || !/^[0-9a-f]{32}$/.test(token)) return null;
  const now = Date.now();
  const hash = tokenHash(token);
  const known = sessionCacheOf(db).live(hash, now);
  if (known) return used(db, hash, now, known);
  return remembered(db, hash, now, sessionOfLiveToken(db, { tokenHash: hash, now }));
}

/** userForToken, a read it needs made without holding the event loop (a write once a minute). */
export async function userForTokenLater(
  db: DB,
  token: string | undefined | null,
): Promise<SessionUser | null> {
  if (!token || !/^[0-9a-f]{32}$/.test(token)) return null;
  const now = Date.now();
  const hash = tokenHash(token);
  const known = sessionCacheOf(db).live(hash, now);
  if (known) return used(db, hash, now, known);
  return remembered(db, hash, now, await sessionOfLiveTokenLater(db, { tokenHash: hash, now }));
}

/** Keeps a session read from the store, then records its use. */
function remembered(
  db: DB,
  hash: string,
  now: number,
  row: TokenSessionRow | undefined,
): SessionUser | null {
  if (!row) return null;
  const { token_used_at: usedAt, token_expires_at: expiresAt, token_idle_s: idleS, ...user } = row;
  const s = { user, expiresAt, idleMs: idleS * 1000, usedAt, readAt: now };
  sessionCacheOf(db).remember(hash, s);
  return used(db, hash, now, s);
}

/** Records a use of a live session when its recorded last use is a minute old or more. */
function used(
  db: DB,
  hash: string,
  now: number,
  s: { user: SessionUser; usedAt: number },
): SessionUser {
  if (now - s.usedAt >= USED_AT_RESOLUTION_MS) {
    // Bookkeeping nothing waits for: a write that fails leaves the recorded use a minute older at
    // most, and the next use a minute later records it again.
    void touchTokenLater(db, { tokenHash: hash, usedAt: now }).catch(() => undefined);
    s.usedAt = now;
  }
  return s.user;
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
const guarded = new WeakMap<FastifyRequest, SessionUser>();

/** The signed-in user of a request, or an DomainError with code 999. */
export function requireUser(db: DB, req: FastifyRequest): SessionUser {
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
export async function guardSession(db: DB, req: FastifyRequest): Promise<SessionUser> {
  const u = await userForTokenLater(db, tokenOf(req));
  if (!u) throw new DomainError("session_invalid", CODE_SESSION_INVALID);
  guarded.set(req, u);
  return u;
}

/**
 * The signed-in user's row as it is now (contacts, balances), read without holding the event loop:
 * for a handler that shows or checks what can change; requireUser's refusal when there is none.
 */
export async function requireUserRow(db: DB, req: FastifyRequest): Promise<UserRow> {
  const u = requireUser(db, req);
  const row = await userRowLater(db, u.id);
  if (!row) throw new DomainError("session_invalid", CODE_SESSION_INVALID);
  return row;
}
