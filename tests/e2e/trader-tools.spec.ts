/**
 * The trader's tools as a person uses them, with JavaScript on and off: an order placed with its
 * take profit in pips and a trailing stop; the trailing stop following the market (live with
 * JavaScript, on reload without) and shown with its distance in pips; part of the position closed
 * from its detail, listed in History with the position it came from; a pending order with an
 * expiry date, its trailing stop set later; and the order form's estimates (the value of a pip).
 * Each project trades its own instrument, so the two never move each other's prices.
 */
import type { Page } from "@playwright/test";
import { test, expect, demoByForm, jsOn } from "./fixtures";
import { setPrice } from "./operator";
import { upstream, web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

/** Places an order from the trade screen's form with the fields given, and keeps trading. */
async function order(page: Page, fill: (form: ReturnType<Page["getByTestId"]>) => Promise<void>) {
  const form = page.getByTestId("order-form");
  await fill(form);
  await form.getByRole("button", { name: EN("trade:form.buy"), exact: true }).click();
  const success = page.getByTestId("order-success");
  await expect(success).toBeVisible();
  await success.getByText(EN("trade:success.continue"), { exact: true }).click();
  await expect(page.getByTestId("order-success")).toHaveCount(0);
}

/** Opens the detail of the only order of a tab of /order. */
async function openOnly(page: Page, status: 0 | 1 | 3) {
  await page.goto(`/order?status=${status}`);
  const rows = page.getByTestId("order-row");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("link").click();
  const detail = page.getByTestId("order-detail");
  await expect(detail).toBeVisible();
  return detail;
}

test("take profit in pips, a trailing stop that follows the market, and part of the position closed", async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  const code = jsOn(info) ? "ETHUSD" : "SOLUSD";
  await setPrice(code, "3000.00");
  await demoByForm(page);
  await page.goto(`/trade?code=${code}`);

  await order(page, async (form) => {
    await form.getByLabel(EN("trade:form.lots"), { exact: true }).fill("0.3");
    await form.getByText(EN("trade:form.unit_pips"), { exact: true }).click();
    await form.getByLabel(EN("trade:form.take_profit")).fill("1000");
    // By keyboard: the fixed tab bar may cover a summary at the foot of the screen.
    await form.getByText(EN("trade:form.more"), { exact: true }).press("Enter");
    await form.getByLabel(EN("trade:form.trailing_pips")).fill("500");
    // One pip of 0.3 lots of a 2-decimal coin is worth 0.003 USD.
    if (jsOn(info)) await expect(form.getByTestId("order-pip-value")).toHaveText("0.003000");
  });

  let detail = await openOnly(page, 1);
  // 1,000 pips of 0.01 above the fill at 3,000.00; the trailing stop 500 pips (5.00) behind.
  await expect(detail.getByTestId("detail-tp")).toHaveText("3,010.00");
  await expect(detail.getByTestId("detail-trailing")).toHaveText(
    EN("trade:form.pips_distance_other", { pips: 500, price: "5.00" }),
  );
  const id = Number(await detail.getAttribute("data-order-id"));

  // The market rises: the stop follows it (live with JavaScript; a reload shows it without).
  await setPrice(code, "3004.00");
  if (jsOn(info)) await expect(detail.getByTestId("detail-sl")).toHaveText("2,999.00");
  else
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("detail-sl")).toHaveText("2,999.00", { timeout: 1000 });
    }).toPass({ timeout: 10_000 });
  // It falls back: the stop stays where it was.
  await setPrice(code, "3002.00");
  await page.reload();
  detail = page.getByTestId("order-detail");
  await expect(detail.getByTestId("detail-sl")).toHaveText("2,999.00");

  // A third of it closed from the detail; the rest keeps its stops.
  await detail.getByTestId("part-lots").fill("0.1");
  await detail.getByRole("button", { name: EN("order:detail.close_part") }).click();
  await expect(page.locator('[data-toast="success"]')).toContainText(
    upstream("en", "trading", "order_closed_part"),
  );
  detail = page.getByTestId("order-detail");
  await expect(detail).toHaveAttribute("data-order-id", String(id));
  await expect(detail.getByTestId("detail-tp")).toHaveText("3,010.00");
  await expect(detail.locator("dd").nth(1)).toHaveText("0.20");

  // History lists the part with the position it was closed from.
  const part = await openOnly(page, 3);
  await expect(part.getByTestId("detail-parent")).toHaveText(
    EN("order:detail.part_of_value", { id }),
  );
});

test("a pending order with an expiry date, and its trailing stop set later", async ({
  page,
}, info) => {
  test.setTimeout(60_000);
  const code = jsOn(info) ? "XRPUSD" : "DOGEUSD";
  const price = await setPrice(code, jsOn(info) ? "2.0000" : "0.40000");
  await demoByForm(page);
  await page.goto(`/trade?code=${code}`);
  const at = new Date(Date.now() + 2 * 86_400_000);
  const local = at.toISOString().slice(0, 16);

  await order(page, async (form) => {
    await form.getByText(EN("trade:form.pending"), { exact: true }).click();
    await form.getByLabel(EN("trade:form.target_price")).fill((price * 0.9).toFixed(4));
    // By keyboard: the fixed tab bar may cover a summary at the foot of the screen.
    await form.getByText(EN("trade:form.more"), { exact: true }).press("Enter");
    await form.getByLabel(EN("trade:form.expiry")).selectOption("date");
    await form.getByLabel(EN("trade:form.expires_at")).fill(local);
  });

  let detail = await openOnly(page, 0);
  await expect(detail.getByTestId("detail-expiry")).not.toHaveText(EN("trade:form.expiry_gtc"));
  await expect(detail.getByTestId("detail-expiry")).toHaveText(/\d/);

  const trail = detail.getByTestId("trail-form");
  await trail.getByLabel(EN("trade:form.trailing_pips")).fill("30");
  await trail.getByRole("button", { name: EN("order:detail.save_trailing") }).click();
  await expect(page.locator('[data-toast="success"]')).toContainText(
    upstream("en", "trading", "trailing_updated"),
  );
  detail = page.getByTestId("order-detail");
  await expect(detail.getByTestId("detail-trailing")).toContainText("30");

  // A refused distance (finer than a tenth of a pip) is said at its field and changes nothing.
  await trail.getByLabel(EN("trade:form.trailing_pips")).fill("0.05");
  await trail.getByRole("button", { name: EN("order:detail.save_trailing") }).click();
  await expect(page.locator('[data-error-for="trailing_pips"]')).toHaveText(
    EN("trade:errors.pips"),
  );
  await page.goto(page.url());
  await expect(page.getByTestId("detail-trailing")).toContainText("30");
});
