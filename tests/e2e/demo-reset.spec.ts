/** The user centre's demo reset: closes every position and restores the starting balance. */
import { test, expect, newSignedInUser, demoByForm } from "./fixtures";
import { web } from "./texts";
import { D, contractOf, expectOrderFigures, openFigures, readOrder } from "./money";
import { formatBalance } from "../../app/utils/format";

const EN = (key: string) => web("en", key);

test("a demo account is reset: its position is gone and the balance is 10,000.00 again", async ({
  page,
}) => {
  await demoByForm(page);

  // Trade: a market buy changes the balance (the fee is charged when the position opens).
  await page.goto("/trade?code=BTCUSD");
  const form = page.getByTestId("order-form");
  await form.getByRole("button", { name: EN("trade:form.buy"), exact: true }).click();
  await expect(page.getByTestId("order-success")).toBeVisible();
  await page.goto("/order?status=1");
  await expect(page.getByTestId("order-row")).toHaveCount(1);
  const id = Number(await page.getByTestId("order-row").getAttribute("data-order-id"));
  // The balance is the start less the fee of the order's own fill (contract/formulas.ts).
  const c = await contractOf("BTCUSD");
  const order = await readOrder(page, 1, id);
  expectOrderFigures(c, order, 1);
  const { fee } = openFigures(c, order);
  await page.goto("/user");
  await expect(page.getByTestId("user-balance")).toHaveText(
    formatBalance(new D(10000).minus(fee).toNumber(), "en"),
  );

  // Reset: a disclosure with an explanation and a confirm button (works without JavaScript).
  await page.getByText(EN("common:user.reset_demo"), { exact: true }).click();
  await expect(page.getByText(EN("common:user.reset_demo_explain"))).toBeVisible();
  await page.getByRole("button", { name: EN("common:user.reset_demo_confirm") }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByTestId("user-balance")).toHaveText("10,000.00");

  await page.goto("/order?status=1");
  await expect(page.getByTestId("order-row")).toHaveCount(0);
});

// Reads the page only; a real account's /user has no <details>, so its markup is the same
// without JavaScript.
test(
  "a real account is not offered the demo reset",
  { tag: "@same-without-js" },
  async ({ page }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/user");
    await expect(page.getByTestId("user-balance")).toBeVisible();
    await expect(page.getByText(EN("common:user.reset_demo"), { exact: true })).toHaveCount(0);
  },
);
