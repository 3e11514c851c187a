/**
 * How an endpoint of the upstream is described once for both programs: method, path, whether it
 * needs the session token, its parameters as zod schemas (query for GET, form body for POST) and the
 * type of its envelope's `data`. The upstream registers its routes from these (and publishes them as
 * OpenAPI); the web's client calls them by the same definitions.
 *
 * The schemas are the requests' only reader: the upstream validates every request with its
 * endpoint's schema before the handler (a field's refusal: HTTP 400 with its message), built from
 * the field rules of contract/fields.ts that the web's forms share; the services keep the rules that
 * need the store or several fields (lot steps, leverage options, price sides, balances).
 */
import { z, type ZodLiteral } from "zod";
import type { Permission } from "../operators";
import { CODE } from "../envelope";

export type Method = "GET" | "POST";

export interface EndpointDef {
  method: Method;
  path: string;
  /** True when the call needs the session token (`authorization` header). */
  auth: boolean;
  /** Groups the endpoint in the OpenAPI document. */
  tag: string;
  summary: string;
  query?: z.AnyZodObject;
  body?: z.AnyZodObject;
  /** Path parameters, written `:name` in `path` (e.g. /admin/api/charges/:id/approve). */
  params?: z.AnyZodObject;
  /**
   * True when only a real account may call (money, uploads, verification): a demo account's call is
   * refused (code 0, demo_only_true_account) before its fields are read.
   */
  realAccount?: boolean;
  /** True when the call honours the `Idempotency-Key` header. */
  idempotent?: boolean;
  /**
   * An operator endpoint: the permission the caller's role must hold (contract/operators.ts). The
   * upstream checks it before the handler runs (401 without an operator, 403 without the
   * permission); the console shows the action only to roles that hold it.
   */
  operator?: Permission;
  /**
   * A read of the engine's memory (live positions, equity, a copy's figures), which only the
   * leading upstream node holds: a standby forwards it to the leader like a command. Reads of the
   * store alone are answered by any node.
   */
  readsEngine?: boolean;
  /**
   * The schema of a successful answer's `data` (the envelope's code 1). The OpenAPI document
   * publishes it, the test harnesses check every answer against it (CHECK_ANSWERS), and the data's
   * TypeScript type is inferred from it (DataOf).
   */
  data?: z.ZodTypeAny;
}

/** An endpoint whose envelope carries `Data`; the type lives only at compile time. */
export type Endpoint<Data, Def extends EndpointDef = EndpointDef> = Def & {
  readonly __data?: Data;
};

/**
 * Declares an endpoint. With its answer's schema: `endpoint({ ..., data: OrderSchema })`, the
 * data's type inferred from it. Without (an endpoint not yet described at run time): the type
 * alone, `endpoint<Order>()({ ... })`.
 */
export function endpoint<const Def extends EndpointDef & { data: z.ZodTypeAny }>(def: Def): Def;
export function endpoint<Data>(): <const Def extends EndpointDef>(def: Def) => Endpoint<Data, Def>;
export function endpoint(def?: EndpointDef): unknown {
  return def ?? (<const Def extends EndpointDef>(d: Def) => d);
}

/** The type of an endpoint's `data`. */
export type DataOf<E> = E extends { data: infer S extends z.ZodTypeAny }
  ? z.output<S>
  : E extends { readonly __data?: infer D }
    ? D
    : never;

/** Every code of the envelope but success. */
const REFUSAL_CODES = Object.values(CODE).filter((c) => c !== CODE.OK);

/** A refused answer's envelope: any code but 1, the message shown to the user, no data. */
export const refusalEnvelope = z
  .object({
    code: z
      .union(REFUSAL_CODES.map((c) => z.literal(c)) as [ZodLiteral<number>, ZodLiteral<number>])
      .describe("0 refused, 403 forbidden, 404 not found, 429 rate limited, 500, 999 session"),
    msg: z.string().describe("why, in the request's language"),
    data: z.null(),
  })
  .describe("a refusal");

/** A successful answer's envelope around `data`. */
export const okEnvelope = <S extends z.ZodTypeAny>(data: S) =>
  z.object({ code: z.literal(CODE.OK), msg: z.string(), data }).describe("success");

/** What an endpoint answers with HTTP 200: success with its data, or a business refusal. */
export function answerSchema(data: z.ZodTypeAny): z.ZodTypeAny {
  return z
    .union([okEnvelope(data), refusalEnvelope])
    .describe("success (code 1) with its data, or a refusal: `msg` says why");
}

/** The parameters of an endpoint as its schema reads them. */
export type ParamsOf<E> = E extends { body: infer B extends z.ZodTypeAny }
  ? z.input<B>
  : E extends { query: infer Q extends z.ZodTypeAny }
    ? z.input<Q>
    : Record<string, never>;

/** The path with its `:name` parameters filled in (each value URI-encoded). */
export function pathOf(
  def: Pick<EndpointDef, "path">,
  params: Record<string, string | number> = {},
): string {
  return def.path.replace(/:(\w+)/g, (_, k: string) => {
    if (!(k in params)) throw new Error(`path parameter ${k} of ${def.path} is missing`);
    return encodeURIComponent(String(params[k]));
  });
}

/**
 * Free text of a form field (a JSON number is read as its text): at most `max` characters, counted
 * as people count them (code points) after trimming. `tooLong` is the refusal's message key (an
 * upstream message with {{max}}); without one, the route's field refusal answers. A text holding
 * U+0000 is refused with the route's field refusal: no person types it, and PostgreSQL's text
 * cannot hold it (the same text must be accepted or refused alike on either store).
 */
export const text = (max = 256, tooLong?: string) =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v),
    z
      .string()
      .refine((s) => !s.includes("\u0000"))
      .refine((s) => [...s.trim()].length <= max, { message: tooLong, params: { max } }),
  );
/** The GET cache buster, accepted and ignored. */
export const cacheBuster = { t: z.union([z.string(), z.number()]).optional() };
