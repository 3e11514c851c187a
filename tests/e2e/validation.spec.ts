/** Bad input shows the spec's messages (product-spec.md sections 5 and 8) and changes nothing. */
import { test, expect, field, button, registerEmailByApi, signIn, uniqueEmail } from "./fixtures";
import { upstream, web } from "./texts";

test.describe("bad input", () => {
  test("mismatched passwords on sign-up: 'The passwords do not match'", async ({ page }, info) => {
    await page.goto("/register");
    await field(page, "auth:email").fill(uniqueEmail(info, "mismatch"));
    await field(page, "auth:code").fill("123456");
    await field(page, "auth:password").fill("secret-one-1");
    await field(page, "auth:re_password").fill("secret-two-2");
    await button(page, "auth:register_submit").click();
    await expect(page.getByText("The passwords do not match", { exact: true })).toBeVisible();
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
    await registerEmailByApi(email);
    await signIn(page, email, "not-the-password");
    await expect(page.getByRole("alert")).toContainText(
      upstream("en", "accounts", "accounts.login_failed"),
    );
    await expect(page).toHaveURL(/\/login/);
    // still a visitor
    await page.goto("/user");
    await expect(page).toHaveURL(/\/login\?from=/);
  });

  test("a sign-in locked by the upstream's limit shows the wait on the form, even for the right password", async ({
    page,
  }, info) => {
    const email = uniqueEmail(info, "locked");
    await registerEmailByApi(email);
    const failed = upstream("en", "accounts", "accounts.login_failed");
    const locked = upstream("en", "common", "limits.retry", { wait: "15 minutes" });
    /** Signs in and waits for the answer to the form's POST; its HTTP status. */
    const tryPassword = async (password?: string) => {
      const answer = page.waitForResponse(
        (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/login"),
      );
      await signIn(page, email, password);
      return (await answer).status();
    };
    // The upstream checks 5 tries for one account from one address in 15 minutes (the default).
    for (let i = 0; i < 5; i++) {
      // A refused sign-in is a refused form: 400, with the upstream's message on it.
      expect(await tryPassword(`not-the-password-${i}`)).toBe(400);
      await expect(page.getByRole("alert")).toContainText(failed);
    }
    // Past the limit the web passes the upstream's 429 on.
    expect(await tryPassword()).toBe(429);
    await expect(page.getByRole("alert")).toContainText(locked);
    await expect(page).toHaveURL(/\/login/);
    await page.goto("/user");
    await expect(page).toHaveURL(/\/login\?from=/);
  });
});
