/**
 * What the money routes share: the refusal of a malformed field (named by the routes' schemas,
 * contract/api/finance.ts), the real-account guard, the idempotency key, a USD amount in
 * micro-USD and micro-USD as the wire's USD number.
 */
import type { FastifyRequest } from "fastify";
import type { AppContext } from "../../../platform/context.js";
import { requireUser } from "../../../platform/http/auth.js";
import type { SessionUser } from "../../../platform/session-cache.js";
import { idempotencyKeyOf } from "../../../platform/http/params.js";
import type { RouteExtras } from "../../../platform/http/route.js";
import { DomainError } from "../../../platform/errors.js";
import { MICRO, usdToMicro } from "../decimal.js";

/** A malformed field of these routes answers "Invalid value: FIELD". */
export const INVALID = "money_invalid_field";
export const extras: RouteExtras = { invalidFieldKey: INVALID };

/** micro-USD as the wire's USD number. */
export const usd = (micro: number) => micro / MICRO;

/** The signed-in user, refused when it is a demo account. */
export function realUser(ctx: AppContext, req: FastifyRequest): SessionUser {
  const u = requireUser(ctx.db, req);
  if (u.is_demo) throw new DomainError("demo_only_true_account");
  return u;
}

export const idemKey = (req: FastifyRequest, body: unknown) => idempotencyKeyOf(req, body, INVALID);

/** A USD amount a user entered (field "number"; its schema bounds it), in micro-USD. */
export const amountMicro = (amount: string): number => usdToMicro(amount);
