/** A visitor sees live-looking quotes on / and filters them by category (chips are links). */
import { test, expect, UPSTREAM_URL } from "./fixtures";
import { web } from "./texts";

interface Instrument {
  Id: number;
  Code: string;
  ShowCode: string;
  CategoryId: number;
}

async function upstreamData<T>(path: string): Promise<T> {
  const res = await fetch(`${UPSTREAM_URL}${path}`, { headers: { lang: "en" } });
  const body = (await res.json()) as { code: number; data: T };
  expect(body.code, `${path} answers code 1`).toBe(1);
  return body.data;
}

test.describe("home quotes", () => {
  // Reads the page only (it ticks no price: the rows are the server's); its markup is the same
  // without JavaScript.
  test(
    "a visitor sees every instrument with its code, price and change",
    { tag: "@same-without-js" },
    async ({ page }) => {
      const instruments = await upstreamData<Instrument[]>("/v1/api/forex/trade_list");
      expect(instruments.length).toBeGreaterThanOrEqual(24);

      await page.goto("/");
      await expect(
        page.getByRole("heading", { name: web("en", "common:home.title") }),
      ).toBeVisible();
      const rows = page.locator('a[href^="/trade?code="]');
      await expect(rows).toHaveCount(instruments.length);

      // The rows are the upstream's instruments, each showing its code, a price and a change in %.
      const hrefs = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("href") ?? ""));
      const shown = hrefs.map((h) => decodeURIComponent(h.replace("/trade?code=", "")));
      expect(new Set(shown)).toEqual(new Set(instruments.map((i) => i.Code)));
      for (const inst of instruments.slice(0, 6)) {
        const row = page.locator(`a[href="/trade?code=${encodeURIComponent(inst.Code)}"]`);
        await expect(row).toBeVisible();
        await expect(row).toContainText(inst.ShowCode);
        await expect(row.locator(`[data-live-price="${inst.Code}"]`)).toHaveText(
          /^\d[\d,]*(\.\d+)?$/,
        );
        await expect(row.locator(`[data-live-change="${inst.Code}"]`)).toHaveText(
          /^[+\-−]?\d+(\.\d+)?\s?%$/,
        );
        // the sparkline: the instrument's symbol of the server-drawn sprite, which holds its drawing
        await expect(row.locator("svg")).toHaveCount(1);
        const href = await row.locator("svg use").getAttribute("href");
        expect(href).toMatch(new RegExp(`^/media/sparklines\\.svg\\?v=[\\w-]+#s${inst.Id}$`));
        const sprite = await (await page.request.get(href!.split("#")[0])).text();
        expect(sprite).toMatch(new RegExp(`<symbol id="s${inst.Id}"[^>]*><path d="M`));
      }
    },
  );

  test("category chips filter the list and tapping the active chip clears the filter", async ({
    page,
  }) => {
    const [categories, instruments] = await Promise.all([
      upstreamData<{ Id: number; NameShowTrans: string }[]>("/v1/api/forex/getCategories"),
      upstreamData<Instrument[]>("/v1/api/forex/trade_list"),
    ]);
    expect(categories.length).toBeGreaterThanOrEqual(6);
    // a category that holds some but not all instruments
    const cat = categories.find((c) => {
      const n = instruments.filter((i) => i.CategoryId === c.Id).length;
      return n > 0 && n < instruments.length;
    });
    expect(cat, "a category with some instruments").toBeTruthy();
    const inCat = instruments.filter((i) => i.CategoryId === cat!.Id).map((i) => i.Code);

    await page.goto("/");
    const chips = page.getByRole("navigation", { name: web("en", "common:home.categories") });
    const chip = chips.getByRole("link", { name: cat!.NameShowTrans, exact: true });
    await chip.click();
    await expect(page).toHaveURL(new RegExp(`[?&]category=${cat!.Id}(&|$)`));
    await expect(chip).toHaveAttribute("aria-current", /.+/);
    const rows = page.locator('a[href^="/trade?code="]');
    await expect(rows).toHaveCount(inCat.length);
    const codes = await rows.evaluateAll((els) =>
      els.map((e) =>
        decodeURIComponent((e.getAttribute("href") ?? "").replace("/trade?code=", "")),
      ),
    );
    expect(new Set(codes)).toEqual(new Set(inCat));

    // Tapping the active chip again clears the filter.
    await chip.click();
    await expect(page).not.toHaveURL(/category=/);
    await expect(rows).toHaveCount(instruments.length);
    await expect(chip).not.toHaveAttribute("aria-current", /.+/);
  });
});
