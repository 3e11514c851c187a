/** Sign-up by e-mail with the code the server mails, sign-in, and the login-required redirect. */
import {
  test,
  expect,
  registerByEmail,
  signIn,
  uniqueEmail,
  field,
  button,
  jsOn,
  HOME,
  PASSWORD,
} from "./fixtures";
import { web } from "./texts";

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

  test("with JavaScript, sign-in checks its fields in the browser once its schema has arrived", async ({
    page,
  }, info) => {
    test.skip(
      !jsOn(info),
      "a check in the browser; without JavaScript the server checks (form-refusals)",
    );
    await page.goto("/login");
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(r.url());
    });
    const message = page.getByText(web("en", "auth:input_password"), { exact: true });
    // The schema is imported after the first paint; until then a blur shows nothing.
    await expect(async () => {
      await field(page, "auth:password").focus();
      await field(page, "auth:email").focus();
      await expect(message).toBeVisible({ timeout: 500 });
    }).toPass();
    await field(page, "auth:email").fill("someone@example.test");
    await button(page, "auth:login_submit").click();
    await expect(message).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(posts).toEqual([]);
  });
});
