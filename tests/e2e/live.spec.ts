/**
 * With JavaScript, prices move without a reload: the test ticks the hand-driven market
 * (MARKET_FEED=manual) and the home row, and on the trade screen the price, the picker's row and the
 * order's margin, show exactly that price, in the same document.
 */
import { test, expect, jsOn, UPSTREAM_URL } from "./fixtures";
import { setPrice } from "./operator";
import { formatPrice } from "../../app/utils/format";

/** An instrument's precision and current close, as the upstream lists it. */
async function instrumentOf(
  code: string,
): Promise<{ PricePrecision: number; ForexQuotations: { Close: number } }> {
  const list = (await (await fetch(`${UPSTREAM_URL}/v1/api/forex/trade_list`)).json()) as {
    data: { Code: string; PricePrecision: number; ForexQuotations: { Close: number } }[];
  };
  return list.data.find((i) => i.Code === code)!;
}

/** An instrument no other spec ticks. */
const CODE = "AUDUSD";

test("a price on the home page changes to the market's new price without reload", async ({
  page,
}, info) => {
  test.skip(!jsOn(info), "live prices need JavaScript");
  const inst = await instrumentOf(CODE);
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

test("the trade screen's price, its picker row and the order's margin follow the market without reload", async ({
  page,
}, info) => {
  test.skip(!jsOn(info), "live prices need JavaScript");
  // An instrument no other spec ticks or trades.
  const code = "UKOIL";
  const inst = await instrumentOf(code);
  await page.goto(`/trade?code=${code}`);
  const price = page.getByTestId("trade-price");
  const row = page.locator(`.picker-item[href^="/trade?code=${code}&"] .picker-item-price`);
  const margin = page.getByTestId("order-est-margin");
  const shown = formatPrice(inst.ForexQuotations.Close, inst.PricePrecision);
  await expect(price).toHaveText(shown);
  await expect(row).toHaveText(shown);
  const marginBefore = await margin.textContent();
  await page.evaluate(() => {
    (window as unknown as { __e2eMark: number }).__e2eMark = 7;
  });

  const step = 1 / 10 ** inst.PricePrecision;
  const next = await setPrice(
    code,
    (inst.ForexQuotations.Close + 500 * step).toFixed(inst.PricePrecision),
  );
  const moved = formatPrice(next, inst.PricePrecision);
  await expect(price).toHaveText(moved);
  await expect(row).toHaveText(moved);
  // The margin of the lots in the form is held at the new price: it moved with it.
  await expect(margin).not.toHaveText(marginBefore ?? "");
  expect(await page.evaluate(() => (window as unknown as { __e2eMark?: number }).__e2eMark)).toBe(
    7,
  );
});
