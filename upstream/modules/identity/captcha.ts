/**
 * Image captchas made by svg-captcha: single use, valid 5 minutes, answer case-insensitive. Their
 * rows are kept by captcha-store.ts.
 */
import crypto from "node:crypto";
import svgCaptcha from "svg-captcha";
import type { DB } from "../../platform/db.js";
import * as store from "./captcha-store.js";

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
  store.deleteCaptchasExpiredBefore(db, now - CAPTCHA_TTL_MS);
  store.insertCaptcha(db, {
    id,
    answer: c.text.toLowerCase(),
    createdAt: now,
    expiresAt: now + CAPTCHA_TTL_MS,
  });
  return {
    id,
    b64s: "data:image/svg+xml;base64," + Buffer.from(c.data, "utf8").toString("base64"),
  };
}

/** True when the answer is right; the captcha is used up by any check, right or wrong. */
export function checkCaptcha(db: DB, id: string, answer: string, now = Date.now()): boolean {
  const row = store.captchaById(db, id);
  if (!row || row.used_at !== null) return false;
  store.markCaptchaUsed(db, { id, usedAt: now });
  return row.expires_at > now && row.answer === answer.trim().toLowerCase();
}

/** The answer of a live captcha (only for GET /dev/captcha while DEV_OUTBOX is on). */
export function captchaAnswer(db: DB, id: string): string | null {
  return store.unusedCaptchaAnswer(db, id) ?? null;
}
