/**
 * The default market as data: seed/categories.json (id, sort, a name in every language of
 * @contract/constants LANGS) and seed/instruments.json (code, display code, category, session,
 * quote currency, figures), in the order they are seeded (an instrument's `sort` is its position).
 * Both are read and checked once at start-up; a malformed file stops start-up with an error naming
 * the file, the entry and the field.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { LANGS, type Lang } from "@contract/constants";
import { SESSIONS, type Session } from "./hours.js";

/** Where the seed files are (beside this module, under seed/). */
export const SEED_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "seed");

const text = z.string().regex(/\S/, "must not be blank");

/** A name in every language, in LANGS order (the order it is stored in, as JSON). */
const namesSchema = z
  .object(Object.fromEntries(LANGS.map((lang) => [lang, text])) as Record<Lang, typeof text>)
  .strict();

export type Names = Record<Lang, string>;

export const categorySeedSchema = z
  .object({
    id: z.number().int().positive(),
    sort: z.number().int(),
    names: namesSchema,
  })
  .strict();

export type CategorySeed = z.infer<typeof categorySeedSchema>;

export const instrumentSeedSchema = z
  .object({
    /** Trading code, also the logo's file name (/static/logos/{code}.svg). */
    code: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "must be 1-32 letters, digits, _ or -"),
    /** Display code (show_code). */
    show: text,
    /** Id of a seeded category. */
    category: z.number().int().positive(),
    session: z.enum(SESSIONS as readonly Session[] as [Session, ...Session[]]),
    /** Quote currency (ISO code). */
    quote: z.string().regex(/^[A-Z]{3}$/, "must be a three-letter currency code"),
    /** Decimals of a price. */
    precision: z.number().int().min(0).max(10),
    /** Contract size (units per lot). */
    cont: z.number().positive(),
    /** Leverage multiples offered (empty: none). */
    multiples: z.array(z.number().int().positive()),
    /** Fee rate, a decimal text. */
    fee: z.string().regex(/^\d+(\.\d+)?$/, "must be a decimal text such as 0.002"),
    /** Base price: where generated history ends. */
    price: z.number().positive(),
    /** Yearly volatility, e.g. 0.08 = 8 %. */
    vol: z.number().positive(),
  })
  .strict();

export type InstrumentSeed = z.infer<typeof instrumentSeedSchema>;

export interface MarketSeed {
  categories: CategorySeed[];
  instruments: InstrumentSeed[];
}

/** Thrown for a seed file that cannot be read or does not match its schema. */
export class SeedError extends Error {
  override name = "SeedError";
}

function readArray(file: string): unknown[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new SeedError(`market seed ${file}: ${(err as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new SeedError(`market seed ${file}: must be a JSON array`);
  return raw;
}

/** Parses every entry of a seed file; the first bad one is named by position (and code or id). */
function parseEntries<T>(file: string, schema: z.ZodType<T>, label: (e: unknown) => string): T[] {
  return readArray(file).map((entry, i) => {
    const r = schema.safeParse(entry);
    if (r.success) return r.data;
    const issues = r.error.issues
      .map((is) => `${is.path.length ? is.path.join(".") : "(entry)"}: ${is.message}`)
      .join("; ");
    throw new SeedError(`market seed ${file}: entry ${i + 1}${label(entry)}: ${issues}`);
  });
}

const labelBy = (key: string) => (e: unknown) => {
  const v = e && typeof e === "object" ? (e as Record<string, unknown>)[key] : undefined;
  return typeof v === "string" || typeof v === "number" ? ` (${key} ${v})` : "";
};

/** Reads and checks seed/categories.json and seed/instruments.json (ids and codes unique, categories known). */
export function loadMarketSeed(dir: string = SEED_DIR): MarketSeed {
  const catFile = path.join(dir, "categories.json");
  const instFile = path.join(dir, "instruments.json");
  const categories = parseEntries(catFile, categorySeedSchema, labelBy("id"));
  const instruments = parseEntries(instFile, instrumentSeedSchema, labelBy("code"));
  const ids = new Set<number>();
  categories.forEach((c, i) => {
    if (ids.has(c.id))
      throw new SeedError(`market seed ${catFile}: entry ${i + 1} (id ${c.id}): id is repeated`);
    ids.add(c.id);
  });
  const codes = new Set<string>();
  instruments.forEach((s, i) => {
    const at = `market seed ${instFile}: entry ${i + 1} (code ${s.code})`;
    if (codes.has(s.code.toUpperCase())) throw new SeedError(`${at}: code is repeated`);
    codes.add(s.code.toUpperCase());
    if (!ids.has(s.category))
      throw new SeedError(`${at}: category: no category ${s.category} in categories.json`);
  });
  return { categories, instruments };
}
