/** With JavaScript, home prices move without a reload. */
import { test, expect, jsOn } from "./fixtures";

test("a price on the home page changes within 10 s without reload", async ({ page }, info) => {
  test.skip(!jsOn(info), "live prices need JavaScript");
  await page.goto("/");
  const prices = page.locator("[data-live-price]");
  await expect(prices.first()).toBeVisible();
  // Mark this document: a reload or a navigation would lose the mark.
  await page.evaluate(() => {
    (window as unknown as { __e2eMark: number }).__e2eMark = 42;
  });
  const before = await prices.allTextContents();
  expect(before.length).toBeGreaterThan(0);
  await expect
    .poll(
      async () => {
        const now = await prices.allTextContents();
        return now.some((text, i) => text !== before[i]);
      },
      { timeout: 10_000, intervals: [250] },
    )
    .toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __e2eMark?: number }).__e2eMark)).toBe(
    42,
  );
});
