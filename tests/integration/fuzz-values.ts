/**
 * Hostile values for the property fuzz tests (fuzz-upstream.test.ts, fuzz-web.test.ts): wrong
 * types, huge, negative and non-numbers, amounts at and beyond every bound (long, tiny and
 * exponent-shaped), unicode, very long strings, arrays, nested objects, SQL-ish text and prototype
 * pollution keys; and the run's seed (PROPERTY_SEED replays a run).
 */
import fc from "fast-check";
import { runSeed } from "../support/lane.js";

/** The run's seed: PROPERTY_SEED replays a run; otherwise a new one, printed so a failure can be replayed. */
export const SEED = runSeed(20261101);

export const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

const hostileText = fc.constantFrom(
  "",
  " ",
  "NaN",
  "-NaN",
  "Infinity",
  "-Infinity",
  "1e308",
  "1e309",
  "-1e308",
  "9007199254740993",
  "99999999999999999999999999999999",
  "-1",
  "-0",
  "0",
  "0.0000000001",
  "1.5",
  "1,5",
  "0x10",
  "1e-7",
  " 1 ",
  "١٢٣",
  "１２３",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  "' OR '1'='1",
  "1; DROP TABLE users; --",
  "1 UNION SELECT * FROM users",
  '"; DELETE FROM ledger; --',
  "%00",
  "\u0000",
  "\uFEFF1",
  "\u202Eevil",
  "💥🔥",
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "__proto__",
  "constructor",
  "${7*7}",
  "{{7*7}}",
  "a".repeat(300),
  "9".repeat(5000),
  "x".repeat(70_000),
);

/**
 * Amount-shaped text at and beyond every bound: long whole numbers (10 to 24 digits, either sign),
 * very small decimals, many decimal places, and exponent forms.
 */
const amountText: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.boolean(), fc.stringMatching(/^[1-9][0-9]{9,23}$/))
    .map(([neg, digits]) => (neg ? `-${digits}` : digits)),
  fc.stringMatching(/^[1-9][0-9]{8,16}\.[0-9]{1,8}$/),
  fc.integer({ min: 1, max: 30 }).map((zeros) => `0.${"0".repeat(zeros)}1`),
  fc
    .tuple(
      fc.stringMatching(/^[1-9](\.[0-9]{1,3})?$/),
      fc.constantFrom("e", "E", "e+", "E-", "e-"),
      fc.integer({ min: 0, max: 400 }),
    )
    .map(([m, e, x]) => `${m}${e}${x}`),
);

/** One scalar value: hostile text, any string, full unicode, numbers of every kind, booleans. */
export const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 2, arbitrary: amountText },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.integer() },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Number.MAX_SAFE_INTEGER + 2,
      -Number.MAX_VALUE,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      -1,
      0,
      1,
    ),
  },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** A field's value: mostly scalars, sometimes arrays or nested objects (also with hostile keys). */
export const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string()), scalar, {
      maxKeys: 3,
    }),
  },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

/**
 * Fields for a form or body: each known field missing, a value or a hostile value, plus sometimes
 * unknown and prototype pollution keys.
 */
export function fieldsFor(names: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const known = fc.record(Object.fromEntries(names.map((n) => [n, value])), {
    requiredKeys: [],
  });
  const extra = fc.dictionary(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string()), value, {
    maxKeys: 2,
  });
  return fc.tuple(known, extra).map(([k, e]) => {
    // Object.assign would run the __proto__ setter: define the keys as own properties.
    const out: Record<string, unknown> = {};
    for (const [key, v] of [...Object.entries(e), ...Object.entries(k)])
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true });
    return out;
  });
}

/** Form-urlencoded text of fields: arrays as repeated fields, objects as a[b]=c, others as text. */
export function formText(fields: Record<string, unknown>): string {
  const p = new URLSearchParams();
  const put = (k: string, v: unknown) => {
    if (Array.isArray(v)) for (const x of v) put(k, x);
    else if (v && typeof v === "object")
      for (const [kk, vv] of Object.entries(v)) put(`${k}[${kk}]`, vv);
    else p.append(k, String(v));
  };
  for (const [k, v] of Object.entries(fields)) put(k, v);
  return p.toString();
}

/** fc.assert options: the seed, and a failure report with long values cut short. */
export function assertOptions(numRuns: number): fc.Parameters<unknown> {
  return {
    numRuns,
    seed: SEED,
    reporter: (details) => {
      if (!details.failed) return;
      const cause = details.errorInstance;
      const msg =
        `${fc.defaultReportMessage(details)}\nCause: ${cause instanceof Error ? cause.message : String(cause)}`.replace(
          /(.)\1{60,}/g,
          (m, c: string) => `${c.repeat(10)}…(${m.length} x ${c})`,
        );
      throw new Error(msg.slice(0, 6000));
    },
  };
}
