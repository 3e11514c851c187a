/**
 * <Isolated>: a translated line with its figures in <bdi> isolates, as the withdrawal records and
 * the deposit price line render it; the values are text, never markup.
 */
import fs from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { Isolated } from "../../app/components/Isolated";

const read = (lang: string, ns: string) =>
  JSON.parse(fs.readFileSync(path.resolve("locales", lang, `${ns}.json`), "utf8")) as object;

async function render(lang: string, k: string, values: Record<string, string>) {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: lang,
    ns: ["withdraw", "charge"],
    resources: {
      [lang]: { withdraw: read(lang, "withdraw"), charge: read(lang, "charge") },
    },
    interpolation: { escapeValue: false },
  });
  const [ns, key] = k.split(":");
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <Isolated t={i18n.getFixedT(lang, ns)} k={key} values={values} />
    </I18nextProvider>,
  );
}

describe("Isolated", () => {
  it("puts each figure with its unit in its own <bdi>, the arrow between them", async () => {
    const values = { amount: "100.00", net: "99.00000000", code: "USDT" };
    expect(await render("en", "withdraw:record_amount", values)).toBe(
      "<bdi>100.00 USD</bdi> → <bdi>99.00000000 USDT</bdi>",
    );
    // Arabic: the arrow points left, from what was asked (read first, on the right) to what arrives.
    expect(await render("ar", "withdraw:record_amount", values)).toBe(
      "<bdi>100.00 USD</bdi> ← <bdi>99.00000000 USDT</bdi>",
    );
    expect(await render("ar", "charge:price", { currency: "USDT", price: "1.00" })).toBe(
      "<bdi>1 USDT</bdi> = <bdi>1.00 USD</bdi>",
    );
  });

  it("shows a value with markup or entities as typed text", async () => {
    const html = await render("en", "withdraw:record_amount", {
      amount: "1.00",
      net: "<b>2</b>",
      code: "A&amp;B<bdi>",
    });
    expect(html).toBe(
      "<bdi>1.00 USD</bdi> → <bdi>&lt;b&gt;2&lt;/b&gt; A&amp;amp;B&lt;bdi&gt;</bdi>",
    );
  });
});
