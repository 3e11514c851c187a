/**
 * The chart choice of /trade with JavaScript on and off: the settings form (a `<details>` with a
 * plain POST form) changes the chart type and its indicators, which both the server's SVG and the
 * live chart draw; a visitor's choice is kept in a cookie, a signed-in user's by the upstream
 * (every device the same), with the period shown; a value out of its bounds is refused by the
 * server with its message beside its field, the choice unchanged. The longer periods (4H, 1W, MN)
 * are in the period bar.
 */
import type { Page } from "@playwright/test";
import { test, expect, jsOn, newSignedInUser } from "./fixtures";
import { web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

const settings = (page: Page) => page.getByTestId("chart-settings");
const chart = (page: Page) => page.getByTestId("candle-chart");

async function openSettings(page: Page) {
  const details = settings(page);
  if ((await details.getAttribute("open")) === null)
    await details.getByText(EN("chart:settings"), { exact: true }).click();
  await expect(details).toHaveAttribute("open", "");
  return details;
}

/**
 * The chart as drawn: chart.js with JavaScript (once a pointer is over it), else the server's SVG of
 * that type.
 */
async function expectChart(page: Page, js: boolean, type: string, panes: string[]) {
  await expect(chart(page)).toHaveAttribute("data-panes", String(panes.length));
  if (js) {
    await chart(page).hover();
    await expect(chart(page)).toHaveAttribute("data-chart", "chartjs");
    return;
  }
  const svg = chart(page).getByTestId("candle-svg");
  await expect(svg).toHaveAttribute("data-type", type);
  for (const p of panes) await expect(svg.locator(`[data-pane="${p}"]`)).toHaveCount(1);
}

test.describe("chart choice", () => {
  test("a visitor's choice of type and indicators is drawn and kept", async ({ page }, info) => {
    const js = jsOn(info);
    // When the page asks for chart.js (its chunks under /build/_shared/chart…).
    const chartAsked: number[] = [];
    page.on("request", (r) => {
      if (/\/_shared\/chart/.test(r.url())) chartAsked.push(Date.now());
    });
    await page.goto("/trade?code=EURUSD");
    if (js) {
      // Hydrated (the no-JavaScript recalculate button is gone), the pointer not moved yet: the
      // chart is still the server's SVG, kept live by the page, and chart.js is asked for only
      // once a pointer is over the chart.
      await expect(page.locator("button.recalc")).toHaveCount(0);
      await expect(chart(page)).toHaveAttribute("data-chart", "svg");
      await expect(chart(page).getByTestId("candle-svg")).toHaveAttribute("data-type", "candles");
      const reached = Date.now();
      await expectChart(page, js, "candles", []);
      expect(chartAsked.length).toBeGreaterThan(0);
      expect(Math.min(...chartAsked)).toBeGreaterThanOrEqual(reached);
    } else await expectChart(page, js, "candles", []);
    const form = await openSettings(page);
    await form.getByLabel(EN("chart:type.line")).check();
    await form.getByLabel(EN("chart:indicator.sma")).check();
    await form.getByLabel(EN("chart:indicator.rsi")).check();
    await form.locator('input[name="rsi_period"]').fill("21");
    await form.getByRole("button", { name: EN("chart:save") }).click();
    await expect(page.getByText(EN("chart:saved")).first()).toBeVisible();
    await expectChart(page, js, "line", ["rsi"]);
    if (!js) {
      const svg = chart(page).getByTestId("candle-svg");
      await expect(svg.locator('[data-line="close"]')).toHaveCount(1);
      await expect(svg.locator('[data-line="sma"]')).toHaveCount(1);
      await expect(svg).toContainText(EN("chart:pane.rsi", { period: 21 }));
    }
    // Kept: a new visit to the screen shows the same choice.
    await page.goto("/trade?code=GBPUSD");
    await expectChart(page, js, "line", ["rsi"]);
    const again = await openSettings(page);
    await expect(again.getByLabel(EN("chart:type.line"))).toBeChecked();
    await expect(again.getByLabel(EN("chart:indicator.rsi"))).toBeChecked();
    await expect(again.locator('input[name="rsi_period"]')).toHaveValue("21");
  });

  test("a value out of bounds is refused by the server beside its field", async ({
    page,
  }, info) => {
    await page.goto("/trade?code=EURUSD");
    const form = await openSettings(page);
    // The browser's own check would stop the value first: the server's is the one tested.
    await form.locator("form").evaluate((f) => f.setAttribute("novalidate", ""));
    await form.getByLabel(EN("chart:indicator.sma")).check();
    await form.locator('input[name="sma_period"]').fill("500");
    await form.getByRole("button", { name: EN("chart:save") }).click();
    const refused = settings(page);
    await expect(refused).toHaveAttribute("open", "");
    await expect(refused.locator('input[name="sma_period"]')).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(refused).toContainText(EN("chart:errors.range", { min: 2, max: 200 }));
    await expect(refused.locator('input[name="sma_period"]')).toHaveValue("500");
    // Nothing was kept.
    await page.goto("/trade?code=EURUSD");
    await expectChart(page, jsOn(info), "candles", []);
  });

  test("a signed-in user's choice is kept by the server with the period shown", async ({
    page,
    browser,
  }, info) => {
    const js = jsOn(info);
    await newSignedInUser(page, info);
    await page.goto("/trade?code=EURUSD");
    const bar = page.getByRole("navigation", { name: EN("trade:period.label") });
    for (const p of ["4hour", "1week", "1mon"])
      await expect(
        bar.getByRole("link", { name: EN(`chart:period.${p}`), exact: true }),
      ).toBeVisible();
    await bar.getByRole("link", { name: EN("chart:period.4hour"), exact: true }).click();
    await expect(page).toHaveURL(/period=4hour$/);
    const form = await openSettings(page);
    await form.getByLabel(EN("chart:type.bars")).check();
    await form.getByLabel(EN("chart:indicator.macd")).check();
    await form.getByLabel(EN("chart:indicator.bollinger")).check();
    await form.locator('input[name="bollinger_width"]').fill("2.5");
    await form.getByRole("button", { name: EN("chart:save") }).click();
    await expect(page.getByText(EN("chart:saved")).first()).toBeVisible();
    await expectChart(page, js, "bars", ["macd"]);
    // Another device of the same user (its cookies, none of the visitor's choice): the same chart
    // and the saved period, without a period in the address.
    const other = await browser.newContext({
      ...info.project.use,
      storageState: await page.context().storageState(),
    });
    try {
      await other.clearCookies({ name: "tp_chart" });
      const second = await other.newPage();
      await second.goto("/trade?code=EURUSD");
      await expect(
        second
          .getByRole("navigation", { name: EN("trade:period.label") })
          .locator('a[aria-current="page"]'),
      ).toHaveText(EN("chart:period.4hour"));
      await expectChart(second, js, "bars", ["macd"]);
      const f = await openSettings(second);
      await expect(f.locator('input[name="bollinger_width"]')).toHaveValue("2.5");
    } finally {
      await other.close();
    }
  });
});
