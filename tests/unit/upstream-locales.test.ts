import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  LANGS,
  instrumentName,
  normaliseLang,
  translate,
  type Lang,
} from "../../upstream/platform/i18n";
import { LANG_TAG } from "@contract/constants";
import { INSTRUMENT_SEED } from "../../upstream/modules/market/instruments";

const DIR = path.resolve(__dirname, "../../upstream/locales");

type Messages = Record<string, string>;

function filesOf(lang: string): Map<string, Messages> {
  const out = new Map<string, Messages>();
  for (const f of fs
    .readdirSync(path.join(DIR, lang))
    .filter((x) => x.endsWith(".json"))
    .sort())
    out.set(f, JSON.parse(fs.readFileSync(path.join(DIR, lang, f), "utf8")) as Messages);
  return out;
}

const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;
const categoriesOf = (lang: Lang) =>
  [...new Intl.PluralRules(LANG_TAG[lang]).resolvedOptions().pluralCategories].sort();

/** Base keys of a file (a plural message counts once), each with its plural forms, if any. */
function baseKeys(messages: Messages): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const k of Object.keys(messages)) {
    // A plural form only where the message has an "other" form (wallet_too_many is a name).
    const found = PLURAL.exec(k);
    const m = found && `${found[1]}_other` in messages ? found : null;
    const base = m ? m[1] : k;
    if (!out.has(base)) out.set(base, []);
    if (m) out.get(base)!.push(m[2]);
  }
  return out;
}

const placeholders = (text: string) => [...new Set(text.match(/\{\{\w+\}\}/g) ?? [])].sort();

describe("upstream messages", () => {
  it("has a folder for each of the 15 languages and no other", () => {
    const dirs = fs
      .readdirSync(DIR)
      .filter((d) => fs.statSync(path.join(DIR, d)).isDirectory())
      .sort();
    expect(dirs).toEqual([...LANGS].sort());
  });

  it("keeps the same files and base keys in every language", () => {
    const en = filesOf("en");
    for (const lang of LANGS) {
      const other = filesOf(lang);
      expect([...other.keys()], lang).toEqual([...en.keys()]);
      for (const [file, messages] of en)
        expect([...baseKeys(other.get(file)!).keys()].sort(), `${lang}/${file}`).toEqual(
          [...baseKeys(messages).keys()].sort(),
        );
    }
  });

  it("gives each plural message exactly its language's plural categories", () => {
    const en = filesOf("en");
    let plurals = 0;
    for (const [file, messages] of en)
      for (const [base, forms] of baseKeys(messages)) {
        if (!forms.length) continue;
        plurals++;
        for (const lang of LANGS) {
          const theirs = baseKeys(filesOf(lang).get(file)!).get(base) ?? [];
          expect(theirs.sort(), `${lang}/${file}:${base}`).toEqual(categoriesOf(lang));
        }
      }
    expect(plurals).toBeGreaterThanOrEqual(6);
  });

  it("translates every message (no language copies English except proper names)", () => {
    const en = filesOf("en");
    for (const lang of LANGS.filter((l) => l !== "en")) {
      const theirs = filesOf(lang);
      let same = 0;
      let total = 0;
      for (const [file, a] of en) {
        const b = theirs.get(file)!;
        for (const [k, text] of Object.entries(a)) {
          const base = (`${PLURAL.exec(k)?.[1]}_other` in a && PLURAL.exec(k)?.[1]) || k;
          total++;
          if ((b[k] ?? b[`${base}_other`]) === text && /[a-z]{4,}/i.test(text)) same++;
        }
      }
      expect(same / total, `${lang}: share of messages identical to English`).toBeLessThan(0.1);
    }
  });

  it("keeps the placeholders of every message and plural form", () => {
    const en = filesOf("en");
    for (const lang of LANGS) {
      const theirs = filesOf(lang);
      for (const [file, messages] of en) {
        const enBases = baseKeys(messages);
        for (const [k, text] of Object.entries(theirs.get(file)!)) {
          const p = PLURAL.exec(k)?.[1];
          const base = p && enBases.get(p)?.length ? p : k;
          const enText = messages[k] ?? messages[`${base}_other`] ?? messages[base];
          const expected = placeholders(enText);
          const got = placeholders(text);
          if (enBases.get(base)?.length) {
            // A form for one, two or zero may name its number in words instead of {{count}}.
            const named = base !== k && /_(zero|one|two)$/.test(k);
            const want = named ? expected.filter((p) => p !== "{{count}}") : expected;
            expect(
              got.filter((p) => !named || p !== "{{count}}"),
              `${lang}/${file}:${k}`,
            ).toEqual(want);
            if (!named) expect(got, `${lang}/${file}:${k}`).toContain("{{count}}");
          } else expect(got, `${lang}/${file}:${k}`).toEqual(expected);
        }
      }
    }
  });

  it("picks the plural form of the count in each language", () => {
    const wait = (lang: Lang, n: number) => translate(lang, "accounts.code_wait", { count: n });
    expect(wait("en", 1)).toContain("1 second ");
    expect(wait("en", 5)).toContain("5 seconds");
    expect(wait("ru", 1)).toContain("1 секунду");
    expect(wait("ru", 3)).toContain("3 секунды");
    expect(wait("ru", 11)).toContain("11 секунд,");
    expect(wait("ar", 1)).toContain("ثانية واحدة");
    expect(wait("ar", 2)).toContain("ثانيتين");
    expect(wait("ar", 5)).toContain("5 ثوانٍ");
    expect(wait("ar", 25)).toContain("25 ثانية");
    expect(translate("ru", "lots_min", { count: "0.01" })).toContain("0.01 лота");
    expect(translate("ru", "lots_max", { count: "100" })).toContain("100 лотов");
    expect(translate("de", "accounts.sms_body", { code: "123456", count: 1 })).toContain(
      "1 Minute.",
    );
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
