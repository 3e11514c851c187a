/**
 * The client's idempotency key as every idempotent route reads it: the `Idempotency-Key` header,
 * or the form field `idempotency_key`.
 */
import type { FastifyRequest } from "fastify";
import { IDEMPOTENCY_FIELD, IDEMPOTENCY_KEY_RE } from "@contract/constants";
import { DomainError, CODE_FAIL } from "../errors.js";

/**
 * The client's idempotency key, or null without one; a malformed key is refused with `invalidKey`
 * ("Invalid value: Idempotency-Key").
 */
export function idempotencyKeyOf(
  req: FastifyRequest,
  fields: unknown,
  invalidKey: string,
): string | null {
  const h = req.headers["idempotency-key"];
  const field = (fields as Record<string, unknown> | undefined)?.[IDEMPOTENCY_FIELD];
  const raw = typeof h === "string" && h.trim() !== "" ? h : typeof field === "string" ? field : "";
  const k = raw.trim();
  if (k === "") return null;
  if (!IDEMPOTENCY_KEY_RE.test(k))
    throw new DomainError(invalidKey, CODE_FAIL, { field: "Idempotency-Key" });
  return k;
}
