/**
 * What the money routes share: the refusal of a malformed field, the real-account guard, the
 * readers of the common fields (integers, the destination type, the page, the idempotency key,
 * a USD amount) and micro-USD as the wire's USD number.
 */
import type { FastifyRequest } from "fastify";
import { DRAW_TYPE } from "@contract/enums";
import type { AppContext } from "../../../platform/context.js";
import { requireUser, type UserRow } from "../../../platform/http/auth.js";
import { idempotencyKeyOf } from "../../../platform/http/params.js";
import type { RouteExtras } from "../../../platform/http/route.js";
import { CODE_FAIL, DomainError } from "../../../platform/errors.js";
import { intField, pageField } from "../../../platform/params.js";
import { MICRO, usdToMicro } from "../decimal.js";

/** A malformed field of these routes answers "Invalid value: FIELD". */
export const INVALID = "money_invalid_field";
export const extras: RouteExtras = { invalidFieldKey: INVALID };

/** micro-USD as the wire's USD number. */
export const usd = (micro: number) => micro / MICRO;

/** The signed-in user, refused when it is a demo account. */
export function realUser(ctx: AppContext, req: FastifyRequest): UserRow {
  const u = requireUser(ctx.db, req);
  if (u.is_demo) throw new DomainError("demo_only_true_account");
  return u;
}

export const int = (raw: unknown, field: string, dflt?: number) =>
  intField(raw, field, INVALID, dflt);

/** A destination type: 1 address (the default) or 2 bank. */
export function drawType(raw: unknown, field: string): number {
  const t = int(raw, field, DRAW_TYPE.ADDRESS);
  if (t !== DRAW_TYPE.ADDRESS && t !== DRAW_TYPE.BANK)
    throw new DomainError(INVALID, CODE_FAIL, { field });
  return t;
}

export const page = (raw: unknown) => pageField(raw, INVALID);

export const idemKey = (req: FastifyRequest, body: unknown) => idempotencyKeyOf(req, body, INVALID);

/** A USD amount a user entered (field "number"; its schema bounds it), in micro-USD. */
export const amountMicro = (amount: string): number => usdToMicro(amount);
