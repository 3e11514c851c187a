/** Image captchas made by svg-captcha: single use, valid 5 minutes, answer case-insensitive. */
import crypto from "node:crypto";
import svgCaptcha from "svg-captcha";
import type { DB } from "../../platform/db.js";

export const CAPTCHA_TTL_MS = 5 * 60_000;

export function createCaptcha(db: DB, now = Date.now()): { id: string; b64s: string } {
  const c = svgCaptcha.create({
    size: 4,
    noise: 2,
    ignoreChars: "0oO1iIlL",
    width: 120,
    height: 40,
    background: "#ffffff",
  });
  const id = crypto.randomBytes(16).toString("hex");
  db.prepare("DELETE FROM captchas WHERE expires_at < ?").run(now - CAPTCHA_TTL_MS);
  db.prepare("INSERT INTO captchas (id, answer, created_at, expires_at) VALUES (?, ?, ?, ?)").run(
    id,
    c.text.toLowerCase(),
    now,
    now + CAPTCHA_TTL_MS,
  );
  return {
    id,
    b64s: "data:image/svg+xml;base64," + Buffer.from(c.data, "utf8").toString("base64"),
  };
}

/** True when the answer is right; the captcha is used up by any check, right or wrong. */
export function checkCaptcha(db: DB, id: string, answer: string, now = Date.now()): boolean {
  const row = db
    .prepare("SELECT answer, expires_at, used_at FROM captchas WHERE id = ?")
    .get(id) as { answer: string; expires_at: number; used_at: number | null } | undefined;
  if (!row || row.used_at !== null) return false;
  db.prepare("UPDATE captchas SET used_at = ? WHERE id = ?").run(now, id);
  return row.expires_at > now && row.answer === answer.trim().toLowerCase();
}

/** The answer of a live captcha (only for GET /dev/captcha while DEV_OUTBOX is on). */
export function captchaAnswer(db: DB, id: string): string | null {
  const row = db.prepare("SELECT answer FROM captchas WHERE id = ? AND used_at IS NULL").get(id) as
    { answer: string } | undefined;
  return row?.answer ?? null;
}
