/**
 * Web translations: every language folder has the same namespaces and keys (all namespaces, whoever
 * wrote them), no empty texts, the same {{placeholders}}; and the language rules of the web.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES, HTML_LANG, dirOf, langFromAcceptLanguage, normaliseLang } from "../../app/i18n";
import { detectLang } from "../../app/i18n.server";

const DIR = path.resolve("locales");

function flatten(
  obj: unknown,
  prefix = "",
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  if (obj && typeof obj === "object" && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = obj;
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("locale files", () => {
  const folders = fs
    .readdirSync(DIR)
    .filter((f) => fs.statSync(path.join(DIR, f)).isDirectory())
    .sort();

  it("has exactly the 15 language folders", () => {
    expect(folders).toEqual([...LANGUAGES].sort());
  });

  it("every language has the same namespaces", () => {
    const ref = fs
      .readdirSync(path.join(DIR, "en"))
      .filter((f) => f.endsWith(".json"))
      .sort();
    expect(ref).toContain("common.json");
    expect(ref).toContain("auth.json");
    for (const l of LANGUAGES) {
      expect(
        fs
          .readdirSync(path.join(DIR, l))
          .filter((f) => f.endsWith(".json"))
          .sort(),
        l,
      ).toEqual(ref);
    }
  });

  const namespaces = fs.readdirSync(path.join(DIR, "en")).filter((f) => f.endsWith(".json"));
  for (const ns of namespaces) {
    it(`${ns}: same keys, non-empty strings and the same placeholders in every language`, () => {
      const en = flatten(JSON.parse(fs.readFileSync(path.join(DIR, "en", ns), "utf8")));
      const keys = Object.keys(en).sort();
      for (const l of LANGUAGES) {
        const file = path.join(DIR, l, ns);
        const data = flatten(JSON.parse(fs.readFileSync(file, "utf8")));
        expect(Object.keys(data).sort(), `${l}/${ns}`).toEqual(keys);
        for (const k of keys) {
          const v = data[k];
          expect(typeof v, `${l}/${ns} ${k}`).toBe("string");
          expect((v as string).trim().length, `${l}/${ns} ${k}`).toBeGreaterThan(0);
          expect(placeholders(v as string), `${l}/${ns} ${k}`).toEqual(
            placeholders(en[k] as string),
          );
        }
      }
    });
  }

  it("is really translated: most texts differ from English", () => {
    const en = flatten(JSON.parse(fs.readFileSync(path.join(DIR, "en", "auth.json"), "utf8")));
    for (const l of LANGUAGES.filter((x) => x !== "en")) {
      const data = flatten(JSON.parse(fs.readFileSync(path.join(DIR, l, "auth.json"), "utf8")));
      const same = Object.keys(en).filter((k) => data[k] === en[k]).length;
      expect(same / Object.keys(en).length, l).toBeLessThan(0.25);
    }
  });
});

describe("language rules", () => {
  it("maps tw to hk and rejects unknown codes", () => {
    expect(normaliseLang("tw")).toBe("hk");
    expect(normaliseLang("SPA")).toBe("spa");
    expect(normaliseLang("zz")).toBeNull();
  });

  it("gives BCP 47 tags and right-to-left for Arabic only", () => {
    expect(HTML_LANG.hk).toBe("zh-Hant-HK");
    expect(HTML_LANG.jp).toBe("ja");
    expect(HTML_LANG.kr).toBe("ko");
    expect(HTML_LANG.vn).toBe("vi");
    expect(HTML_LANG.spa).toBe("es");
    expect(LANGUAGES.filter((l) => dirOf(l) === "rtl")).toEqual(["ar"]);
  });

  it("reads Accept-Language by quality", () => {
    expect(langFromAcceptLanguage("ja-JP,ja;q=0.9,en;q=0.8")).toBe("jp");
    expect(langFromAcceptLanguage("xx;q=1, es-MX;q=0.7, en;q=0.5")).toBe("spa");
    expect(langFromAcceptLanguage("en;q=0.2, zh-TW;q=0.9")).toBe("hk");
    expect(langFromAcceptLanguage("xx, yy")).toBeNull();
    expect(langFromAcceptLanguage(null)).toBeNull();
  });

  it("detects ?lng first, then the cookie, then Accept-Language, then en", async () => {
    const { localeCookie } = await import("../../app/i18n.server");
    const cookie = (await localeCookie.serialize("de")).split(";")[0];
    const r = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });
    expect(
      await detectLang(r("http://x/?lng=tw", { Cookie: cookie, "Accept-Language": "fr" })),
    ).toBe("hk");
    expect(
      await detectLang(r("http://x/?lng=bogus", { Cookie: cookie, "Accept-Language": "fr" })),
    ).toBe("de");
    expect(await detectLang(r("http://x/", { "Accept-Language": "fr-CA,fr;q=0.9" }))).toBe("fr");
    expect(await detectLang(r("http://x/"))).toBe("en");
  });
});
