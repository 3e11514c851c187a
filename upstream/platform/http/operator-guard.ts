/**
 * Who calls an operator endpoint, and whether their role may: `Authorization: Bearer <token>` with
 * OPERATOR_TOKEN (the scripts, acting as an admin named `token`) or a signed-in operator's token
 * (acting under the operator's name and role). Anything else, a user's token included, is refused
 * with HTTP 401 and code 999; a role without the endpoint's permission with HTTP 403.
 *
 * Every contract endpoint that declares `operator` is checked by `route()` before its handler runs
 * (route.ts), so a handler never runs for a caller its permission does not admit. The operators'
 * store is handed in (OperatorLookup) by the composition root: the platform reads no module.
 */
import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";
import { can, TOKEN_ACTOR, type OperatorRole, type Permission } from "@contract/operators";
import { CODE, DomainError } from "../errors.js";

/** The operator behind a request to an operator endpoint: the audit log's actor, and their role. */
export interface OperatorCaller {
  actor: string;
  role: OperatorRole;
}

/** What the guard needs to know of operators (modules/operators/accounts.ts). */
export interface OperatorLookup {
  /** OPERATOR_TOKEN, or null when the scripts have none. */
  scriptToken: string | null;
  /** True while at least one operator account is enabled. */
  hasOperators(): boolean;
  /** The enabled operator whose unexpired, unrevoked session token this is, or null. */
  operatorOfToken(token: string): { name: string; role: OperatorRole } | null;
}

const sha = (s: string) => crypto.createHash("sha256").update(s).digest();

/** The bearer token of a request, or null. */
export function bearerOf(req: FastifyRequest): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ""));
  return m ? m[1] : null;
}

/** The operator behind a request, whatever their role; 401 for anyone else. */
export function authenticateOperator(ops: OperatorLookup, req: FastifyRequest): OperatorCaller {
  const expected = ops.scriptToken;
  if (!expected && !ops.hasOperators())
    throw new DomainError("operator_not_configured", CODE.SESSION_INVALID, {}, 401);
  const token = bearerOf(req);
  // Compared by their hashes in constant time: the length of the secret does not leak either.
  if (token && expected && crypto.timingSafeEqual(sha(token), sha(expected)))
    return { actor: TOKEN_ACTOR, role: "admin" };
  const op = token ? ops.operatorOfToken(token) : null;
  if (!op) throw new DomainError("operator_unauthorized", CODE.SESSION_INVALID, {}, 401);
  return { actor: op.name, role: op.role };
}

/** The operator behind a request when their role holds `need`; 401 or 403 otherwise. */
export function guardOperator(
  ops: OperatorLookup,
  req: FastifyRequest,
  need: Permission,
): OperatorCaller {
  const caller = authenticateOperator(ops, req);
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
