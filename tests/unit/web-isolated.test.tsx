/**
 * <Isolated>: a translated line with its figures in <bdi> isolates, as the withdrawal records and
 * the deposit price line render it; the values are text, never markup.
 */
import fs from "node:fs";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Isolated } from "../../app/components/Isolated";
import { translator, type Bundle } from "../../app/translate";

const read = (lang: string, ns: string) =>
  JSON.parse(fs.readFileSync(path.resolve("locales", lang, `${ns}.json`), "utf8")) as Bundle;

function render(lang: string, k: string, values: Record<string, string>) {
  const [ns, key] = k.split(":");
  const t = translator(lang, { [ns]: read(lang, ns) }, [ns]);
  return renderToStaticMarkup(<Isolated t={t} k={key} values={values} />);
}

describe("Isolated", () => {
  it("puts each figure with its unit in its own <bdi>, the arrow between them", () => {
    const values = { amount: "100.00", net: "99.00000000", code: "USDT" };
    expect(render("en", "withdraw:record_amount", values)).toBe(
      "<bdi>100.00 USD</bdi> → <bdi>99.00000000 USDT</bdi>",
    );
    // Arabic: the arrow points left, from what was asked (read first, on the right) to what arrives.
    expect(render("ar", "withdraw:record_amount", values)).toBe(
      "<bdi>100.00 USD</bdi> ← <bdi>99.00000000 USDT</bdi>",
    );
    expect(render("ar", "charge:price", { currency: "USDT", price: "1.00" })).toBe(
      "<bdi>1 USDT</bdi> = <bdi>1.00 USD</bdi>",
    );
  });

  it("shows a value with markup, entities or a marker's look as typed text", () => {
    const html = render("en", "withdraw:record_amount", {
      amount: "1.00",
      net: "<b>2</b></bdi>",
      code: "A&amp;B<bdi>\uE0000\uE001",
    });
    expect(html).toBe(
      "<bdi>1.00 USD</bdi> → <bdi>&lt;b&gt;2&lt;/b&gt;&lt;/bdi&gt; A&amp;amp;B&lt;bdi&gt;\uE0000\uE001</bdi>",
    );
  });

  it("renders a line without isolates as plain text", () => {
    const t = translator("en", { x: { plain: "{{a}} and {{b}}" } }, ["x"]);
    expect(renderToStaticMarkup(<Isolated t={t} k="plain" values={{ a: "1", b: "<i>" }} />)).toBe(
      "1 and &lt;i&gt;",
    );
  });
});
