/**
 * Routes from the contract's endpoint definitions (@contract/api/*): method, path, tag, summary and
 * parameter schemas come from the definition, so the OpenAPI document (/openapi.json) publishes
 * exactly the contract. Validation reads the same field names leniently (lenientOf): a field may be
 * missing, a form string or a JSON number (a repeated form field counts by its first value), and
 * unknown fields pass through; the module's rules then give the precise, translated refusal of a
 * bad value, as the API always has. Only a value no rule can read (an object where a field is
 * expected) fails validation, answered by the error handler (platform/http/errors.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { z, type ZodTypeAny } from "zod";
import type { EndpointDef } from "@contract/api/endpoint";
import { IDEMPOTENCY_HEADER } from "@contract/constants";
import type { Permission } from "@contract/operators";
import type { OperatorCaller } from "./operator-guard.js";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Checks the caller of an operator endpoint (operator-guard.ts): answers the operator,
     * or throws the 401 / 403 refusal. Decorated before any route registers.
     */
    operatorGuard: (req: FastifyRequest, need: Permission) => OperatorCaller;
  }
  interface FastifyRequest {
    /** Set before the handler of an endpoint that declares `operator`; null elsewhere. */
    operator: OperatorCaller | null;
  }
}

/** A repeated field counts by its first value, null as absent, a JSON boolean as its text. */
function scalarOf(v: unknown): unknown {
  const one = Array.isArray(v) ? v[0] : v;
  if (one === null) return undefined;
  return typeof one === "boolean" ? String(one) : one;
}

const scalar = z.preprocess(scalarOf, z.union([z.string(), z.number()]).optional());
const objectOrEmpty = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? v : {});

const lenientCache = new WeakMap<ZodTypeAny, ZodTypeAny>();

/** The lenient twin of a contract object schema: the same fields, each an optional scalar; others pass. */
export function lenientOf(schema: ZodTypeAny): ZodTypeAny {
  if (!(schema instanceof z.ZodObject)) return schema;
  let l = lenientCache.get(schema);
  if (!l) {
    const shape = Object.fromEntries(Object.keys(schema.shape as object).map((k) => [k, scalar]));
    l = z.preprocess(objectOrEmpty, z.object(shape).passthrough());
    lenientCache.set(schema, l);
  }
  return l;
}

/** Validates body and query by their lenient twins; headers and params as declared. */
export const lenientValidatorCompiler: typeof validatorCompiler = (route) =>
  route.httpPart === "body" || route.httpPart === "querystring"
    ? validatorCompiler({ ...route, schema: lenientOf(route.schema as ZodTypeAny) })
    : validatorCompiler(route);

const authorization = z.string().optional().describe("session token (bare, or `Bearer TOKEN`)");

function headersOf(def: EndpointDef) {
  const shape: Record<string, ZodTypeAny> = {};
  if (def.auth) shape.authorization = authorization;
  if (def.idempotent)
    shape[IDEMPOTENCY_HEADER.toLowerCase()] = z
      .string()
      .optional()
      .describe("the same key from the same account answers the first response");
  return Object.keys(shape).length ? z.object(shape).passthrough() : undefined;
}

/** Fields of a validated body or query. */
export type Fields = Record<string, unknown>;
export type RouteRequest = FastifyRequest<{
  Body: Fields;
  Querystring: Fields;
  Params: Record<string, string>;
}>;

export interface RouteExtras {
  /** Message key of a field that fails validation, with {{field}} (default invalid_input). */
  invalidFieldKey?: string;
}

/** Registers the route of a contract endpoint. */
export function route(
  app: FastifyInstance,
  def: EndpointDef,
  handler: (req: RouteRequest, reply: FastifyReply) => Promise<unknown>,
  extras: RouteExtras = {},
): void {
  const opts: RouteOptions = {
    method: def.method,
    url: def.path,
    schema: {
      tags: [def.tag],
      summary: def.summary,
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      ...(def.params ? { params: def.params } : {}),
      ...(headersOf(def) ? { headers: headersOf(def) } : {}),
    },
    config: extras.invalidFieldKey ? { invalidFieldKey: extras.invalidFieldKey } : {},
    handler: guarded(app, def, handler) as RouteOptions["handler"],
  };
  app.route(opts);
}

/**
 * The handler of an operator endpoint runs only for a caller whose role holds the endpoint's
 * permission (the guard throws the refusal otherwise); other endpoints run as they are.
 */
function guarded(
  app: FastifyInstance,
  def: EndpointDef,
  handler: (req: RouteRequest, reply: FastifyReply) => Promise<unknown>,
): (req: RouteRequest, reply: FastifyReply) => Promise<unknown> {
  const need = def.operator;
  if (!need) return handler;
  if (typeof app.operatorGuard !== "function")
    throw new Error(`${def.method} ${def.path}: the operator guard must be decorated first`);
  const guard = app.operatorGuard;
  return async (req, reply) => {
    req.operator = guard(req, need);
    return handler(req, reply);
  };
}
