/**
 * Request schemas of the routes (zod, through fastify-type-provider-zod): they validate the shape
 * of a request and are published as the OpenAPI document (/openapi.json). They are lenient on
 * purpose: a field may arrive as a form string or a JSON number (or a repeated form field, whose
 * first value counts), and unknown fields pass through; the module's rules then give the precise,
 * translated refusal of a bad value, as the API always has. Only a value no rule can read (an
 * object where a field is expected) fails the schema, answered by platform/http/errors.ts.
 */
import { z, type ZodRawShape } from "zod";

/** A repeated field counts by its first value, null as absent, a JSON boolean as its text. */
function scalarOf(v: unknown): unknown {
  const one = Array.isArray(v) ? v[0] : v;
  if (one === null) return undefined;
  return typeof one === "boolean" ? String(one) : one;
}

/** One form, JSON or query field (text or number), described for the OpenAPI document. */
export function field(description: string) {
  return z.preprocess(scalarOf, z.union([z.string(), z.number()]).optional()).describe(description);
}

/** A body or query of named fields; any other field passes through. */
export function fields<S extends ZodRawShape>(shape: S) {
  return z.preprocess((v) => (v && typeof v === "object" && !Array.isArray(v) ? v : {}), z.object(shape).passthrough());
}

/** The `t` cache-buster of GET requests: accepted and ignored. */
export const cacheBuster = { t: field("cache buster (accepted and ignored)") };

/** Headers of calls that need the session token. */
export const tokenHeader = z.object({ authorization: z.string().optional().describe("session token (bare, or `Bearer TOKEN`)") }).passthrough();

/** Headers of money and order calls. */
export const idempotencyHeader = z
  .object({
    authorization: z.string().optional().describe("session token (bare, or `Bearer TOKEN`)"),
    "idempotency-key": z.string().optional().describe("the same key from the same account answers the first response"),
  })
  .passthrough();
