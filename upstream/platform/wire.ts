/** How values look on the wire, the same in every module's answers. */

/** "YYYY-MM-DD HH:mm:ss" UTC, or "" without a time. */
export function wireTime(ms: number | null): string {
  if (!ms) return "";
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}
