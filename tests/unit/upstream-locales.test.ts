import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGS, instrumentName, normaliseLang, translate } from "../../upstream/platform/i18n";
import { INSTRUMENT_SEED } from "../../upstream/modules/market/instruments";

const DIR = path.resolve(__dirname, "../../upstream/locales");

function keysOf(lang: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of fs
    .readdirSync(path.join(DIR, lang))
    .filter((x) => x.endsWith(".json"))
    .sort()) {
    out.set(f, Object.keys(JSON.parse(fs.readFileSync(path.join(DIR, lang, f), "utf8"))).sort());
  }
  return out;
}

describe("upstream messages", () => {
  it("has a folder for each of the 15 languages and no other", () => {
    const dirs = fs
      .readdirSync(DIR)
      .filter((d) => fs.statSync(path.join(DIR, d)).isDirectory())
      .sort();
    expect(dirs).toEqual([...LANGS].sort());
  });

  it("keeps the same files and keys in every language", () => {
    const en = keysOf("en");
    for (const lang of LANGS) {
      const other = keysOf(lang);
      expect([...other.keys()], lang).toEqual([...en.keys()]);
      for (const [file, keys] of en) expect(other.get(file), `${lang}/${file}`).toEqual(keys);
    }
  });

  it("translates every message (no language copies English except proper names)", () => {
    const en = keysOf("en");
    for (const lang of LANGS.filter((l) => l !== "en")) {
      let same = 0;
      let total = 0;
      for (const [file] of en) {
        const a = JSON.parse(fs.readFileSync(path.join(DIR, "en", file), "utf8")) as Record<
          string,
          string
        >;
        const b = JSON.parse(fs.readFileSync(path.join(DIR, lang, file), "utf8")) as Record<
          string,
          string
        >;
        for (const k of Object.keys(a)) {
          total++;
          if (a[k] === b[k] && /[a-z]{4,}/i.test(a[k])) same++;
        }
      }
      expect(same / total, `${lang}: share of messages identical to English`).toBeLessThan(0.1);
    }
  });

  it("keeps the placeholders of every message", () => {
    const en = keysOf("en");
    for (const lang of LANGS) {
      for (const [file] of en) {
        const a = JSON.parse(fs.readFileSync(path.join(DIR, "en", file), "utf8")) as Record<
          string,
          string
        >;
        const b = JSON.parse(fs.readFileSync(path.join(DIR, lang, file), "utf8")) as Record<
          string,
          string
        >;
        for (const k of Object.keys(a)) {
          const ph = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
          expect(ph(b[k]), `${lang}/${file}:${k}`).toEqual(ph(a[k]));
        }
      }
    }
  });

  it("maps tw to hk, unknown to en, and fills placeholders", () => {
    expect(normaliseLang("tw")).toBe("hk");
    expect(normaliseLang("xx")).toBe("en");
    expect(translate("en", "invalid_input", { field: "account" })).toBe("Please complete: account");
    expect(translate("ar", "not_found")).not.toBe(translate("en", "not_found"));
  });
});

describe("instrument names", () => {
  const named = ["XAUUSD", "XAGUSD", "XPTUSD", "USOIL", "UKOIL", "NGAS"];

  it("every metal and energy has its own name in every language", () => {
    for (const code of named) {
      expect(
        INSTRUMENT_SEED.some((s) => s.code === code),
        code,
      ).toBe(true);
      for (const lang of LANGS) {
        const name = instrumentName(lang, code, "?");
        expect(name, `${lang} ${code}`).not.toBe("?");
        expect(name.trim().length, `${lang} ${code}`).toBeGreaterThan(0);
      }
      // Translated, not the English name copied.
      const en = instrumentName("en", code, "?");
      expect(LANGS.filter((l) => instrumentName(l, code, "?") !== en).length).toBeGreaterThan(10);
    }
  });

  it("keeps the stored show code for pairs, indices and companies", () => {
    expect(instrumentName("ru", "EURUSD", "EUR/USD")).toBe("EUR/USD");
    expect(instrumentName("hk", "AAPL", "Apple")).toBe("Apple");
  });
});
