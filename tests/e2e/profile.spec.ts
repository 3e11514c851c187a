/**
 * The account screens in both JavaScript modes: /mine/password (a code to the account's own e-mail,
 * then sign-in with the new password), /mine/email (a phone account binds an e-mail), /mine/invite
 * (code, link, QR code, count of sign-ups with the code; the link prefills /register), /mine as the
 * user centre, and the demo refusals.
 */
import type { Page } from "@playwright/test";
import {
  test,
  expect,
  field,
  button,
  newSignedInUser,
  signIn,
  demoByForm,
  readSentCode,
  secondDevice,
  uniqueEmail,
  HOME,
  PASSWORD,
} from "./fixtures";
import { web } from "./texts";
import { newMobileUser, registerEmailByApi, sendCodeWhenAllowed } from "./profile";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);
const NEW_PASSWORD = "N3w-post!e2e";

/** The response of the next POST to a path. */
function nextPost(page: Page, pathname: string) {
  return page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(pathname),
  );
}

test.describe("password", () => {
  test("changes the password with a code sent to the account's own e-mail; the new one signs in, the other device is signed out", async ({
    page,
    browser,
  }, info) => {
    const email = await newSignedInUser(page, info);
    // The same person signed in on another device.
    const other = await secondDevice(browser, info);
    await signIn(other.page, email);
    await expect(other.page).toHaveURL(HOME);
    await page.goto("/mine/password");
    await expect(page.getByRole("heading", { name: EN("account:password.title") })).toBeVisible();
    await expect(page.getByTestId("own-address")).toHaveText(email);
    // No recipient field: the code can only go to the account's own address.
    await expect(page.locator('input[name="account"], input[name="to"]')).toHaveCount(0);

    await sendCodeWhenAllowed(page);
    const code = await readSentCode(email, 10_000, 2);

    // Different passwords: refused (400) with the translated message, nothing changes.
    await field(page, "auth:code").fill(code);
    await field(page, "auth:new_password").fill(NEW_PASSWORD);
    await field(page, "auth:secondary_password").fill(`${NEW_PASSWORD}x`);
    if (!info.project.name.startsWith("no-js")) {
      // With JavaScript the form checks before posting.
      await page.getByRole("button", { name: EN("account:password.submit") }).click();
      await expect(page.getByText(EN("auth:password_inconsistency"))).toBeVisible();
    } else {
      const refused = nextPost(page, "/mine/password");
      await page.getByRole("button", { name: EN("account:password.submit") }).click();
      expect((await refused).status()).toBe(400);
      await expect(page.getByText(EN("auth:password_inconsistency"))).toBeVisible();
      await field(page, "auth:code").fill(code);
      await field(page, "auth:new_password").fill(NEW_PASSWORD);
    }
    await field(page, "auth:secondary_password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: EN("account:password.submit") }).click();
    await expect(page).toHaveURL(/\/mine$/);
    await expect(page.getByText("Password changed")).toBeVisible();
    // This session stays signed in; the other device's session was ended.
    await expect(page.getByTestId("user-name")).toHaveText(email);
    await other.page.goto("/mine");
    await expect(other.page).toHaveURL(/\/login\?from=(%2F|\/)mine$/);
    await other.done();

    await page.goto("/mine/system");
    await page.getByRole("button", { name: EN("common:system.logout") }).click();
    await expect(page).toHaveURL(HOME);
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole("alert")).toBeVisible();
    await signIn(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL(HOME);
  });

  // Reads the pages only: a demo account's are the notice, without /mine/invite's copy button (the
  // part that differs without JavaScript), so their markup is the same.
  test(
    "a demo account sees the real-account message instead of the forms",
    { tag: "@same-without-js" },
    async ({ page }) => {
      await demoByForm(page);
      for (const path of ["/mine/password", "/mine/email", "/mine/invite"]) {
        await page.goto(path);
        await expect(page.getByTestId("account-notice")).toHaveText(EN("account:real_only"));
        await expect(page.locator("form[method='post'] input[name='auth_code']")).toHaveCount(0);
      }
    },
  );
});

test.describe("email", () => {
  test("a phone account binds an e-mail with the code sent to it; a taken e-mail is refused", async ({
    page,
  }, info) => {
    await newMobileUser(page);
    const taken = uniqueEmail(info, "taken");
    await registerEmailByApi(taken);
    await page.goto("/mine/email");
    await expect(page.getByRole("heading", { name: EN("account:email.title") })).toBeVisible();
    await expect(page.getByText(EN("account:email.none"))).toBeVisible();

    const emailField = field(page, "account:email.new_email");
    await emailField.fill(taken);
    const refused = nextPost(page, "/mine/email");
    await button(page, "auth:send_code").click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByRole("alert")).toContainText(
      "This e-mail address is already used by another account",
    );

    const email = uniqueEmail(info, "bind");
    await field(page, "account:email.new_email").fill(email);
    await button(page, "auth:send_code").click();
    await expect(page.locator('button[value="send_code"]')).toBeDisabled();
    const code = await readSentCode(email);
    await expect(field(page, "account:email.new_email")).toHaveValue(email);
    await field(page, "auth:code").fill(code);
    await page.getByRole("button", { name: EN("account:email.submit") }).click();
    await expect(page.getByText("E-mail address added")).toBeVisible();
    await expect(page.getByTestId("account-email")).toHaveText(email);
  });
});

test.describe("invite", () => {
  test("shows the code, the link on this origin with its QR code, and counts sign-ups with the code", async ({
    page,
    baseURL,
  }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/mine/invite");
    await expect(page.getByRole("heading", { name: EN("account:invite.title") })).toBeVisible();
    const code = (await page.getByTestId("invite-code").innerText()).trim();
    expect(code).toMatch(/^[A-Z2-9]{6}$/);
    const link = `${baseURL}/register?invite_code=${code}`;
    await expect(page.getByTestId("invite-link")).toHaveText(link);
    await expect(page.getByTestId("invite-qr").locator("svg")).toBeVisible();
    await expect(page.getByRole("img", { name: EN("account:invite.qr_alt") })).toBeVisible();
    await expect(page.getByTestId("invite-count")).toHaveText("0");
    // The copy button needs JavaScript; without it the link stays selectable text.
    await expect(page.getByTestId("invite-copy")).toHaveCount(
      info.project.name.startsWith("no-js") ? 0 : 1,
    );

    await registerEmailByApi(uniqueEmail(info, "inv1"), code);
    await registerEmailByApi(uniqueEmail(info, "inv2"), code);
    await page.reload();
    await expect(page.getByTestId("invite-count")).toHaveText("2");

    // The link opens sign-up with the code filled in.
    await page.goto("/mine/system");
    await page.getByRole("button", { name: EN("common:system.logout") }).click();
    await expect(page).toHaveURL(HOME);
    await page.goto(link);
    await expect(field(page, "auth:invite_code")).toHaveValue(code);
  });
});

test.describe("user centre at /mine", () => {
  test("/mine is the user centre, asks to sign in first, and lists the account screens", async ({
    page,
  }, info) => {
    await page.goto("/mine");
    await expect(page).toHaveURL(/\/login\?from=(%2F|\/)mine$/);
    const email = uniqueEmail(info, "mine");
    await registerEmailByApi(email);
    await signIn(page, email);
    await expect(page).toHaveURL(/\/mine$/);
    await expect(page.getByTestId("user-name")).toHaveText(email);
    for (const key of ["password", "email", "invite", "chat"]) {
      await expect(page.getByRole("link", { name: EN(`common:user.entry.${key}`) })).toBeVisible();
    }
    await page.getByRole("link", { name: EN("common:user.entry.invite") }).click();
    await expect(page).toHaveURL(/\/mine\/invite$/);
  });
});
