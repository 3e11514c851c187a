/**
 * What several of the operator API's route files share: the refusal of a malformed field (named by
 * the routes' schemas, contract/api/admin.ts), the 404 refusal, the queues.
 */
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { CODE, DomainError } from "../../../platform/errors.js";
import { dec, MICRO } from "../../money/decimal.js";
import { queueIds } from "../console-store.js";

/** The refusal of a field no rule reads (named in its parameters). */
export const INVALID = "money_invalid_field";
/** The route options of every operator endpoint. */
export const extras = { invalidFieldKey: INVALID };

/** Micro-USD to the wire's USD number (null stays null). */
export const usd = (micro: number | null) => (micro === null ? null : micro / MICRO);

export const notFound = () => new DomainError("not_found", CODE.NOT_FOUND, {}, 404);

/** "received 480.00 of 500.00" (USD), for the audit row and the approver. */
export const receivedNote = (receivedMicro: number, declaredMicro: number) =>
  `received ${dec(receivedMicro).div(MICRO).toFixed(2)} of ${dec(declaredMicro).div(MICRO).toFixed(2)}`;

/** One page of a queue's ids at one status, oldest first; with the status's total. */
export function queuePage(
  ctx: AppContext,
  queue: "charges" | "draws",
  { status, page }: { status: number; page: number },
): { ids: number[]; total: number } {
  return queueIds(ctx.db, { queue, status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
}
