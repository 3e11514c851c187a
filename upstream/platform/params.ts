/** Raw request values every module reads the same way, without knowing where they came from. */

/** A non-negative whole number of at most 12 digits, or null. */
export function intParam(raw: unknown): number | null {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{1,12}$/.test(s)) return null;
  return Number(s);
}
