/**
 * Idempotency keys of the engine's commands, per user: the same key with the same request again
 * answers the first result; the same key with another request (another route, other parameters)
 * is refused with HTTP 422 and changes nothing. A key lives IDEMPOTENCY_TTL_MS: older keys count
 * as unused and are deleted whenever a key is stored.
 */
import { createHash } from "node:crypto";
import type { DB } from "./db.js";
import { DomainError, CODE_FAIL } from "./errors.js";
import { findAnswer, insertAnswer, purgeAnswers } from "./idempotency-store.js";

/** How long a key answers its first result (24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

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
   * deleting every expired key.
   */
  store(userId: number, key: string | null, route: string, params: unknown, data: unknown): void {
    if (!key) return;
    const now = this.now();
    purgeAnswers(this.db, { createdUpTo: now - IDEMPOTENCY_TTL_MS });
    insertAnswer(this.db, {
      userId,
      key,
      route,
      requestHash: requestHash(route, params),
      response: JSON.stringify(data),
      createdAt: now,
    });
  }
}
