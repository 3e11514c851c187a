/**
 * The default market's seed files (upstream/modules/market/seed/): they parse against their schema,
 * every category is named in every language of the API, every instrument has a display name in each
 * of them, and a malformed entry stops loading with an error naming the file, the entry and the field.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LANGS, instrumentName } from "../../upstream/platform/i18n";
import { SEED_DIR, SeedError, loadMarketSeed } from "../../upstream/modules/market/seed";

const tmpDirs: string[] = [];

/** A copy of the seed directory with one file's entries changed by `edit`. */
function seedWith(file: string, edit: (entries: Record<string, unknown>[]) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "market-seed-"));
  tmpDirs.push(dir);
  for (const f of ["categories.json", "instruments.json"]) {
    const entries = JSON.parse(fs.readFileSync(path.join(SEED_DIR, f), "utf8")) as Record<
      string,
      unknown
    >[];
    if (f === file) edit(entries);
    fs.writeFileSync(path.join(dir, f), JSON.stringify(entries));
  }
  return dir;
}

afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("market seed", () => {
  const seed = loadMarketSeed();

  it("parses, with unique category ids and instrument codes", () => {
    expect(seed.categories.length).toBeGreaterThan(0);
    expect(seed.instruments.length).toBeGreaterThan(0);
    const ids = seed.categories.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const codes = seed.instruments.map((s) => s.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("names every category in each language", () => {
    for (const c of seed.categories)
      for (const lang of LANGS) expect(c.names[lang]?.trim(), `${c.id} ${lang}`).toBeTruthy();
  });

  it("gives every instrument a name in each language", () => {
    for (const s of seed.instruments)
      for (const lang of LANGS)
        expect(instrumentName(lang, s.code, s.show).trim(), `${s.code} ${lang}`).toBeTruthy();
  });

  it("refuses a category without a name in one language, naming the entry", () => {
    const dir = seedWith("categories.json", (entries) => {
      delete (entries[2].names as Record<string, string>).th;
    });
    expect(() => loadMarketSeed(dir)).toThrow(SeedError);
    expect(() => loadMarketSeed(dir)).toThrow(/categories\.json: entry 3 \(id 3\): names\.th/);
  });

  it("refuses a malformed instrument, naming the entry and the field", () => {
    const dir = seedWith("instruments.json", (entries) => {
      entries[1].price = "1.27";
    });
    expect(() => loadMarketSeed(dir)).toThrow(/instruments\.json: entry 2 \(code GBPUSD\): price/);
  });

  it("refuses an instrument of an unknown category and a repeated code", () => {
    const unknown = seedWith("instruments.json", (entries) => {
      entries[0].category = 99;
    });
    expect(() => loadMarketSeed(unknown)).toThrow(/entry 1 \(code EURUSD\): category/);
    const repeated = seedWith("instruments.json", (entries) => {
      entries.push({ ...entries[0] });
    });
    expect(() => loadMarketSeed(repeated)).toThrow(/\(code EURUSD\): code is repeated/);
  });
});
