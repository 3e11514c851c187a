/**
 * With JavaScript, a home price moves without a reload: the test ticks the hand-driven market
 * (MARKET_FEED=manual) and the row shows exactly that price, in the same document.
 */
import { test, expect, jsOn, UPSTREAM_URL } from "./fixtures";
import { setPrice } from "./operator";
import { formatPrice } from "../../app/utils/format";

/** An instrument no other spec ticks. */
const CODE = "AUDUSD";

test("a price on the home page changes to the market's new price without reload", async ({
  page,
}, info) => {
  test.skip(!jsOn(info), "live prices need JavaScript");
  const list = (await (await fetch(`${UPSTREAM_URL}/v1/api/forex/trade_list`)).json()) as {
    data: { Code: string; PricePrecision: number; ForexQuotations: { Close: number } }[];
  };
  const inst = list.data.find((i) => i.Code === CODE)!;
  await page.goto("/");
  const price = page.locator(`[data-live-price="${CODE}"]`);
  await expect(price).toHaveText(formatPrice(inst.ForexQuotations.Close, inst.PricePrecision));
  // Mark this document: a reload or a navigation would lose the mark.
  await page.evaluate(() => {
    (window as unknown as { __e2eMark: number }).__e2eMark = 42;
  });
  // Whether the tick comes before the page's stream opens (its snapshot has the price) or after it
  // (a change carries it), the row ends showing it.
  const step = 1 / 10 ** inst.PricePrecision;
  const next = await setPrice(
    CODE,
    (inst.ForexQuotations.Close + 25 * step).toFixed(inst.PricePrecision),
  );
  await expect(price).toHaveText(formatPrice(next, inst.PricePrecision));
  expect(await page.evaluate(() => (window as unknown as { __e2eMark?: number }).__e2eMark)).toBe(
    42,
  );
});
