/** Helpers shared by the actions of POST forms. */
import crypto from "node:crypto";
import { checkCsrf } from "./csrf.server";

/** Reads a posted form and checks its CSRF token (csrfError is a translated message, or null). */
export async function readForm(request: Request): Promise<{ formData: FormData; csrfError: string | null }> {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    formData = new FormData();
  }
  const csrfError = await checkCsrf(request, formData);
  return { formData, csrfError };
}

/** A fresh key for a money or order form, sent back by the form as `idempotency_key`. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** Seconds left before another verification code may be sent (60 s per recipient). */
export const CODE_RESEND_SECONDS = 60;

export function cooldownLeft(sentAt: number | undefined | null, now = Date.now(), total = CODE_RESEND_SECONDS): number {
  if (!sentAt || !Number.isFinite(sentAt)) return 0;
  const left = Math.ceil(total - (now - sentAt) / 1000);
  return left > 0 ? Math.min(left, total) : 0;
}
