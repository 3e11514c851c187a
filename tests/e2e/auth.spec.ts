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

  test("with JavaScript, a field left before its schema arrives sends nothing and the form stays ready", async ({
    page,
  }, info) => {
    test.skip(!jsOn(info), "the schema is JavaScript; without it the server checks each submit");
    // The form's schema is held in transit: the page is interactive, its browser checks not yet.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = () => {};
    const schemaAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/build\/_shared\/validate-[A-Z0-9]+\.js$/, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    const bodies: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") bodies.push(r.postData() ?? "");
    });
    await page.goto("/login");
    await schemaAsked;
    // Fields filled and left as a person would: each leaving is a check the page cannot make yet.
    await field(page, "auth:password").fill("whatever-1");
    await field(page, "auth:email").focus();
    await field(page, "auth:password").focus();
    await expect(button(page, "auth:login_submit")).toBeEnabled();
    await button(page, "auth:login_submit").click();
    // The server checks with the same schema: the empty account is refused, nothing else was sent.
    await expect(page.getByText(web("en", "auth:input_account"), { exact: true })).toBeVisible();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain("intent=login");
    expect(bodies[0]).not.toContain("__intent__");
    release();
  });
});
