/**
 * The order form of /trade in detail: the lot stepper and the estimated margin (submit buttons named
 * `step` without JavaScript), the disabled decrement at the minimum, the pending order's required
 * target price, and a visitor's Buy sending them to sign in and back.
 */
import {
  test,
  expect,
  field,
  jsOn,
  num,
  registerEmailByApi,
  signIn,
  demoByForm,
  uniqueEmail,
} from "./fixtures";
import { web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

test.describe("order form", () => {
  test("the lot stepper changes the lots and the estimated margin; decrement is disabled at the minimum", async ({
    page,
  }) => {
    await page.goto("/trade?code=EURUSD");
    const form = page.getByTestId("order-form");
    const lots = form.getByTestId("order-lots");
    const plus = form.getByRole("button", { name: EN("trade:form.lots_increase") });
    const minus = form.getByRole("button", { name: EN("trade:form.lots_decrease") });
    const margin = form.getByTestId("order-est-margin");

    // The minimum (0.01 lots for EUR/USD): decrement disabled, a margin estimate shown.
    await expect(lots).toHaveValue("0.01");
    await expect(minus).toBeDisabled();
    await expect(plus).toBeEnabled();
    await expect(margin).toHaveText(/\d/);
    const m1 = num(await margin.innerText());
    expect(m1).toBeGreaterThan(0);

    // The margin is proportional to the lots (the price may move a little meanwhile: within 5 %).
    const ratio = async (factor: number) =>
      expect
        .poll(async () => num(await margin.innerText()) / (m1 * factor), { timeout: 5_000 })
        .toBeCloseTo(1, 1);
    await plus.click();
    await expect(lots).toHaveValue("0.02");
    await expect(minus).toBeEnabled();
    await ratio(2);
    await plus.click();
    await expect(lots).toHaveValue("0.03");
    await ratio(3);

    await minus.click();
    await expect(lots).toHaveValue("0.02");
    await minus.click();
    await expect(lots).toHaveValue("0.01");
    await expect(minus).toBeDisabled();
    await ratio(1);
    // Nothing was ordered: no success pop-up.
    await expect(page.getByTestId("order-success")).toHaveCount(0);
  });

  test("a pending order without a target price shows the required message and places nothing", async ({
    page,
  }) => {
    await demoByForm(page);
    await page.goto("/trade?code=EURUSD");
    const form = page.getByTestId("order-form");
    await form.getByText(EN("trade:form.pending"), { exact: true }).click();
    await expect(form.getByLabel(EN("trade:form.pending"), { exact: true })).toBeChecked();
    await expect(form.getByLabel(EN("trade:form.target_price"), { exact: true })).toHaveValue("");
    await form.getByRole("button", { name: EN("trade:form.buy"), exact: true }).click();
    await expect(form.locator('[data-error-for="target_price"]')).toHaveText(
      EN("trade:errors.target_price"),
    );
    await expect(form.getByLabel(EN("trade:form.target_price"), { exact: true })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(page.getByTestId("order-success")).toHaveCount(0);

    // Nothing is pending.
    await page.goto("/order?status=0");
    await expect(page.getByTestId("order-empty")).toBeVisible();
  });

  test("a visitor pressing Buy is sent to sign in, and comes back to that trade page", async ({
    page,
  }, info) => {
    const email = uniqueEmail(info, "buyer");
    await registerEmailByApi(email); // registered, not signed in
    await page.goto("/trade?code=GBPUSD");
    await expect(page.getByTestId("order-balance")).toHaveText("--");
    await page
      .getByTestId("order-form")
      .getByRole("button", { name: EN("trade:form.buy"), exact: true })
      .click();
    await expect(page).toHaveURL(/\/login\?from=(%2F|\/)trade(%3F|\?)code(%3D|=)GBPUSD$/);
    await expect(field(page, "auth:email")).toBeVisible();

    await signIn(page, email);
    await expect(page).toHaveURL(/\/trade\?code=GBPUSD$/);
    await expect(page.getByTestId("instrument-code")).toHaveText("GBP/USD");
    // Signed in now: the form shows the account's balance and no order was placed on the way.
    await expect(page.getByTestId("order-balance")).toHaveText(/\d/);
    await expect(page.getByTestId("order-success")).toHaveCount(0);
    await page.goto("/order?status=1");
    await expect(page.getByTestId("order-empty")).toBeVisible();
  });

  test("the estimate is in USD whatever the quote currency: 1 lot of USD/JPY at 1:100 is about 1,000 USD", async ({
    page,
  }, info) => {
    await page.goto("/trade?code=USDJPY");
    const form = page.getByTestId("order-form");
    await form.getByTestId("order-lots").fill("1");
    await form.getByLabel(EN("trade:form.leverage"), { exact: true }).selectOption("100");
    if (!jsOn(info)) await form.getByRole("button", { name: EN("trade:form.recalculate") }).click();
    const margin = form.getByTestId("order-est-margin");
    // lots x units x price / leverage in JPY, times USD per JPY (1 / the USD/JPY price)
    await expect
      .poll(async () => num(await margin.innerText()), { timeout: 5_000 })
      .toBeCloseTo(1000, 1);
    // fee type 2 (the upstream's default): margin x rate (0.002)
    await expect
      .poll(async () => num(await form.getByTestId("order-est-fee").innerText()), {
        timeout: 5_000,
      })
      .toBeCloseTo(2, 2);
  });
});
