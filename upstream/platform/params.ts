/** Raw request values every module reads the same way, without knowing where they came from. */
import { CODE, DomainError } from "./errors.js";

/** A non-negative whole number of at most 12 digits, or null. */
export function intParam(raw: unknown): number | null {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{1,12}$/.test(s)) return null;
  return Number(s);
}

/**
 * A whole-number field: `dflt` when absent or empty (if given), else refused with `invalidKey`
 * ("Invalid value: FIELD").
 */
export function intField(raw: unknown, field: string, invalidKey: string, dflt?: number): number {
  if ((raw === undefined || raw === "") && dflt !== undefined) return dflt;
  const n = intParam(raw);
  if (n === null) throw new DomainError(invalidKey, CODE.FAIL, { field });
  return n;
}

/** A page number from 1 (default 1) to 1,000,000, else refused with `invalidKey`. */
export function pageField(raw: unknown, invalidKey: string): number {
  const p = intField(raw, "page", invalidKey, 1);
  if (p < 1 || p > 1_000_000) throw new DomainError(invalidKey, CODE.FAIL, { field: "page" });
  return p;
}
