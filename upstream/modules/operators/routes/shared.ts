/** What several of the operator API's route files share: field readers, refusals, the queues. */
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { CODE, CODE_FAIL, DomainError } from "../../../platform/errors.js";
import { intField, pageField } from "../../../platform/params.js";
import { dec, MICRO } from "../../money/decimal.js";
import { queueIds } from "../console-store.js";

/** The refusal of a field no rule reads (named in its parameters). */
export const INVALID = "money_invalid_field";
/** The route options of every operator endpoint. */
export const extras = { invalidFieldKey: INVALID };

/** Micro-USD to the wire's USD number (null stays null). */
export const usd = (micro: number | null) => (micro === null ? null : micro / MICRO);

export const int = (raw: unknown, field: string, dflt?: number) =>
  intField(raw, field, INVALID, dflt);

export const notFound = () => new DomainError("not_found", CODE.NOT_FOUND, {}, 404);

/** A decision's remark: required, at most 500 characters kept. */
export function remarkOf(raw: unknown): string {
  const r = typeof raw === "string" ? raw.trim() : "";
  if (!r) throw new DomainError("remark_required");
  return r.slice(0, 500);
}

/** "received 480.00 of 500.00" (USD), for the audit row and the approver. */
export const receivedNote = (receivedMicro: number, declaredMicro: number) =>
  `received ${dec(receivedMicro).div(MICRO).toFixed(2)} of ${dec(declaredMicro).div(MICRO).toFixed(2)}`;

/** One page of a queue's ids at one status (0 to 3), oldest first; with the status's total. */
export function queuePage(
  ctx: AppContext,
  queue: "charges" | "draws",
  statusRaw: unknown,
  pageRaw: unknown,
): { ids: number[]; total: number } {
  const status = int(statusRaw, "status", 0);
  if (status > 3) throw new DomainError(INVALID, CODE_FAIL, { field: "status" });
  const page = pageField(pageRaw, INVALID);
  return queueIds(ctx.db, { queue, status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
}
