/**
 * Input validation for the account and settings areas: zod schemas over the flat string fields of
 * a form, JSON body or query. A failure becomes an DomainError whose key is translated by the error
 * handler: a missing field answers "Please complete: FIELD" (common key invalid_input), a refinement
 * answers its own message key (accounts.*).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyRequest } from "fastify";
import { z, type ZodTypeAny } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "@contract/constants";
import { DomainError } from "../errors.js";

/** The request's fields as strings: query for GET, body (form or JSON) over query for POST. */
export function fieldsOf(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (src: unknown) => {
    if (!src || typeof src !== "object" || Array.isArray(src)) return;
    for (const [k, v] of Object.entries(src as Record<string, unknown>)) {
      const one = Array.isArray(v) ? v[0] : v;
      if (one === undefined || one === null) continue;
      if (typeof one === "string" || typeof one === "number" || typeof one === "boolean")
        out[k] = String(one);
    }
  };
  add(req.query);
  if (req.method !== "GET") add(req.body);
  return out;
}

/** A required text field: trimmed, must not be empty. */
export const required = () =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.string({ required_error: "@missing" }).min(1, "@missing"),
  );

/** An optional text field: trimmed; empty becomes undefined. */
export const optional = () =>
  z.preprocess((v) => {
    if (typeof v !== "string") return v;
    const t = v.trim();
    return t === "" ? undefined : t;
  }, z.string().optional());

/** A new password field: not trimmed (spaces are legal), PASSWORD_MIN to PASSWORD_MAX characters, not a common password. */
export const password = () =>
  z
    .string({ required_error: "@missing" })
    .min(1, "@missing")
    .refine(
      (v) => [...v].length >= PASSWORD_MIN && [...v].length <= PASSWORD_MAX,
      "accounts.password_length",
    )
    .refine((v) => !isCommonPassword(v), "accounts.password_common");

let common: Set<string> | null = null;

/** Whether `pw` is on the list of common passwords (common-passwords.txt), ignoring case. */
export function isCommonPassword(pw: string): boolean {
  if (!common) {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "../common-passwords.txt");
    common = new Set(
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .map((l) => l.trim().toLowerCase())
        .filter((l) => l !== "" && !l.startsWith("#")),
    );
  }
  return common.has(pw.toLowerCase());
}

/** Parses fields with a schema or throws the translated refusal of its first problem. */
export function parseFields<S extends ZodTypeAny>(
  schema: S,
  fields: Record<string, string>,
): z.infer<S> {
  const r = schema.safeParse(fields);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.join(".") || "input";
  if (issue.message.startsWith("accounts.")) throw new DomainError(issue.message);
  throw new DomainError("invalid_input", 0, { field });
}

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
