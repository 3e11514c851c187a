/**
 * The screens' translator (app/translate.ts, decision 0043) says what i18next says: every key of
 * every namespace of every language, with its placeholders filled and, for a plural, a spread of
 * counts, gives the same text as the server's i18next instance of that language. And the catalog
 * behind useTranslation loads what a screen asks for, and changes language only once the new one
 * is there.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../app/i18n";
import { instanceFor, loadResources } from "../../app/i18n.server";
import { interpolate, translator, type Bundle } from "../../app/translate";
import { renderToStaticMarkup } from "react-dom/server";
import { Catalog, Translations, useTranslation } from "../../app/translation";

const DIR = path.resolve("locales");
const NAMESPACES = fs
  .readdirSync(path.join(DIR, "en"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -5));
const COUNTS = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 14, 21, 22, 25, 100, 101, 102, 111, 1000, 0.5, 1.5];
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every key as i18next addresses it ("a.b"), plural forms folded into their base key. */
function keysOf(bundle: Bundle, prefix = ""): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(bundle)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out.add(key.replace(PLURAL, ""));
    else for (const inner of keysOf(v, key)) out.add(inner);
  }
  return out;
}

function textAt(bundle: Bundle, key: string, all: string[] = []): string[] {
  for (const [k, v] of Object.entries(bundle))
    if (typeof v === "string") {
      if (k === key || k.replace(PLURAL, "") === key) all.push(v);
    } else if (key.startsWith(`${k}.`)) textAt(v, key.slice(k.length + 1), all);
  return all;
}

describe("the screens' translator against i18next", () => {
  const resources = loadResources() as Record<string, Record<string, Bundle>>;

  it("reads the same files: 15 languages, every namespace", () => {
    expect(Object.keys(resources).sort()).toEqual([...LANGUAGES].sort());
    for (const l of LANGUAGES) expect(Object.keys(resources[l]).sort()).toEqual(NAMESPACES.sort());
  });

  for (const lang of LANGUAGES)
    it(`${lang}: every key, with its placeholders and plural counts, as i18next gives it`, async () => {
      const i18n = await instanceFor(lang);
      let compared = 0;
      for (const ns of NAMESPACES) {
        const ours = translator(lang, resources[lang], [ns]);
        const theirs = i18n.getFixedT(lang, ns);
        for (const key of keysOf(resources[lang][ns])) {
          const names = new Set(
            textAt(resources[lang][ns], key).flatMap((s) =>
              [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]),
            ),
          );
          const values = Object.fromEntries([...names].map((n) => [n, `‹${n}›`]));
          const plural = textAt(resources[lang][ns], key).length > 1;
          const options = plural ? COUNTS.map((count) => ({ ...values, count })) : [values];
          for (const o of [undefined, ...options]) {
            expect(ours(key, o), `${lang} ${ns}:${key} ${JSON.stringify(o)}`).toBe(
              theirs(key, o as never),
            );
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(1000);
    });

  it("resolves keys as i18next does: ns:key, namespaces in order, lists, defaults, missing keys", async () => {
    const en = resources.en;
    const ours = translator("en", en, ["trade", "common"]);
    const theirs = (await instanceFor("en")).getFixedT("en", ["trade", "common"]);
    const cases: [string | string[], Record<string, unknown> | undefined][] = [
      ["common:app_name", undefined],
      ["app_name", undefined],
      ["errors.cont_min", { min: 2, count: 2 }],
      [["trade:no_such_key", "common:app_name"], undefined],
      [["trade:no_such_key", "common:none_either"], undefined],
      ["no_such_key", undefined],
      ["no_such_key", { defaultValue: "Fallback {{x}}", x: "1" }],
    ];
    for (const [key, o] of cases)
      expect(ours(key, o as never), JSON.stringify(key)).toBe(theirs(key as string, o as never));
    // A key naming a group of texts: i18next answers with a sentence about it, this with the key.
    expect(ours("trade:errors")).toBe("errors");
  });

  it("interpolates as i18next does: text values, undefined and null empty, unknown names kept", async () => {
    const i18n = await instanceFor("en");
    const cases: Record<string, unknown>[] = [
      { a: "x", b: 2 },
      { a: undefined, b: null },
      { a: "{{b}}", b: "y" },
      { a: "$&", b: "$1" },
      {},
    ];
    for (const o of cases)
      expect(interpolate("[{{a}}] [{{ b }}] [{{c}}]", o), JSON.stringify(o)).toBe(
        i18n.services.interpolator.interpolate("[{{a}}] [{{ b }}] [{{c}}]", o, "en", o),
      );
  });
});

describe("the catalog behind useTranslation", () => {
  const bundles: Record<string, Record<string, Bundle>> = {
    en: { common: { hi: "Hello" }, trade: { buy: "Buy" } },
    de: { common: { hi: "Hallo" }, trade: { buy: "Kaufen" } },
  };
  const fetcher = () => {
    const asked: string[] = [];
    const gates = new Map<string, () => void>();
    const fetchBundle = (lang: string, ns: string) => {
      asked.push(`${lang}/${ns}`);
      return new Promise<Bundle>((resolve, reject) =>
        gates.set(`${lang}/${ns}`, () =>
          bundles[lang]?.[ns] ? resolve(bundles[lang][ns]) : reject(new Error(`404 ${ns}`)),
        ),
      );
    };
    return { asked, open: (id: string) => gates.get(id)!(), fetchBundle };
  };

  it("shows keys for a namespace not yet loaded, then its text; each file is read once", async () => {
    const f = fetcher();
    const catalog = new Catalog("en", { common: bundles.en.common }, f.fetchBundle);
    let changes = 0;
    catalog.subscribe(() => changes++);
    expect(catalog.translator(["trade"])("buy")).toBe("buy");
    const first = catalog.load("en", ["common", "trade"]);
    const second = catalog.load("en", ["trade"]);
    expect(f.asked).toEqual(["en/trade"]);
    f.open("en/trade");
    await Promise.all([first, second]);
    expect(catalog.translator(["trade"])("buy")).toBe("Buy");
    expect(changes).toBe(1);
  });

  it("changes language only once every namespace in use is loaded, and the latest choice wins", async () => {
    const f = fetcher();
    const catalog = new Catalog("en", bundles.en, f.fetchBundle);
    const toDe = catalog.changeLanguage("de");
    expect(f.asked.sort()).toEqual(["de/common", "de/trade"]);
    f.open("de/common");
    await Promise.resolve();
    expect(catalog.language).toBe("en");
    f.open("de/trade");
    await toDe;
    expect(catalog.language).toBe("de");
    expect(catalog.translator(["common", "trade"])("buy")).toBe("Kaufen");

    // A change overtaken by another: the screens never show the first one.
    const toFr = catalog.changeLanguage("fr");
    const back = catalog.changeLanguage("de");
    await back;
    await Promise.all(["fr/common", "fr/trade"].map((id) => (f.open(id), toFr)));
    expect(catalog.language).toBe("de");
  });

  it("keeps a namespace that failed to load missing, and loads it again when asked again", async () => {
    const f = fetcher();
    const catalog = new Catalog("en", {}, f.fetchBundle);
    const gone = catalog.load("en", ["nothing"]);
    f.open("en/nothing");
    await gone;
    expect(catalog.translator(["nothing"])("x")).toBe("x");
    void catalog.load("en", ["nothing"]);
    expect(f.asked).toEqual(["en/nothing", "en/nothing"]);
  });

  it("tells a navigation what to wait for: the declared namespaces missing, loaded once, then nothing", async () => {
    const f = fetcher();
    const catalog = new Catalog("en", { common: bundles.en.common }, f.fetchBundle);
    expect(catalog.whenLoaded(["common"])).toBeNull();
    const waiting = catalog.whenLoaded(["common", "trade"]);
    expect(waiting).toBeInstanceOf(Promise);
    // A render tried again before the file arrives waits for the same read.
    expect(catalog.whenLoaded(["trade"])).toBeInstanceOf(Promise);
    expect(f.asked).toEqual(["en/trade"]);
    let settled = false;
    void waiting!.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    f.open("en/trade");
    await waiting;
    expect(settled).toBe(true);
    expect(catalog.whenLoaded(["common", "trade"])).toBeNull();
    expect(catalog.translator(["trade"])("buy")).toBe("Buy");
  });

  it("never waits again for a file that failed: the screen shows its keys instead of hanging", async () => {
    const f = fetcher();
    const catalog = new Catalog("en", { common: bundles.en.common }, f.fetchBundle);
    const waiting = catalog.whenLoaded(["nothing"]);
    f.open("en/nothing");
    await waiting;
    expect(catalog.whenLoaded(["common", "nothing"])).toBeNull();
    expect(catalog.translator(["nothing"])("x")).toBe("x");
    // Another language reads it again: its file there has not failed.
    void catalog.changeLanguage("de");
    expect(f.asked).toContain("de/nothing");
  });

  it("on the server holds every namespace and never reads a file", async () => {
    const catalog = new Catalog("de", bundles.de);
    expect(catalog.whenLoaded(["common", "trade", "other"])).toBeNull();
    await catalog.load("de", ["common", "trade", "other"]);
    expect(catalog.translator(["common"])("trade:buy")).toBe("Kaufen");
  });

  it("gives components t over their namespaces in order, and the language shown", () => {
    function Line() {
      const { t, i18n } = useTranslation(["trade", "common"]);
      return <p lang={i18n.language}>{`${t("buy")} ${t("hi")} ${t("common:buy")}`}</p>;
    }
    const html = renderToStaticMarkup(
      <Translations catalog={new Catalog("de", bundles.de)}>
        <Line />
      </Translations>,
    );
    expect(html).toBe('<p lang="de">Kaufen Hallo buy</p>');
    expect(() => renderToStaticMarkup(<Line />)).toThrow(/<Translations>/);
  });
});
