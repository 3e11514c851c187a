/** Idempotency keys of the engine's commands: the same key again answers the first result. */
import type { DB } from "./db.js";
import { DomainError } from "./errors.js";

export class Idempotency {
  private readonly getStmt;
  private readonly putStmt;

  constructor(db: DB) {
    this.getStmt = db.prepare(
      "SELECT route, response FROM idempotency WHERE user_id = ? AND key = ?",
    );
    this.putStmt = db.prepare(
      "INSERT INTO idempotency (user_id, key, route, response, created_at) VALUES (?, ?, ?, ?, ?)",
    );
  }

  /** The stored answer of `key` (none without a key); idempotency_conflict when it was used by another route. */
  lookup<T>(userId: number, key: string | null, route: string): T | undefined {
    if (!key) return undefined;
    const r = this.getStmt.get(userId, key) as { route: string; response: string } | undefined;
    if (!r) return undefined;
    if (r.route !== route) throw new DomainError("idempotency_conflict");
    return JSON.parse(r.response) as T;
  }

  /** Stores the answer of `key` (inside the command's transaction); nothing without a key. */
  store(userId: number, key: string | null, route: string, data: unknown): void {
    if (key) this.putStmt.run(userId, key, route, JSON.stringify(data), Date.now());
  }
}
