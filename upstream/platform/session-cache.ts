/**
 * Live sessions this process has checked, by token hash, so that a signed-in request (an order
 * above all) needs no read of the store for its session: the token's user (the parts of the user
 * that never change), its hard expiry, its idle time and its last recorded use.
 *
 * What keeps it true:
 * - expiry and idle time are checked here at every use, as the store's query checks them;
 * - every revocation forgets the token on every node: this process's revocations at once (auth.ts,
 *   identity's revokeTokensExcept), and every node's through the push broker's revocation, which
 *   each node's websocket hub hears (ws/hub.ts dropTokenHash);
 * - an entry is read again from the store after MAX_AGE_MS whatever happens, which bounds what a
 *   change made outside the upstream (a repair by hand) can leave behind.
 * Nothing mutable of the user (contacts, balances) is kept: what needs it reads it (auth.ts
 * userRowLater).
 */
import { LRUCache } from "lru-cache";
import type { DB } from "./db.js";

/** An entry is read again from the store once it is this old (ms). */
export const MAX_AGE_MS = 60_000;
/** Sessions kept at most (least recently used go first). */
export const MAX_SESSIONS = 100_000;

/** The user as a session knows them: what never changes once the account exists. */
export interface SessionUser {
  id: number;
  uid: string;
  invite_code: string;
  is_demo: number;
  created_at: number;
}

export interface KnownSession {
  user: SessionUser;
  /** The token's hard end (ms). */
  expiresAt: number;
  /** How long the token may stay unused (ms). */
  idleMs: number;
  /** The token's last use as the store records it (ms; recorded at most once a minute). */
  usedAt: number;
  /** When this entry was read from the store (ms). */
  readAt: number;
}

export class SessionCache {
  private readonly byHash = new LRUCache<string, KnownSession>({ max: MAX_SESSIONS });

  /** The session of `hash` when it is known, fresh and live at `now`; else undefined. */
  live(hash: string, now: number): KnownSession | undefined {
    const s = this.byHash.get(hash);
    if (!s) return undefined;
    if (now - s.readAt >= MAX_AGE_MS || now >= s.expiresAt || now >= s.usedAt + s.idleMs) {
      this.byHash.delete(hash);
      return undefined;
    }
    return s;
  }

  remember(hash: string, s: KnownSession): void {
    this.byHash.set(hash, s);
  }

  forget(hash: string): void {
    this.byHash.delete(hash);
  }

  /** Forgets every session of a user (all of them revoked at once). */
  forgetUser(userId: number): void {
    for (const [hash, s] of this.byHash.entries())
      if (s.user.id === userId) this.byHash.delete(hash);
  }

  get size(): number {
    return this.byHash.size;
  }
}

const caches = new WeakMap<DB, SessionCache>();

/** The session cache of a store (one per opened store, so tests' stores never share one). */
export function sessionCacheOf(db: DB): SessionCache {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new SessionCache()));
  return c;
}
