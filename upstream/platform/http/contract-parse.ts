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

/** What the compiled function answers: the data where it accepts. */
export type Compiled = (data: unknown) => { success: true; data: unknown } | { success: false };

/** The parse of one schema: zod's safeParse answer, by the compiled function where it accepts. */
export type ContractParse<S extends ZodTypeAny> = (
  data: unknown,
) => SafeParseReturnType<input<S>, output<S>>;

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

const accepters = new WeakMap<ZodTypeAny, Compiled>();

/**
 * What `schema`'s compiled function accepts (built once per schema object): its data, or
 * `{ success: false }` for everything the caller must hand to zod (a value it does not accept, one
 * of the schema's own functions throwing, a schema it cannot compile).
 */
export function contractAccept(schema: ZodTypeAny): Compiled {
  const known = accepters.get(schema);
  if (known) return known;
  const fast = compileContract(schema);
  const accept: Compiled = fast
    ? (data) => {
        try {
          return fast(data);
        } catch {
          return { success: false };
        }
      }
    : () => ({ success: false });
  accepters.set(schema, accept);
  return accept;
}

/** The parse of `schema`: the compiled acceptance, else zod's own answer. */
export function contractParse<S extends ZodTypeAny>(schema: S): ContractParse<S> {
  const accept = contractAccept(schema);
  return (data) => {
    const read = accept(data);
    return read.success ? { success: true, data: read.data as output<S> } : schema.safeParse(data);
  };
}
