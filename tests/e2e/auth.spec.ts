/** Sign-up by e-mail with the code the server mails, sign-in, and the login-required redirect. */
import {
  test,
  expect,
  registerByEmail,
  signIn,
  uniqueEmail,
  field,
  HOME,
  PASSWORD,
} from "./fixtures";

test.describe("sign-up and sign-in", () => {
  test("sign-up by e-mail with the mailed code, then sign-in lands on /", async ({
    page,
  }, info) => {
    const email = uniqueEmail(info, "signup");
    await registerByEmail(page, email);
    await expect(page).toHaveURL(/\/login$/);

    await signIn(page, email);
    await expect(page).toHaveURL(HOME);

    // Really signed in: the user centre shows this account's e-mail.
    await page.goto("/user");
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByTestId("user-name")).toHaveText(email);
  });

  test("a login-required route sends to /login?from= and back after sign-in", async ({
    page,
  }, info) => {
    const email = uniqueEmail(info, "from");
    await registerByEmail(page, email);

    // A fresh visitor (signed out) opens the user centre.
    await page.context().clearCookies();
    await page.goto("/user");
    await expect(page).toHaveURL(/\/login\?from=(%2F|\/)user$/);
    await expect(field(page, "auth:email")).toBeVisible();

    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByTestId("user-name")).toHaveText(email);
  });
});
