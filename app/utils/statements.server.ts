/**
 * What the statement screens share on the server: the range a request asks for (its `from` and
 * `to`, a preset, or this month when it names none), checked with the range form's schema; and
 * every row of a statement's list, read from the upstream page after page (the downloads and the
 * printed statement hold all of them, however many).
 */
import { PAGE_MAX } from "@contract/fields";
import {
  presetRange,
  STATEMENT_EXPORT_PAGE,
  STATEMENT_PRESETS,
  type StatementPreset,
} from "@contract/api/statements-rules";
import type { UpstreamResult } from "~/upstream/client.server";
import type { DayRange } from "~/upstream/statements.server";
import { statementRangeSchema } from "~/schemas/statements";

/** The range asked for, or the fields' refusals (message keys) with what was typed. */
export type RangeRead =
  | { ok: true; range: DayRange; preset: StatementPreset | null }
  | { ok: false; values: { from: string; to: string }; errors: { from?: string; to?: string } };

const isPreset = (v: string | null): v is StatementPreset =>
  (STATEMENT_PRESETS as readonly (string | null)[]).includes(v);

/** The preset whose days these are, if any. */
function presetOf(r: DayRange, nowMs: number): StatementPreset | null {
  return (
    STATEMENT_PRESETS.find((p) => {
      const d = presetRange(p, nowMs);
      return d.from === r.from && d.to === r.to;
    }) ?? null
  );
}

/** The range of a statement request: ?preset=, else ?from=&to=, else this month (UTC). */
export function readRange(url: URL, nowMs: number): RangeRead {
  const q = url.searchParams;
  const preset = q.get("preset");
  if (isPreset(preset)) return { ok: true, range: presetRange(preset, nowMs), preset };
  if (!q.has("from") && !q.has("to"))
    return { ok: true, range: presetRange("this_month", nowMs), preset: "this_month" };
  const values = { from: q.get("from") ?? "", to: q.get("to") ?? "" };
  const parsed = statementRangeSchema.safeParse(values);
  if (parsed.success) return { ok: true, range: parsed.data, preset: presetOf(parsed.data, nowMs) };
  const errors: { from?: string; to?: string } = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === "from" ? "from" : "to";
    errors[field] ??= issue.message;
  }
  return { ok: false, values, errors };
}

/** A page number of the query (a whole number from 1; anything else is page 1). */
export function pageParam(url: URL, name: string): number {
  const raw = url.searchParams.get(name) ?? "1";
  const n = /^\d{1,7}$/.test(raw) ? Number(raw) : 1;
  return Math.min(PAGE_MAX, Math.max(1, n));
}

/**
 * Every item of a paged statement list, oldest first, STATEMENT_EXPORT_PAGE a page: the first
 * page's refusal as it is (nothing else read), or the pages one after the other until the total.
 */
export async function* everyPage<T>(
  read: (page: number, size: number) => Promise<UpstreamResult<{ data: T[]; total: number }>>,
  first?: UpstreamResult<{ data: T[]; total: number }>,
): AsyncGenerator<T[]> {
  let r = first ?? (await read(1, STATEMENT_EXPORT_PAGE));
  for (let page = 1; ; page++) {
    if (!r.ok) throw new Error(`statement page ${page} refused: ${r.msg}`);
    if (r.data.data.length > 0) yield r.data.data;
    if (r.data.data.length < STATEMENT_EXPORT_PAGE || page * STATEMENT_EXPORT_PAGE >= r.data.total)
      return;
    r = await read(page + 1, STATEMENT_EXPORT_PAGE);
  }
}
