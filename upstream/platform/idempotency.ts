/**
 * Idempotency keys of the engine's commands, per user: the same key with the same request again
 * answers the first result; the same key with another request (another route, other parameters)
 * is refused with HTTP 422 and changes nothing. A key lives IDEMPOTENCY_TTL_MS: older keys count
 * as unused at once, and are deleted by the first key stored PURGE_EVERY_MS or more after the last
 * deletion (inside that command's transaction, so no writer runs beside the commands): a command
 * pays for the deletion about once a minute, not every time.
 */
import { createHash } from "node:crypto";
import type { DB } from "./db.js";
import { DomainError, CODE_FAIL } from "./errors.js";
import { findAnswer, insertAnswer, purgeAnswers } from "./idempotency-store.js";

/** How long a key answers its first result (24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** How often expired keys are deleted, at most (ms). */
export const PURGE_EVERY_MS = 60 * 1000;

/** A JSON text of `v` with object keys sorted, so equal requests give equal texts. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : x,
  );
}

/** The fingerprint of a command: its route and its parsed parameters. */
export function requestHash(route: string, params: unknown): string {
  return createHash("sha256")
    .update(route + "\n" + (canonical(params) ?? ""))
    .digest("hex");
}

export class Idempotency {
  /**
   * When expired keys were last deleted. A deletion rolled back with its command's transaction is
   * done again by a key stored PURGE_EVERY_MS later: an expired key answers nothing meanwhile.
   */
  private lastPurgeAt = -Infinity;

  constructor(
    private readonly db: DB,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The stored answer of `key` for this request (none without a key, or for an unused or expired
   * key); idempotency_key_reused (HTTP 422) when the key was used for another request.
   */
  lookup<T>(userId: number, key: string | null, route: string, params: unknown): T | undefined {
    if (!key) return undefined;
    const r = findAnswer(this.db, {
      userId,
      key,
      createdAfter: this.now() - IDEMPOTENCY_TTL_MS,
    });
    if (!r) return undefined;
    if (r.request_hash !== requestHash(route, params))
      throw new DomainError("idempotency_key_reused", CODE_FAIL, {}, 422);
    return JSON.parse(r.response) as T;
  }

  /**
   * Stores the answer of `key` (inside the command's transaction; nothing without a key), after
   * deleting every expired key when the last deletion is PURGE_EVERY_MS old.
   */
  store(userId: number, key: string | null, route: string, params: unknown, data: unknown): void {
    if (!key) return;
    const now = this.now();
    if (now - this.lastPurgeAt >= PURGE_EVERY_MS) {
      purgeAnswers(this.db, { createdUpTo: now - IDEMPOTENCY_TTL_MS });
      this.lastPurgeAt = now;
    }
    const stored = insertAnswer(this.db, {
      userId,
      key,
      route,
      requestHash: requestHash(route, params),
      response: JSON.stringify(data),
      createdAt: now,
      // An expired answer of the key not deleted yet is replaced.
      expiredUpTo: now - IDEMPOTENCY_TTL_MS,
    });
    // Invariant: a key is stored only after lookup found no live answer of it, in the same
    // transaction of the one writer.
    if (!stored) throw new Error(`idempotency: a live key was stored again (user ${userId})`);
  }
}
