/**
 * Verification codes: 6 digits, single use, valid 10 minutes, locked after 5 wrong tries, at most one
 * sent per recipient every 60 seconds. Only a salted HMAC of a code is stored (codes-store.ts).
 */
import crypto from "node:crypto";
import { CODE_DIGITS, CODE_RESEND_S } from "@contract/constants";
import type { DB } from "../../platform/db.js";
import * as store from "./codes-store.js";

export const CODE_TTL_MS = 10 * 60_000;
export const RESEND_MS = CODE_RESEND_S * 1000;
export const MAX_WRONG_TRIES = 5;

export type Channel = "email" | "sms";
/** 1 register, 2 reset or change password, 3 bind an e-mail to a signed-in account. */
export type Purpose = 1 | 2 | 3;
/** The purpose of a code that binds a new e-mail address to a signed-in account (never sent by send_email). */
export const BIND_EMAIL_PURPOSE = 3 satisfies Purpose;
export type CheckResult = "ok" | "missing" | "wrong" | "locked" | "expired";

/** The normalised recipient: a lower-cased e-mail, or "AREA_ID:DIGITS" for a mobile number. */
export function recipientKey(channel: Channel, address: string, areaId: number | null): string {
  return channel === "email" ? address.trim().toLowerCase() : `${areaId ?? 0}:${address}`;
}

function digest(salt: string, code: string): string {
  return crypto.createHmac("sha256", salt).update(code).digest("hex");
}

/**
 * Seconds the recipient must still wait before another code may be sent (0 = may send now), with
 * `resendMs` between two codes (CODE_RESEND_S, a minute unless the configuration lowers it).
 */
export function resendWaitSeconds(
  db: DB,
  recipient: string,
  now = Date.now(),
  resendMs = RESEND_MS,
): number {
  const t = store.latestCodeTime(db, recipient);
  if (t === null) return 0;
  const left = t + resendMs - now;
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export function generateCode(): string {
  return String(crypto.randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, "0");
}

/** Stores a new code for the recipient and returns it with its row id. */
export function createCode(
  db: DB,
  channel: Channel,
  recipient: string,
  purpose: Purpose,
  now = Date.now(),
): { id: number; code: string } {
  const code = generateCode();
  const salt = crypto.randomBytes(16).toString("hex");
  const id = store.insertCode(db, {
    channel,
    recipient,
    purpose,
    salt,
    codeHash: digest(salt, code),
    createdAt: now,
    expiresAt: now + CODE_TTL_MS,
  });
  return { id, code };
}

/** Removes a code whose message could not be delivered (so that the 60 s wait does not apply). */
export function discardCode(db: DB, id: number): void {
  store.deleteCode(db, id);
}

/**
 * Checks a code against the recipient's latest unused code of that purpose. A right code is marked
 * used; a wrong one counts a try. Run it inside the transaction that performs the guarded change,
 * and let that transaction commit even when the answer is not "ok" (so the try is counted).
 */
export function consumeCode(
  db: DB,
  recipient: string,
  purpose: Purpose,
  code: string,
  now = Date.now(),
): CheckResult {
  const row = store.latestUnusedCode(db, { recipient, purpose });
  if (!row) return "missing";
  if (row.attempts >= MAX_WRONG_TRIES) return "locked";
  if (row.expires_at <= now) return "expired";
  const given = Buffer.from(digest(row.salt, code.trim()), "hex");
  const want = Buffer.from(row.code_hash, "hex");
  if (/^\d{6}$/.test(code.trim()) && crypto.timingSafeEqual(given, want)) {
    store.markCodeUsed(db, { id: row.id, usedAt: now });
    return "ok";
  }
  const tries = row.attempts + 1;
  store.setCodeAttempts(db, { id: row.id, attempts: tries });
  return tries >= MAX_WRONG_TRIES ? "locked" : "wrong";
}

/** The message key answering a failed check. */
export function checkFailureKey(r: CheckResult): string {
  return r === "locked"
    ? "accounts.code_locked"
    : r === "expired"
      ? "accounts.code_expired"
      : "accounts.code_invalid";
}
