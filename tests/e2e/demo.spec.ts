/** The one-tap demo account and the user centre's card. */
import { test, expect, signInDemo } from "./fixtures";
import { web } from "./texts";

test("one-tap demo account: signed in, the card shows the demo label and 10,000.00, and hides it", async ({
  page,
}) => {
  await signInDemo(page);

  // From home to the user centre through the account icon, like a person.
  await page.getByRole("link", { name: web("en", "common:home.account") }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByTestId("user-name")).toContainText(web("en", "common:user.demo_label"));
  await expect(page.getByTestId("user-uid")).toHaveText(/\S+/);
  const balance = page.getByTestId("user-balance");
  await expect(balance).toHaveText("10,000.00");

  // The hide toggle hides the balance (a form: it works without JavaScript) and keeps it hidden.
  await page.getByRole("button", { name: web("en", "common:user.hide_balance") }).click();
  await expect(balance).not.toContainText("10,000.00");
  await expect(balance).toHaveText(/^\*+$/);
  await page.reload();
  await expect(balance).toHaveText(/^\*+$/);

  // ... and shows it again.
  await page.getByRole("button", { name: web("en", "common:user.show_balance") }).click();
  await expect(balance).toHaveText("10,000.00");
});
