import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { LANGUAGES } from "~/i18n";

const dir = path.resolve(__dirname, "../../locales");

function flat(o: Record<string, unknown>, p = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v && typeof v === "object")
      Object.assign(out, flat(v as Record<string, unknown>, `${p}${k}.`));
    else out[`${p}${k}`] = String(v);
  }
  return out;
}
const read = (lang: string, ns: string) =>
  flat(JSON.parse(fs.readFileSync(path.join(dir, lang, `${ns}.json`), "utf8")));

describe.each(["trade", "order"])("locales/*/%s.json", (ns) => {
  const en = read("en", ns);

  // Keys, plural forms and placeholders of every namespace: tests/unit/web-i18n.test.ts.

  it("is really translated: most texts differ from English in every other language", () => {
    const long = Object.keys(en).filter((k) => en[k].length > 12);
    for (const lang of LANGUAGES.filter((l) => l !== "en")) {
      const m = read(lang, ns);
      const same = long.filter((k) => m[k] === en[k]);
      expect(
        same.length / long.length,
        `${lang}/${ns} untranslated: ${same.join(", ")}`,
      ).toBeLessThan(0.1);
    }
  });
});

describe("message keys used by the trading code exist in en", () => {
  it("schema messages and no_mult_config", () => {
    const trade = read("en", "trade");
    const src = ["app/schemas/order.ts", "app/schemas/stop-price.ts"]
      .map((f) => fs.readFileSync(path.resolve(__dirname, "../..", f), "utf8"))
      .join("\n");
    const keys = new Set([...src.matchAll(/"(errors\.[a-z_]+|no_mult_config)"/g)].map((m) => m[1]));
    expect(keys.size).toBeGreaterThan(5);
    // A message with a count is a plural (k_other and the language's other forms).
    for (const k of keys) expect(trade[k] ?? trade[`${k}_other`], k).toBeTruthy();
  });
});
