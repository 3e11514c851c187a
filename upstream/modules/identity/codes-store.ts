/** The verification codes' SQL: verify_codes rows (a salted HMAC per code, its tries and use). */
import type { DB } from "../../platform/db.js";

export interface StoredCode {
  id: number;
  salt: string;
  code_hash: string;
  attempts: number;
  expires_at: number;
}

/** When the recipient's latest code was made, or null when it has none. */
export function latestCodeTime(db: DB, recipient: string): number | null {
  return (
    db
      .prepare("SELECT MAX(created_at) AS t FROM verify_codes WHERE recipient = ?")
      .get(recipient) as { t: number | null }
  ).t;
}

/** Stores a code's digest; its row id. */
export function insertCode(
  db: DB,
  c: {
    channel: string;
    recipient: string;
    purpose: number;
    salt: string;
    codeHash: string;
    createdAt: number;
    expiresAt: number;
  },
): number {
  return Number(
    db
      .prepare(
        "INSERT INTO verify_codes (channel, recipient, purpose, salt, code_hash, created_at, expires_at) VALUES (@channel, @recipient, @purpose, @salt, @codeHash, @createdAt, @expiresAt)",
      )
      .run(c).lastInsertRowid,
  );
}

export function deleteCode(db: DB, id: number): void {
  db.prepare("DELETE FROM verify_codes WHERE id = ?").run(id);
}

/** The recipient's latest unused code of a purpose, or undefined. */
export function latestUnusedCode(
  db: DB,
  p: { recipient: string; purpose: number },
): StoredCode | undefined {
  return db
    .prepare(
      "SELECT id, salt, code_hash, attempts, expires_at FROM verify_codes WHERE recipient = @recipient AND purpose = @purpose AND used_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .get(p) as StoredCode | undefined;
}

export function markCodeUsed(db: DB, p: { id: number; usedAt: number }): void {
  db.prepare("UPDATE verify_codes SET used_at = @usedAt WHERE id = @id").run(p);
}

export function setCodeAttempts(db: DB, p: { id: number; attempts: number }): void {
  db.prepare("UPDATE verify_codes SET attempts = @attempts WHERE id = @id").run(p);
}
