/** The image captchas' SQL: captchas rows (the lower-cased answer, its expiry and use). */
import type { DB } from "../../platform/db.js";

export interface StoredCaptcha {
  answer: string;
  expires_at: number;
  used_at: number | null;
}

/** Drops the captchas that expired before `before`. */
export function deleteCaptchasExpiredBefore(db: DB, before: number): void {
  db.prepare("DELETE FROM captchas WHERE expires_at < ?").run(before);
}

export function insertCaptcha(
  db: DB,
  c: { id: string; answer: string; createdAt: number; expiresAt: number },
): void {
  db.prepare(
    "INSERT INTO captchas (id, answer, created_at, expires_at) VALUES (@id, @answer, @createdAt, @expiresAt)",
  ).run(c);
}

export function captchaById(db: DB, id: string): StoredCaptcha | undefined {
  return db.prepare("SELECT answer, expires_at, used_at FROM captchas WHERE id = ?").get(id) as
    StoredCaptcha | undefined;
}

export function markCaptchaUsed(db: DB, p: { id: string; usedAt: number }): void {
  db.prepare("UPDATE captchas SET used_at = @usedAt WHERE id = @id").run(p);
}

/** The answer of a captcha not yet used, or undefined. */
export function unusedCaptchaAnswer(db: DB, id: string): string | undefined {
  const row = db.prepare("SELECT answer FROM captchas WHERE id = ? AND used_at IS NULL").get(id) as
    { answer: string } | undefined;
  return row?.answer;
}
