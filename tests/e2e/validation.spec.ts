/** Bad input shows the spec's messages (product-spec.md sections 5 and 8) and changes nothing. */
import { test, expect, field, button, registerByEmail, signIn, uniqueEmail } from "./fixtures";
import { upstream, web } from "./texts";

test.describe("bad input", () => {
  test("mismatched passwords on sign-up: 'Password inconsistency'", async ({ page }, info) => {
    await page.goto("/register");
    await field(page, "auth:email").fill(uniqueEmail(info, "mismatch"));
    await field(page, "auth:code").fill("123456");
    await field(page, "auth:password").fill("secret-one-1");
    await field(page, "auth:re_password").fill("secret-two-2");
    await button(page, "auth:register_submit").click();
    await expect(page.getByText("Password inconsistency", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/register/);
  });

  test("empty sign-in fields ask for the account and the password", async ({ page }) => {
    await page.goto("/login");
    await button(page, "auth:login_submit").click();
    await expect(page.getByText(web("en", "auth:input_account"), { exact: true })).toBeVisible();
    await expect(page.getByText(web("en", "auth:input_password"), { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });

  test("a wrong password shows the upstream's message and does not sign in", async ({
    page,
  }, info) => {
    const email = uniqueEmail(info, "wrongpw");
    await registerByEmail(page, email);
    await signIn(page, email, "not-the-password");
    await expect(page.getByRole("alert")).toContainText(
      upstream("en", "accounts", "accounts.login_failed"),
    );
    await expect(page).toHaveURL(/\/login/);
    // still a visitor
    await page.goto("/user");
    await expect(page).toHaveURL(/\/login\?from=/);
  });
});
