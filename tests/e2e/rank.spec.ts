/**
 * The ranking and the tab bar with JavaScript on and off: the strategy traders' figures (from their
 * closed positions; they trade on the e2e server's market too, STRATEGIES=on), a tapped trader
 * opening its provider page, and each of the five tabs leading to its
 * working screen with exactly that tab marked.
 */
import type { Page } from "@playwright/test";
import { test, expect, signInDemo } from "./fixtures";
import { EN } from "./console";
import { STRATEGIES } from "../../upstream/modules/follow/strategies";

/** Opens /rank until some trader has closed a position (the traders act every 1.5 s in e2e). */
async function rankWithFigures(page: Page, path = "/rank"): Promise<void> {
  await expect(async () => {
    await page.goto(path);
    await expect(page.getByTestId("rank-list")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 45_000, intervals: [1_000, 2_000] });
}

test("the ranking shows every strategy trader with real figures; tapping one opens its provider page", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await rankWithFigures(page);
  await expect(page.getByRole("heading", { level: 1, name: EN("rank:title") })).toBeVisible();
  const traders = page.getByTestId("trader");
  // Every strategy trader; hand-driven providers of other specs (copy.spec.ts) may be listed too.
  await expect.poll(() => traders.count()).toBeGreaterThanOrEqual(STRATEGIES.length);
  const names = await traders.evaluateAll((els) => els.map((e) => e.getAttribute("data-name")));
  expect(names).toEqual(expect.arrayContaining(STRATEGIES.map((s) => s.name)));
  // Rates in the user's locale, highest first.
  const rates = await page.getByTestId("rate").allTextContents();
  for (const r of rates) expect(r).toMatch(/^[+-]?\d+\.\d{2}%$/);
  const values = rates.map((r) => Number(r.replace("%", "")));
  expect([...values].sort((a, b) => b - a)).toEqual(values);
  const trades = (await page.getByTestId("trades").allTextContents()).map(Number);
  expect(trades.some((n) => n > 0)).toBe(true);

  // Tapping a trader opens its provider page, with or without JavaScript.
  const first = traders.first();
  const name = (await first.getAttribute("data-name"))!;
  await first.getByTestId("trader-link").click();
  await expect(page).toHaveURL(/\/rank\/provider\?id=\d+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("copy-button")).toHaveText(EN("copy:provider.copy"));
});

test("each of the five tabs opens its working screen, and only that tab is marked", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signInDemo(page);
  const tabs: [string, RegExp, string][] = [
    ["common:tabs.trade", /\/trade(\?|$)/, "trade"],
    ["common:tabs.order", /\/order(\?|$)/, "order"],
    ["common:tabs.documentary", /\/rank\?view=copy$/, "rank:copy_title"],
    ["common:tabs.ranking", /\/rank$/, "rank:title"],
    ["common:tabs.quotes", /\/(\?.*)?$/, "common:home.title"],
  ];
  const bar = page.getByRole("navigation", { name: EN("common:tabs.label") });
  for (const [label, url, heading] of tabs) {
    await bar.getByRole("link", { name: EN(label) }).click();
    await expect(page).toHaveURL(url);
    await expect(bar.locator('[aria-current="page"]')).toHaveCount(1);
    await expect(bar.locator('[aria-current="page"]')).toHaveText(EN(label));
    if (heading.includes(":"))
      await expect(page.getByRole("heading", { level: 1, name: EN(heading) })).toBeVisible();
    else await expect(page.locator("main")).toBeVisible();
  }
});
