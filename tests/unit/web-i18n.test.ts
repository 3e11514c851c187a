/**
 * Web translations: every language folder has the same namespaces and keys (all namespaces, whoever
 * wrote them), no empty texts, the same {{placeholders}}; and the language rules of the web.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  LANGUAGES,
  HTML_LANG,
  dirOf,
  langFromAcceptLanguage,
  normaliseLang,
  type Lang,
} from "../../app/i18n";
import { translator } from "../../app/translate";
import { detectLang, getT } from "../../app/i18n.server";

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
/** Markup a string carries for <Trans> (e.g. <bdi> isolating a figure in right-to-left text). */
const tags = (s: string) => [...s.matchAll(/<\/?(\w+)>/g)].map((m) => m[0]).sort();

const PLURAL_RE = /^(.*)_(zero|one|two|few|many|other)$/;
const categoriesOf = (l: Lang) =>
  [...new Intl.PluralRules(HTML_LANG[l]).resolvedOptions().pluralCategories].sort();

/**
 * Keys grouped by base: a plain key is { "": text }; a plural message (`k_one`, `k_other`...,
 * recognised by its `_other` form) is its forms by category.
 */
function byBase(flat: Record<string, unknown>): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const [k, v] of Object.entries(flat)) {
    const m = PLURAL_RE.exec(k);
    const plural = m && `${m[1]}_other` in flat;
    const base = plural ? m[1] : k;
    const forms = out.get(base) ?? {};
    forms[plural ? m[2] : ""] = v;
    out.set(base, forms);
  }
  return out;
}

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
    it(`${ns}: same keys (each plural with its language's forms), non-empty strings, the same placeholders and markup`, () => {
      const en = byBase(flatten(JSON.parse(fs.readFileSync(path.join(DIR, "en", ns), "utf8"))));
      for (const l of LANGUAGES) {
        const file = path.join(DIR, l, ns);
        const data = byBase(flatten(JSON.parse(fs.readFileSync(file, "utf8"))));
        expect([...data.keys()].sort(), `${l}/${ns}`).toEqual([...en.keys()].sort());
        for (const [base, forms] of data) {
          const ref = en.get(base)!;
          const refOther = ref.other ?? ref[""];
          if (!("" in ref))
            expect(Object.keys(forms).sort(), `${l}/${ns} ${base} plural forms`).toEqual(
              categoriesOf(l),
            );
          for (const [form, v] of Object.entries(forms)) {
            expect(typeof v, `${l}/${ns} ${base}_${form}`).toBe("string");
            expect((v as string).trim().length, `${l}/${ns} ${base}_${form}`).toBeGreaterThan(0);
            expect(placeholders(v as string), `${l}/${ns} ${base}_${form}`).toEqual(
              placeholders(refOther as string),
            );
            expect(tags(v as string), `${l}/${ns} ${base}_${form} markup`).toEqual(
              tags(refOther as string),
            );
          }
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

  it("detects a page request's language once, whoever asks (root, loaders, upstream client, render)", async () => {
    const { localeCookie } = await import("../../app/i18n.server");
    const { callerFor } = await import("../../app/upstream/client.server");
    const cookie = (await localeCookie.serialize("de")).split(";")[0];
    const parse = vi.spyOn(localeCookie, "parse");
    try {
      const request = new Request("http://x/trade", { headers: { Cookie: cookie } });
      // What one document request does: the root loader and entry.server's render call detectLang,
      // each loader's upstream caller carries the language, loaders translate with getT.
      const langs = [
        await detectLang(request),
        (await callerFor(request)).lang,
        (await callerFor(request)).lang,
        await detectLang(request),
      ];
      await getT(request, "common");
      expect(langs).toEqual(["de", "de", "de", "de"]);
      expect(parse).toHaveBeenCalledTimes(1);
      // Another request is detected on its own.
      expect(await detectLang(new Request("http://x/", { headers: { Cookie: cookie } }))).toBe(
        "de",
      );
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });
});

describe("plurals", () => {
  const cases: [Lang, number, string][] = [
    ["en", 1, "At least 1 lot"],
    ["en", 2, "At least 2 lots"],
    ["ru", 1, "Не менее 1 лота"],
    ["ru", 3, "Не менее 3 лотов"],
    ["ru", 0.5, "Не менее 0.5 лота"],
    ["ar", 3, "3 لوتات على الأقل"],
    ["ar", 11, "11 لوتًا على الأقل"],
    ["jp", 1, "1 ロット以上にしてください"],
    ["hk", 1, "最少 1 手"],
    ["fr", 1, "Au moins 1 lot"],
  ];

  it("picks each language's form on the server, by the language's BCP 47 tag", async () => {
    for (const [lng, n, text] of cases) {
      const t = await getT(lng, ["trade"]);
      expect(t("trade:errors.cont_min", { min: n, count: n }), `${lng} ${n}`).toBe(text);
    }
  });

  it("picks the same forms in the screens' translator (app/translate.ts)", () => {
    for (const [lng, n, text] of cases) {
      const trade = JSON.parse(fs.readFileSync(path.join(DIR, lng, "trade.json"), "utf8"));
      expect(translator(lng, { trade }, ["trade"])("errors.cont_min", { min: n, count: n })).toBe(
        text,
      );
    }
    // By our code instead of its tag, Japanese would take the English "one" form, which it does not have.
    expect(new Intl.PluralRules("jp").resolvedOptions().pluralCategories).toContain("one");
  });
});
