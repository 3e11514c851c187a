/**
 * Getting around like a person: the bottom tab bar, the home search icon and quote rows, the back
 * arrows of sub-pages, the product search, the instrument picker drawer and the chart period bar.
 * Every one of them is a plain link or GET form, so the same steps run with JavaScript off.
 */
import type { Page } from "@playwright/test";
import { test, expect, jsOn, signInDemo, HOME, UPSTREAM_URL } from "./fixtures";
import { web } from "./texts";
import { CANDLES_SHOWN } from "../../app/components/trade/candle-geometry";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

interface Instrument {
  Id: number;
  Code: string;
  ShowCode: string;
}

async function instruments(): Promise<Instrument[]> {
  const res = await fetch(`${UPSTREAM_URL}/v1/api/forex/trade_list`, { headers: { lang: "en" } });
  const body = (await res.json()) as { code: number; data: Instrument[] };
  expect(body.code).toBe(1);
  return body.data;
}

/** The back arrow at the top of a sub-page. */
const backArrow = (page: Page) => page.getByRole("link", { name: EN("common:back"), exact: true });

/** The codes of the quote rows shown (each row links to /trade?code=CODE). */
async function rowCodes(page: Page): Promise<string[]> {
  return page
    .locator('a[href^="/trade?code="]')
    .evaluateAll((els) =>
      els.map((e) =>
        decodeURIComponent((e.getAttribute("href") ?? "").replace("/trade?code=", "")),
      ),
    );
}

test.describe("navigation", () => {
  test("bottom tab bar: Quotes, Trade and Orders", async ({ page }) => {
    await signInDemo(page);
    const tabs = page.getByRole("navigation", { name: EN("common:tabs.label") });
    const tab = (key: string) =>
      tabs.getByRole("link", { name: EN(`common:tabs.${key}`), exact: true });
    await expect(tab("quotes")).toHaveAttribute("aria-current", "page");

    await tab("trade").click();
    await expect(page).toHaveURL(/\/trade$/);
    await expect(page.getByTestId("order-form")).toBeVisible();
    await expect(tab("trade")).toHaveAttribute("aria-current", "page");
    await expect(tab("quotes")).not.toHaveAttribute("aria-current", /.+/);

    await tab("order").click();
    await expect(page).toHaveURL(/\/order$/);
    await expect(page.getByRole("heading", { name: EN("order:title") })).toBeVisible();
    await expect(page.getByRole("link", { name: EN("order:tabs.holding") })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(tab("order")).toHaveAttribute("aria-current", "page");

    await tab("quotes").click();
    await expect(page).toHaveURL(HOME);
    await expect(page.getByRole("heading", { name: EN("common:home.title") })).toBeVisible();
    await expect(tab("quotes")).toHaveAttribute("aria-current", "page");
  });

  test("home: the search icon, a quote row to /trade?code=, and the back arrows of sub-pages", async ({
    page,
  }, info) => {
    const list = await instruments();
    const target = list.find((i) => i.Code === "GBPUSD") ?? list[1];

    // Search icon -> /product, whose back arrow returns home.
    await page.goto("/");
    await page.getByRole("link", { name: EN("common:home.search"), exact: true }).click();
    await expect(page).toHaveURL(/\/product$/);
    await expect(page.getByRole("searchbox", { name: EN("common:product.label") })).toBeVisible();
    await backArrow(page).click();
    await expect(page).toHaveURL(HOME);

    // A quote row opens that instrument on the trade screen; with JavaScript without reloading
    // the document (a mark set on the window survives).
    await page.evaluate(() => ((window as unknown as { tpMark: number }).tpMark = 1));
    await page.locator(`a[href="/trade?code=${encodeURIComponent(target.Code)}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/trade\\?code=${target.Code}$`));
    await expect(page.getByTestId("instrument-code")).toHaveText(target.ShowCode);
    if (jsOn(info))
      expect(await page.evaluate(() => (window as unknown as { tpMark?: number }).tpMark)).toBe(1);

    // Sign-in pages: register and reset go back to login, login goes back home.
    await page.goto("/register");
    await backArrow(page).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/forgot");
    await backArrow(page).click();
    await expect(page).toHaveURL(/\/login$/);
    await backArrow(page).click();
    await expect(page).toHaveURL(HOME);
  });

  test("product search: 'btc' shows the matching instruments only, and a result opens /trade?code=", async ({
    page,
  }) => {
    const list = await instruments();
    const expected = list
      .filter((i) => /btc/i.test(i.Code) || /btc/i.test(i.ShowCode))
      .map((i) => i.Code);
    expect(expected.length, "some instruments match btc").toBeGreaterThan(0);
    expect(expected.length, "not every instrument matches btc").toBeLessThan(list.length);

    await page.goto("/product");
    await expect(page.getByText(EN("common:product.hint"))).toBeVisible();
    await expect(page.locator('a[href^="/trade?code="]')).toHaveCount(0);
    const box = page.getByRole("searchbox", { name: EN("common:product.label") });
    await box.fill("btc");
    await page
      .getByRole("search")
      .getByRole("button", { name: EN("common:product.submit") })
      .click();
    await expect(page).toHaveURL(/\/product\?searchCurrency=btc$/);
    await expect(page.locator('a[href^="/trade?code="]')).toHaveCount(expected.length);
    expect(new Set(await rowCodes(page))).toEqual(new Set(expected));
    await expect(box).toHaveValue("btc");

    // Nothing matches: a clear message and no rows.
    await box.fill("zzqq");
    await box.press("Enter");
    await expect(page).toHaveURL(/searchCurrency=zzqq$/);
    await expect(page.getByText(EN("common:product.none", { q: "zzqq" }))).toBeVisible();
    await expect(page.locator('a[href^="/trade?code="]')).toHaveCount(0);

    // Back to btc (by typing again) and into a result.
    await box.fill("BTC");
    await box.press("Enter");
    await expect(page.locator('a[href^="/trade?code="]')).toHaveCount(expected.length);
    const first = list.find((i) => i.Code === expected[0])!;
    await page.locator(`a[href="/trade?code=${encodeURIComponent(first.Code)}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/trade\\?code=${first.Code}$`));
    await expect(page.getByTestId("instrument-code")).toHaveText(first.ShowCode);
  });

  test("trade: the instrument picker drawer switches instrument, the period bar changes the chart", async ({
    page,
  }, info) => {
    const list = await instruments();
    const from = list.find((i) => i.Code === "EURUSD")!;
    const to = list.find((i) => i.Code === "GBPUSD") ?? list.find((i) => i.Code !== from.Code)!;

    await page.goto(`/trade?code=${from.Code}`);
    const picker = page.getByTestId("instrument-picker");
    await expect(page.getByTestId("instrument-code")).toHaveText(from.ShowCode);
    const drawer = page.getByRole("region", { name: EN("trade:picker.title") });
    await expect(drawer).toBeHidden();
    await picker.locator("summary").click();
    await expect(picker).toHaveAttribute("open", "");
    await expect(drawer).toBeVisible();
    await expect(drawer.locator('a[aria-current="true"]')).toContainText(from.ShowCode);
    await drawer.locator(`a[href^="/trade?code=${encodeURIComponent(to.Code)}&"]`).click();
    await expect(page).toHaveURL(new RegExp(`/trade\\?code=${to.Code}&period=1min$`));
    await expect(page.getByTestId("instrument-code")).toHaveText(to.ShowCode);
    await expect(picker).not.toHaveAttribute("open", /.*/);
    await expect(drawer).toBeHidden();

    // The period bar: 1M is the default; 5M, 1H and 1D redraw the chart with candles of that period.
    const bar = page.getByRole("navigation", { name: EN("trade:period.label") });
    const chart = page.getByTestId("candle-chart");
    const periods = [
      { value: "1min", label: EN("trade:period.1min"), ms: 60_000 },
      { value: "5min", label: EN("trade:period.5min"), ms: 5 * 60_000 },
      { value: "60min", label: EN("trade:period.60min"), ms: 60 * 60_000 },
      { value: "1day", label: EN("trade:period.1day"), ms: 24 * 60 * 60_000 },
    ];
    for (const p of periods) {
      if (p.value !== "1min") {
        await bar.getByRole("link", { name: p.label, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`/trade\\?code=${to.Code}&period=${p.value}$`));
      }
      await expect(bar.getByRole("link", { name: p.label, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      await expect(bar.locator('a[aria-current="page"]')).toHaveCount(1);
      const title = EN("chart:title", {
        code: to.ShowCode,
        period: p.label,
        type: EN("chart:type.candles"),
      });
      await expect(chart.getByRole("img", { name: title, exact: true })).toBeVisible();
      if (jsOn(info)) {
        // A pointer over the chart loads chart.js, which draws this period's chart over the SVG.
        await chart.hover();
        await expect(chart).toHaveAttribute("data-chart", "chartjs");
      } else {
        // The server's SVG: as many candles as the chart shows (every period's history has more),
        // one period apart. The count is awaited: after a tap without JavaScript the new page may
        // still be arriving while its chart is already on screen.
        const candles = chart.locator("[data-times]");
        await expect(candles).toHaveAttribute(
          "data-times",
          new RegExp(`^\\d+( \\d+){${CANDLES_SHOWN - 1}}$`),
        );
        const times = (await candles.getAttribute("data-times"))!.split(" ").map(Number);
        const gaps = times.slice(1).map((t, i) => t - times[i]);
        expect(Math.min(...gaps)).toBe(p.ms);
      }
    }
    // The instrument stays the one picked.
    await expect(page.getByTestId("instrument-code")).toHaveText(to.ShowCode);
  });
});
