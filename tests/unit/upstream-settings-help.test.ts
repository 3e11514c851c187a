/**
 * Every operator setting has a description in every language (upstream/locales/<lang>/
 * settings-help.json), and every abuse limit's names itself.
 */
import { describe, expect, it } from "vitest";
import { LANGS } from "@contract/constants";
import { SETTINGS, describeSetting } from "../../upstream/modules/operators/settings-registry.js";

describe("settings descriptions", () => {
  it("describes every setting in every language, never with a bare key", () => {
    for (const lang of LANGS)
      for (const key of Object.keys(SETTINGS)) {
        const text = describeSetting(lang, key);
        expect(text, `${lang} ${key}`).not.toMatch(/^setting_help\./);
        expect(text, `${lang} ${key}`).not.toMatch(/\{\{/);
        expect(text.length).toBeGreaterThan(3);
      }
  });

  it("names the abuse limit in its text", () => {
    const key = Object.keys(SETTINGS).find((k) => k.startsWith("limit."))!;
    expect(describeSetting("de", key)).toContain(key.slice("limit.".length));
  });

  it("answers the language asked for", () => {
    expect(describeSetting("en", "service_link")).toBe("The address of the support chat");
    expect(describeSetting("de", "service_link")).not.toBe(describeSetting("en", "service_link"));
  });
});
