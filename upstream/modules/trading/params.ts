/** Parsing of the engine's request parameters (form fields arrive as strings or numbers) and its time format. */

/** A non-negative whole number of at most 12 digits, or null. */
export function intParam(raw: unknown): number | null {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{1,12}$/.test(s)) return null;
  return Number(s);
}

/** A positive plain decimal price (no sign, no exponent), or null. */
export function priceParam(raw: unknown): number | null {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{0,15}(\.\d{1,12})?$/.test(s) || s === "" || s === ".") return null;
  const v = Number(s);
  return Number.isFinite(v) && v > 0 ? v : null;
}

/** "YYYY-MM-DD HH:MM:SS" (UTC) of epoch milliseconds; "" for none. */
export function fmtTime(ms: number | null): string {
  if (!ms) return "";
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}
