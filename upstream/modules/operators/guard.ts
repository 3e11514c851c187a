/**
 * Who calls an operator endpoint, and whether their role may: `Authorization: Bearer <token>` with
 * OPERATOR_TOKEN (the scripts, acting as an admin named `token`) or a signed-in operator's token
 * (acting under the operator's name and role). Anything else, a user's token included, is refused
 * with HTTP 401 and code 999; a role without the endpoint's permission with HTTP 403.
 *
 * Every contract endpoint that declares `operator` is checked by `route()` before its handler runs
 * (platform/http/route.ts), so a handler never runs for a caller its permission does not admit.
 */
import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";
import { can, TOKEN_ACTOR, type Permission } from "@contract/operators";
import type { AppContext } from "../../app.js";
import { CODE, DomainError } from "../../platform/errors.js";
import type { OperatorCaller } from "../../platform/http/route.js";
import { hasOperators, operatorOfToken } from "./accounts.js";

const sha = (s: string) => crypto.createHash("sha256").update(s).digest();

/** The bearer token of a request, or null. */
export function bearerOf(req: FastifyRequest): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ""));
  return m ? m[1] : null;
}

/** The operator behind a request, whatever their role; 401 for anyone else. */
export function authenticateOperator(ctx: AppContext, req: FastifyRequest): OperatorCaller {
  const expected = ctx.config.operatorToken;
  if (!expected && !hasOperators(ctx.db))
    throw new DomainError("operator_not_configured", CODE.SESSION_INVALID, {}, 401);
  const token = bearerOf(req);
  // Compared by their hashes in constant time: the length of the secret does not leak either.
  if (token && expected && crypto.timingSafeEqual(sha(token), sha(expected)))
    return { actor: TOKEN_ACTOR, role: "admin" };
  const op = token ? operatorOfToken(ctx.db, token) : null;
  if (!op) throw new DomainError("operator_unauthorized", CODE.SESSION_INVALID, {}, 401);
  return { actor: op.name, role: op.role };
}

/** The operator behind a request when their role holds `need`; 401 or 403 otherwise. */
export function guardOperator(
  ctx: AppContext,
  req: FastifyRequest,
  need: Permission,
): OperatorCaller {
  const caller = authenticateOperator(ctx, req);
  if (!can(caller.role, need))
    throw new DomainError("operator_forbidden", CODE.FORBIDDEN, { role: caller.role }, 403);
  return caller;
}

/** The checked operator of a request to an endpoint that declares `operator` (route() set it). */
export function operatorOf(req: FastifyRequest): OperatorCaller {
  const op = req.operator;
  if (!op) throw new Error(`${req.url}: an operator handler ran without the operator guard`);
  return op;
}
