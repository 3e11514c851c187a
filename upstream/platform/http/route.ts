/**
 * Routes from the contract's endpoint definitions (@contract/api/*): method, path, tag, summary and
 * parameter schemas come from the definition, so the OpenAPI document (/openapi.json) publishes
 * exactly the contract, and the same schemas validate every request before its handler runs: the
 * handler reads typed, bounded values and parses nothing again. Unknown fields (the `t` cache
 * buster, a form's own fields) are dropped; an idempotent call's body also takes the
 * `idempotency_key` form field, the header's alternative.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { z, type ZodTypeAny } from "zod";
import { answerSchema, refusalEnvelope, type EndpointDef } from "@contract/api/endpoint";
import { IDEMPOTENCY_FIELD, IDEMPOTENCY_HEADER } from "@contract/constants";
import type { Permission } from "@contract/operators";
import type { OperatorCaller } from "./operator-guard.js";
import { contractAccept } from "./contract-parse.js";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Checks the caller of an operator endpoint (operator-guard.ts): answers the operator,
     * or throws the 401 / 403 refusal. Decorated before any route registers.
     */
    operatorGuard: (req: FastifyRequest, need: Permission) => OperatorCaller;
    /**
     * Checks the session token of a signed-in endpoint's caller (auth.ts requireUser): throws the
     * code 999 refusal for anything but a live session, and with `real` the demo-account refusal.
     * Decorated before any route registers.
     */
    sessionGuard: (req: FastifyRequest, real: boolean) => Promise<void>;
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

/**
 * A body or query as the contract's schema reads it: each field by its first value (a form may
 * repeat a field), and anything but an object (a JSON array, no body) as no fields at all.
 */
function wireFields(v: unknown): Record<string, unknown> {
  if (!v || typeof v !== "object" || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scalarOf(x)]));
}

const wireCache = new WeakMap<ZodTypeAny, ZodTypeAny>();

/** The contract's schema over the wire's fields. */
function overWire(schema: ZodTypeAny): ZodTypeAny {
  let w = wireCache.get(schema);
  if (!w) {
    w = z.preprocess(wireFields, schema);
    wireCache.set(schema, w);
  }
  return w;
}

/**
 * Validates body and query by the endpoint's contract schema (form text and JSON numbers alike: the
 * contract's fields coerce them, contract/fields.ts), compiled (contract-parse.ts); headers and
 * params as declared. A field that fails its rule is answered by the error handler (errors.ts)
 * with HTTP 400 and its message.
 */
export const contractValidatorCompiler: typeof validatorCompiler = (route) => {
  if (route.httpPart !== "body" && route.httpPart !== "querystring")
    return validatorCompiler(route);
  const schema = overWire(route.schema as ZodTypeAny);
  // zod's own answer for a refusal: the 400's issues, exactly as the error handler reads them.
  const refusal = validatorCompiler({ ...route, schema });
  const accept = contractAccept(schema);
  return (data) => {
    const read = accept(data);
    return read.success ? { value: read.data } : refusal(data);
  };
};

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

/** An endpoint's body schema; an idempotent call's also takes its key as a form field. */
function bodyOf(def: EndpointDef): ZodTypeAny | undefined {
  if (!def.body || !def.idempotent) return def.body;
  return def.body.extend({
    [IDEMPOTENCY_FIELD]: z
      .unknown()
      .optional()
      .describe("the Idempotency-Key header's alternative for a form"),
  });
}

/** The schemas an endpoint's body and query are validated by, over the wire's fields. */
export function wireSchemasOf(def: EndpointDef): ZodTypeAny[] {
  const body = bodyOf(def);
  return [body, def.query].filter((s): s is ZodTypeAny => !!s).map(overWire);
}

/**
 * What an endpoint answers, by HTTP status: 200 its data (or a business refusal, code 0 and the
 * others of the envelope), 400 a field's refusal, 401 and 403 an operator endpoint's caller without
 * a session or the permission, 429 a rate limit (with Retry-After).
 */
function responsesOf(def: EndpointDef, data: ZodTypeAny): Record<number, ZodTypeAny> {
  const out: Record<number, ZodTypeAny> = { 200: answerSchema(data) };
  if (def.body || def.query || def.params)
    out[400] = refusalEnvelope.describe("a field refused: `msg` names it and why");
  if (def.operator) {
    out[401] = refusalEnvelope.describe("no operator session");
    out[403] = refusalEnvelope.describe("the operator's role lacks the endpoint's permission");
  }
  out[429] = refusalEnvelope.describe("rate limited: retry after the Retry-After header's seconds");
  return out;
}

/** Fields of a validated body or query. */
export type Fields = Record<string, unknown>;
/** What an endpoint's schema answers for its body, query and path parameters. */
type Out<D, K extends "body" | "query" | "params", Else> = D extends {
  [P in K]: infer S extends ZodTypeAny;
}
  ? z.output<S>
  : Else;

/** A request to endpoint `D`, its body, query and path parameters as its schemas answer them. */
export type RouteRequest<D = EndpointDef> = FastifyRequest<{
  Body: Out<D, "body", Fields>;
  Querystring: Out<D, "query", Fields>;
  Params: Out<D, "params", Record<string, string>>;
}>;

export interface RouteExtras {
  /** Message key of a field that fails validation, with {{field}} (default invalid_input). */
  invalidFieldKey?: string;
}

/** Registers the route of a contract endpoint. */
export function route<D extends EndpointDef>(
  app: FastifyInstance,
  def: D,
  handler: (req: RouteRequest<D>, reply: FastifyReply) => Promise<unknown>,
  extras: RouteExtras = {},
): void {
  const opts: RouteOptions = {
    method: def.method,
    url: def.path,
    schema: {
      tags: [def.tag],
      summary: def.summary,
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: bodyOf(def) } : {}),
      ...(def.params ? { params: def.params } : {}),
      ...(headersOf(def) ? { headers: headersOf(def) } : {}),
      ...(def.data ? { response: responsesOf(def, def.data) } : {}),
    },
    config: {
      ...(extras.invalidFieldKey ? { invalidFieldKey: extras.invalidFieldKey } : {}),
      readsEngine: def.readsEngine === true,
    },
    preValidation: callerCheck(app, def),
    handler: handler as RouteOptions["handler"],
  };
  app.route(opts);
}

/**
 * Who may call the endpoint is checked before its fields are (a preValidation hook): an operator
 * endpoint's caller must hold its permission (401 / 403), a signed-in endpoint's token must be a
 * live session (code 999); only then does a field's refusal (400) answer. A caller without the
 * right learns nothing of the fields.
 */
function callerCheck(app: FastifyInstance, def: EndpointDef): RouteOptions["preValidation"] {
  const need = def.operator;
  if (need) {
    if (typeof app.operatorGuard !== "function")
      throw new Error(`${def.method} ${def.path}: the operator guard must be decorated first`);
    const guard = app.operatorGuard;
    return async (req: FastifyRequest) => {
      req.operator = guard(req, need);
    };
  }
  if (!def.auth) return undefined;
  if (typeof app.sessionGuard !== "function")
    throw new Error(`${def.method} ${def.path}: the session guard must be decorated first`);
  const session = app.sessionGuard;
  const real = def.realAccount === true;
  return async (req: FastifyRequest) => {
    await session(req, real);
  };
}
