/**
 * Trading end to end (issue 3) with a demo account: a market buy on /trade, its margin and fee under
 * Holding, a stop-loss, closing it and finding it in History with its realised profit; a pending
 * order placed and cancelled; and (with JavaScript) the open profit moving live.
 */
import type { Page } from "@playwright/test";
import { test, expect, jsOn, num, demoByForm, UPSTREAM_URL } from "./fixtures";
import { web } from "./texts";
import { contractOf, expectOrderFigures, readOrder } from "./money";
import { formatPrice } from "../../app/utils/format";
import { setPrice } from "./operator";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);
const CODE = "EURUSD";

interface Instrument {
  Id: number;
  Code: string;
  ShowCode: string;
  PricePrecision: number;
  ForexContNum: number;
  MarginMode: number;
  ForexMinCont: number;
  Pip: number;
  HasForexMultiple: { Value: number }[];
  ForexQuotations: { Close: number };
}

async function instrument(code: string): Promise<Instrument> {
  const res = await fetch(`${UPSTREAM_URL}/v1/api/forex/trade_list`, { headers: { lang: "en" } });
  const body = (await res.json()) as { code: number; data: Instrument[] };
  const inst = body.data.find((i) => i.Code === code);
  if (!inst) throw new Error(`no instrument ${code} in trade_list`);
  return inst;
}

/** Places an order from the trade screen's form and follows the success pop-up to /order. */
async function placeOrder(
  page: Page,
  opts: { side: "buy" | "sell"; pendingAt?: string },
): Promise<void> {
  await page.goto(`/trade?code=${CODE}`);
  const form = page.getByTestId("order-form");
  await expect(form).toBeVisible();
  if (opts.pendingAt) {
    // The market / pending switch is a segmented control: tap its visible text.
    await form.getByText(EN("trade:form.pending"), { exact: true }).click();
    await expect(form.getByLabel(EN("trade:form.pending"), { exact: true })).toBeChecked();
    await form.getByLabel(EN("trade:form.target_price"), { exact: true }).fill(opts.pendingAt);
  }
  await form
    .getByRole("button", {
      name: EN(opts.side === "buy" ? "trade:form.buy" : "trade:form.sell"),
      exact: true,
    })
    .click();
  const success = page.getByTestId("order-success");
  await expect(success).toBeVisible();
  await expect(success.getByRole("heading", { name: EN("trade:success.title") })).toBeVisible();
  await success.getByRole("link", { name: EN("trade:success.view_orders") }).click();
  await expect(page).toHaveURL(new RegExp(`/order\\?status=${opts.pendingAt ? 0 : 1}$`));
}

/** Opens the detail of the only row of the current list. */
async function openOnlyRow(page: Page, showCode: string) {
  const rows = page.getByTestId("order-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(showCode);
  await rows.first().getByRole("link").click();
  await expect(page).toHaveURL(/[?&]detail=\d+/);
  const detail = page.getByTestId("order-detail");
  await expect(detail).toBeVisible();
  const id = Number(await detail.getAttribute("data-order-id"));
  expect(id).toBeGreaterThan(0);
  return { detail, id };
}

test.describe("trading with a demo account", () => {
  test("market buy, margin and fee under Holding, stop-loss, close, realised profit in History", async ({
    page,
  }) => {
    const inst = await instrument(CODE);
    await demoByForm(page);
    await placeOrder(page, { side: "buy" });

    // Holding: the new position, with its margin and fee in the detail.
    await expect(page.getByRole("link", { name: EN("order:tabs.holding") })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const { id } = await openOnlyRow(page, inst.ShowCode);
    // Margin, fee and floating profit from the order's own lots, leverage and prices
    // (contract/formulas.ts over exact decimals, formatted as the app does).
    const c = await contractOf(CODE);
    const opened = await readOrder(page, 1, id);
    expectOrderFigures(c, opened, 1);
    const detail = page.getByTestId("order-detail");

    // Set a stop-loss well below the price (a buy loses when the price falls).
    const price = num(await detail.getByTestId("detail-price").innerText());
    const sl = (price * 0.9).toFixed(inst.PricePrecision);
    const stopForm = detail.getByRole("form", { name: EN("order:detail.stop_title") });
    await stopForm.getByLabel(EN("trade:form.stop_loss"), { exact: true }).fill(sl);
    await stopForm.getByRole("button", { name: EN("order:detail.save_stops") }).click();
    const slShown = page.getByTestId("order-detail").getByTestId("detail-sl");
    await expect(slShown).toHaveText(formatPrice(Number(sl), inst.PricePrecision, "en"));

    // Close it: it leaves Holding ...
    await page
      .getByTestId("order-detail")
      .getByRole("button", { name: EN("order:detail.close_label", { id }) })
      .click();
    await expect(page.getByTestId("order-detail")).toHaveCount(0);
    await expect(page.locator(`[data-testid="order-row"][data-order-id="${id}"]`)).toHaveCount(0);
    await expect(page.getByTestId("order-empty")).toBeVisible();

    // ... and is in History with its realised profit.
    await page.getByRole("link", { name: EN("order:tabs.history") }).click();
    await expect(page).toHaveURL(/\/order\?status=3$/);
    const row = page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId("order-profit")).toHaveText(/\d/);
    await row.getByRole("link").click();
    const closed = page.getByTestId("order-detail");
    await expect(closed).toBeVisible();
    await expect(closed).toContainText(EN("order:detail.realised_profit"));
    // The realised profit from its own open and close prices.
    expectOrderFigures(c, await readOrder(page, 3, id), 3);
    await expect(
      closed.getByRole("button", { name: EN("order:detail.close_label", { id }) }),
    ).toHaveCount(0);
  });

  test("a pending order is placed and cancelled", async ({ page }) => {
    const inst = await instrument(CODE);
    await demoByForm(page);
    // A buy limit 5 % below the market: it stays pending.
    const target = (inst.ForexQuotations.Close * 0.95).toFixed(inst.PricePrecision);
    await placeOrder(page, { side: "buy", pendingAt: target });

    await expect(page.getByRole("link", { name: EN("order:tabs.pending") })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const { detail, id } = await openOnlyRow(page, inst.ShowCode);
    await expect(detail).toContainText(EN("order:detail.target_price"));
    await detail.getByRole("button", { name: EN("order:detail.cancel_label", { id }) }).click();
    await expect(page.getByTestId("order-detail")).toHaveCount(0);
    await expect(page.locator(`[data-testid="order-row"][data-order-id="${id}"]`)).toHaveCount(0);
    await expect(page.getByTestId("order-empty")).toBeVisible();

    // Nothing was opened: Holding stays empty; History shows it as cancelled.
    await page.getByRole("link", { name: EN("order:tabs.holding") }).click();
    await expect(page.getByTestId("order-empty")).toBeVisible();
    await page.getByRole("link", { name: EN("order:tabs.history") }).click();
    const row = page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);
    await expect(row).toBeVisible();
    await expect(row).toContainText(EN("order:cancelled"));
  });

  test("the open profit changes live", async ({ page }, info) => {
    test.skip(!jsOn(info), "live profit needs JavaScript");
    await demoByForm(page);
    await placeOrder(page, { side: "buy" });
    const profit = page.getByTestId("order-profit").first();
    await expect(profit).toHaveText(/\d/);
    await page.evaluate(() => {
      (window as unknown as { __e2eMark: number }).__e2eMark = 7;
    });
    const before = await profit.innerText();
    // The market ticks 40 price steps up: the buy's open profit moves with it, in this document.
    const c = await contractOf(CODE);
    const last = (await (
      await fetch(`${UPSTREAM_URL}/v1/api/forex/kline?forex_id=${c.id}&period=1min`)
    ).json()) as {
      data: { Close: number }[];
    };
    const step = 1 / 10 ** c.precision;
    await setPrice(CODE, (last.data.at(-1)!.Close + 40 * step).toFixed(c.precision));
    await expect(profit).not.toHaveText(before);
    expect(await page.evaluate(() => (window as unknown as { __e2eMark?: number }).__e2eMark)).toBe(
      7,
    );
  });
});
