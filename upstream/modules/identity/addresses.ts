/**
 * The addresses an account is known by: an e-mail address (compared in lower case) and a mobile
 * number (its digits). The identity service reads the request's trimmed text with these.
 */
import { z } from "zod";

export function normaliseEmail(v: string): string {
  return v.trim().toLowerCase();
}

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

export function isEmail(v: string): boolean {
  return v.length <= 254 && EMAIL_RE.test(v) && z.string().email().safeParse(v).success;
}

/** Digits of a mobile number (spaces, dashes, dots and brackets removed), or null when invalid. */
export function normaliseMobile(v: string): string | null {
  const d = v.replace(/[\s\-().]/g, "");
  return /^\d{5,15}$/.test(d) ? d : null;
}
