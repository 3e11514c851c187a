/**
 * The compiled parse of the contract's request schemas (upstream/platform/http/contract-parse.ts)
 * answers what zod answers: over every endpoint's body and query, as the route validates them, with
 * well-formed, borderline and hostile fields, a value the compiled function accepts is one zod
 * accepts, with the same data; and the parse the routes use is zod's safeParse answer, refusals
 * included. Every schema of the contract compiles, so no endpoint falls back to zod's slower parse
 * for what it accepts. PROPERTY_SEED replays a run.
 */
import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z, type ZodTypeAny } from "zod";
import type { EndpointDef } from "@contract/api/endpoint";
import { compileContract, contractParse } from "../../upstream/platform/http/contract-parse";
import { wireSchemasOf } from "../../upstream/platform/http/route";
import { SEED, scalar } from "../integration/fuzz-values";
import { byLane } from "../support/lane";

const root = path.resolve(__dirname, "../..");
/** Inputs per schema: a fixed seed in `npm test`, more and a new seed in the full lane. */
const RUNS = byLane(50, 500);
/** The bound of the property's run (161 schemas; alone it takes 1.5 s in `npm test`, 15 s in full). */
const PROPERTY_MS = byLane(60_000, 300_000);

/** Every endpoint of the contract, named "METHOD path". */
async function endpoints(): Promise<[string, EndpointDef][]> {
  const out: [string, EndpointDef][] = [];
  for (const file of fs.readdirSync(path.join(root, "contract/api")).sort()) {
    if (!file.endsWith(".ts") || file === "endpoint.ts" || file.endsWith("-rules.ts")) continue;
    const mod = (await import(/* @vite-ignore */ path.join(root, "contract/api", file))) as Record<
      string,
      unknown
    >;
    for (const def of Object.values(mod))
      if (def && typeof def === "object" && "method" in def && "path" in def && "summary" in def) {
        const d = def as EndpointDef;
        out.push([`${d.method} ${d.path}`, d]);
      }
  }
  return out;
}

/** The object schema inside a wire schema (preprocess, extend, refine around it). */
function objectOf(schema: ZodTypeAny): z.AnyZodObject | null {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodEffects) return objectOf(schema.innerType());
  return null;
}

/** The values a field's schema names: its enum's and literals' values, anywhere inside it. */
function namedValues(schema: ZodTypeAny, out: unknown[] = [], depth = 0): unknown[] {
  if (depth > 6) return out;
  const def = schema._def as Record<string, unknown>;
  if (schema instanceof z.ZodEnum) out.push(...(schema.options as unknown[]));
  if (schema instanceof z.ZodLiteral) out.push(schema.value);
  if (schema instanceof z.ZodNativeEnum) out.push(...Object.values(schema.enum as object));
  for (const key of ["innerType", "schema", "type", "in", "out", "left", "right"]) {
    const inner = def[key];
    if (inner instanceof z.ZodType) namedValues(inner, out, depth + 1);
  }
  if (schema instanceof z.ZodUnion)
    for (const o of schema.options as ZodTypeAny[]) namedValues(o, out, depth + 1);
  return out;
}

/** Well-formed values of the shapes the contract's fields take. */
const wellFormed = fc.constantFrom<unknown>(
  "1",
  "2",
  "0",
  "3",
  "10",
  "100",
  "0.01",
  "0.10",
  "1.08520",
  ".5",
  "12.",
  "",
  " 7 ",
  1,
  2,
  0,
  0.5,
  100,
  "gtc",
  "day",
  "date",
  "2026-12-01 10:00",
  "2026-12-01T10:00:30",
  "en",
  "zh-CN",
  "USD",
  "usdt",
  "a@example.test",
  "+15550100",
  "Tr4de-post!e2e",
  "hello",
  "true",
  "false",
  "on",
  "1,2,3",
  "EURUSD",
  "-5",
  "1e3",
);

/** Fields for an object schema: each known field absent, named, well-formed or hostile. */
function fieldsFor(shape: Record<string, ZodTypeAny>): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(
    Object.entries(shape).map(([name, field]) => {
      const named = namedValues(field);
      const options: fc.Arbitrary<unknown>[] = [wellFormed, scalar];
      if (named.length) options.push(fc.constantFrom(...named));
      return [name, fc.oneof(...options, fc.array(wellFormed, { maxLength: 2 }))];
    }),
  );
  return fc.record(fields, { requiredKeys: [] });
}

/**
 * A refusal's issues as data: a union's issues hold the ZodErrors of its options, and each ZodError
 * carries functions of its own, which no two parses share.
 */
function issuesOf(error: z.ZodError): unknown {
  return JSON.parse(
    JSON.stringify(error.issues, (_k, v: unknown) => (Number.isNaN(v) ? "NaN" : v)),
  );
}

describe("the compiled parse of the contract's request schemas", async () => {
  const schemas = (await endpoints()).flatMap(([name, def]) =>
    wireSchemasOf(def).map(
      (schema, i) => [`${name} ${i === 0 && def.body ? "body" : "query"}`, schema] as const,
    ),
  );

  it("takes every body and query of the contract", () => {
    const refused = schemas.filter(([, s]) => !compileContract(s)).map(([n]) => n);
    expect(refused).toEqual([]);
    expect(schemas.length).toBeGreaterThan(100);
  });

  it(
    "accepts only what zod accepts, with the same data, and answers zod's refusals",
    () => {
      let accepted = 0;
      for (const [name, schema] of schemas) {
        const shape = objectOf(schema)?.shape as Record<string, ZodTypeAny> | undefined;
        if (!shape) throw new Error(`${name}: not an object schema`);
        const compiled = compileContract(schema)!;
        const parse = contractParse(schema);
        fc.assert(
          fc.property(fieldsFor(shape), (fields) => {
            const zod = schema.safeParse(fields);
            const fast = compiled(fields);
            if (fast.success) {
              accepted++;
              expect({ name, ...zod }).toEqual({ name, success: true, data: fast.data });
            }
            const routed = parse(fields);
            expect(routed.success).toBe(zod.success);
            if (routed.success) expect(routed.data).toEqual(zod.data);
            else expect(issuesOf(routed.error!)).toEqual(issuesOf(zod.error!));
          }),
          { seed: SEED, numRuns: RUNS },
        );
      }
      // The generated fields reach the accepted path, not only refusals.
      expect(accepted).toBeGreaterThan(schemas.length * (RUNS / 10));
    },
    PROPERTY_MS,
  );

  it("an order's fields as a form sends them: the same data as zod's", () => {
    const [, submitBody] = schemas.find(([n]) => n === "POST /v1/api/forex/submit body")!;
    const fields = { type: "1", cont: "0.10", forex_id: "3", multiple: "100", stop_loss_pips: "" };
    const read = contractParse(submitBody)(fields);
    expect(read).toEqual(submitBody.safeParse(fields));
    expect(read.success && read.data).toMatchObject({ type: 1, cont: "0.10", expiry: "gtc" });
    expect(compileContract(submitBody)!(fields).success).toBe(true);
  });
});
