/**
 * A contract schema's parse, compiled: every request's body and query pass through one, and a busy
 * engine takes thousands a second, where zod's own parse of an order's fields costs 70–90 µs (each
 * field is a stack of preprocess, string, regex, transform and refine layers, and each layer builds
 * its own context). The schema is compiled once into one plain function (@duplojs/zod-accelerator)
 * that runs the same preprocess, transform and refine functions in the same order: about 1 µs.
 *
 * Invariants:
 * - The contract stays written once, in zod: the OpenAPI document and the web's forms read the same
 *   schemas; the compiled function is derived from them at start, never written by hand.
 * - The compiled function only ever decides an acceptance. Whatever it does not accept is parsed
 *   again by zod itself, so a refusal (400, which field, which message) is exactly zod's, and a
 *   value it would refuse wrongly costs time, never a wrong answer.
 * - Where it accepts, zod accepts the same value and answers the same data (asserted over every
 *   endpoint of the contract by tests/unit/contract-parse.test.ts).
 * - A schema the compiler cannot take (a kind of node it does not know) is parsed by zod alone.
 */
import { ZodAccelerator } from "@duplojs/zod-accelerator";
import type { SafeParseReturnType, ZodTypeAny, input, output } from "zod";

/** The parse of one schema: zod's safeParse answer, by the compiled function where it accepts. */
export type ContractParse<S extends ZodTypeAny> = (
  data: unknown,
) => SafeParseReturnType<input<S>, output<S>>;

const compiled = new WeakMap<ZodTypeAny, ContractParse<ZodTypeAny>>();

/** What the compiled function answers: the data where it accepts. */
export type Compiled = (data: unknown) => { success: true; data: unknown } | { success: false };

/** `schema`'s compiled function, or null where the compiler does not take it. */
export function compileContract(schema: ZodTypeAny): Compiled | null {
  try {
    const parser = ZodAccelerator.build(schema);
    // A schema whose effects are asynchronous would answer a promise: zod alone parses those.
    if (parser.isAsync) return null;
    return (data) => parser.safeParse(data) as ReturnType<Compiled>;
  } catch {
    return null;
  }
}

/** The parse of `schema` (built once per schema object). */
export function contractParse<S extends ZodTypeAny>(schema: S): ContractParse<S> {
  const known = compiled.get(schema);
  if (known) return known as ContractParse<S>;
  const fast = compileContract(schema);
  const parse: ContractParse<ZodTypeAny> = fast
    ? (data) => {
        let answer: ReturnType<Compiled>;
        try {
          answer = fast(data);
        } catch {
          // One of the schema's own functions threw: zod answers as it would.
          return schema.safeParse(data);
        }
        return answer.success ? { success: true, data: answer.data } : schema.safeParse(data);
      }
    : (data) => schema.safeParse(data);
  compiled.set(schema, parse);
  return parse as ContractParse<S>;
}
