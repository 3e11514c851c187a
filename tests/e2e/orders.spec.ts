/**
 * Closing positions from both places a person can (the trade screen's open positions and the
 * Holding list's detail dialog), and a closed order's detail opened straight from its History link
 * (/order?status=3&detail=ID) with its realised profit.
 */
import type { Page } from "@playwright/test";
import { test, expect, demoByForm } from "./fixtures";
import { contractOf, expectOrderFigures, readOrder } from "./money";
import { web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

/** Presses Buy on the trade screen shown, and dismisses the success pop-up to keep trading. */
async function buyHere(page: Page): Promise<void> {
  const form = page.getByTestId("order-form");
  await form.getByRole("button", { name: EN("trade:form.buy"), exact: true }).click();
  const success = page.getByTestId("order-success");
  await expect(success).toBeVisible();
  // "Continue trading": a button with JavaScript, a link back to the trade screen without.
  await success.getByText(EN("trade:success.continue"), { exact: true }).click();
  await expect(page.getByTestId("order-success")).toHaveCount(0);
  await expect(page).toHaveURL(/\/trade\?code=EURUSD$/);
}

test("close one position on the trade screen and one from Holding; History shows the closed order's realised profit", async ({
  page,
}) => {
  await demoByForm(page);
  await page.goto("/trade?code=EURUSD");
  await buyHere(page);
  await buyHere(page);

  // The trade screen lists both open positions; close the first one there.
  const positions = page.getByTestId("trade-positions");
  const rows = positions.getByTestId("order-row");
  await expect(rows).toHaveCount(2);
  const ids = (
    await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-order-id"))))
  ).sort((a, b) => a - b);
  expect(ids.every((id) => id > 0)).toBe(true);
  const [first, second] = ids;
  await positions
    .getByRole("button", { name: EN("trade:positions.close_label", { id: first }) })
    .click();
  await expect(positions.locator(`[data-order-id="${first}"]`)).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(page.locator('[data-toast="success"]')).toBeVisible();

  // Orders tab -> Holding: only the second one; its detail dialog closes it.
  await page
    .getByRole("navigation", { name: EN("common:tabs.label") })
    .getByRole("link", { name: EN("common:tabs.order") })
    .click();
  await expect(page).toHaveURL(/\/order$/);
  const holding = page.getByTestId("order-row");
  await expect(holding).toHaveCount(1);
  await expect(holding.first()).toHaveAttribute("data-order-id", String(second));
  await holding.first().getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`[?&]detail=${second}(&|$)`));
  const detail = page.getByTestId("order-detail");
  await expect(detail).toHaveAttribute("data-order-id", String(second));
  await expect(detail).toContainText(EN("order:detail.floating_profit"));
  await detail
    .getByRole("button", { name: EN("order:detail.close_label", { id: second }) })
    .click();
  await expect(page.getByTestId("order-detail")).toHaveCount(0);
  await expect(page.getByTestId("order-empty")).toBeVisible();

  // The History link of the first order (as shared or bookmarked) opens its detail.
  await page.goto(`/order?status=3&detail=${first}`);
  await expect(page.getByRole("link", { name: EN("order:tabs.history") })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const closed = page.getByTestId("order-detail");
  await expect(closed).toBeVisible();
  await expect(closed).toHaveAttribute("data-order-id", String(first));
  await expect(closed.locator("dt", { hasText: EN("order:detail.realised_profit") })).toBeVisible();
  await expect(closed.locator("dt", { hasText: EN("order:detail.close_price") })).toBeVisible();
  await expect(closed.getByTestId("detail-profit")).toHaveText(/\d/);
  const realised = await closed.getByTestId("detail-profit").innerText();
  // Realised profit (and margin and fee) from the order's own prices (contract/formulas.ts).
  expectOrderFigures(await contractOf("EURUSD"), await readOrder(page, 3, first), 3);
  // A closed order can no longer be closed or edited.
  await expect(
    closed.getByRole("button", { name: EN("order:detail.close_label", { id: first }) }),
  ).toHaveCount(0);
  await expect(closed.getByRole("form", { name: EN("order:detail.stop_title") })).toHaveCount(0);

  // The dialog's close link returns to the History list, which holds both closed orders.
  await closed.getByTestId("detail-back").click();
  await expect(page).toHaveURL(/\/order\?status=3$/);
  await expect(page.getByTestId("order-detail")).toHaveCount(0);
  for (const id of ids)
    await expect(page.locator(`[data-testid="order-row"][data-order-id="${id}"]`)).toBeVisible();
  // The list's realised profit of the first order is the one its detail showed.
  await expect(
    page.locator(`[data-testid="order-row"][data-order-id="${first}"]`).getByTestId("order-profit"),
  ).toHaveText(realised);
});
