/** Small pieces the operator console's server and pages share. */
import { CHARGE_STATUS, WITHDRAW_STATUS } from "@contract/enums";
import { REQUEST_STATUS } from "@contract/api/admin-rules";
import { COPY_STATUSES } from "@contract/api/copy-rules";
import { useRouteLoaderData } from "@remix-run/react";
import { can, type OperatorRole, type Permission } from "@contract/operators";

/** A wire time ("YYYY-MM-DD HH:mm:ss", UTC) in ms, or null. */
export function wireTimeMs(s: string): number | null {
  const ms = Date.parse(`${s.replace(" ", "T")}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/** The page asked for by `?page=`: a whole number from 1 (anything else is page 1). */
export function pageParam(url: URL): number {
  const raw = url.searchParams.get("page") ?? "1";
  return /^\d{1,6}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
}

/** The queue tab asked for by `?status=`: one of `statuses`, else the first. */
export function statusParam(url: URL, statuses: readonly number[]): number {
  const raw = Number(url.searchParams.get("status") ?? statuses[0]);
  return statuses.includes(raw) ? raw : statuses[0];
}

/** The deposit queue's tabs, in the contract's order, with their message keys. */
export const CHARGE_TABS = [
  [CHARGE_STATUS.UNCHECKED, "charge_status_0"],
  [CHARGE_STATUS.FINISHED, "charge_status_1"],
  [CHARGE_STATUS.REJECTED, "charge_status_2"],
  [CHARGE_STATUS.INVALID, "charge_status_3"],
] as const;

export const DRAW_TABS = [
  [WITHDRAW_STATUS.REVIEWING, "draw_status_0"],
  [WITHDRAW_STATUS.PAID, "draw_status_1"],
  [WITHDRAW_STATUS.REJECTED, "draw_status_2"],
  [WITHDRAW_STATUS.CANCELLED, "draw_status_3"],
] as const;

/** The four-eyes requests' tabs (pending first). */
export const REQUEST_TABS = [
  [REQUEST_STATUS.PENDING, "request_status_0"],
  [REQUEST_STATUS.APPROVED, "request_status_1"],
  [REQUEST_STATUS.REJECTED, "request_status_2"],
] as const;

/**
 * The copies list's status filter as the operator API reads it (0 every copy, then each of
 * COPY_STATUSES in order from 1), with its message keys.
 */
export const COPY_STATUS_FILTER: readonly (readonly [number, string])[] = [
  [0, "copy_status_all"],
  ...COPY_STATUSES.map((s, i) => [i + 1, `copy_status_${s}`] as const),
];

/** The name of an upload from its operator URL (…/admin/api/uploads/NAME). */
export function uploadName(proofUrl: string): string {
  return proofUrl.slice(proofUrl.lastIndexOf("/") + 1);
}

/** The page a console form was posted from (path and query, without Remix's `index`). */
export function backTo(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const q = url.searchParams.toString();
  return url.pathname + (q ? `?${q}` : "");
}

/**
 * What the signed-in operator's role may do, from the console layout's loader (routes/operator):
 * a page shows an action's form only when this answers true for the action's permission. The
 * upstream refuses the action anyway (403) for a role without it.
 */
export function useConsoleCan(): (need: Permission) => boolean {
  const layout = useRouteLoaderData<{ role: OperatorRole }>("routes/operator");
  return (need) => !!layout && can(layout.role, need);
}
