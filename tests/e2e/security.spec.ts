/**
 * /mine/security, as a person uses it, with JavaScript on and off: turn on two-factor sign-in with
 * the key the page shows (the code computed as an authenticator app would), keep the backup codes,
 * sign in on a second device with the password and then a code, see both devices in the session
 * list and sign the first one out from the second, sign in with a backup code, see a new
 * withdrawal address ask for a code, and turn two-factor off again; and support's reset of it, filed
 * in the console and approved by a second operator.
 *
 * An authenticator's code is valid for its 30 s step and one step either side, and a step once used
 * cannot be used again: the second sign-in uses the next step's code, later steps use backup codes,
 * so nothing waits on the clock.
 */
import { generate } from "otplib";
import type { Page } from "@playwright/test";
import {
  test,
  expect,
  button,
  field,
  newSignedInUser,
  secondDevice,
  signIn,
  uniqueEmail,
  registerEmailByApi,
  HOME,
  PASSWORD,
} from "./fixtures";
import { approvePending, openConsole, secondOperator, userApi, userSession } from "./console";
import { upstream, web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);
const SEC = (key: string) => upstream("en", "security", key);

/** The app's code for `secret`, `steps` periods from now. */
const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Turns two-factor on from /mine/security; the key and the backup codes the page showed. */
async function turnOn(page: Page): Promise<{ secret: string; backup: string[] }> {
  await page.goto("/mine/security");
  await button(page, "security:turn_on").click();
  await expect(page.getByTestId("two-factor-qr").locator("svg")).toBeVisible();
  const secret = (await page.getByTestId("two-factor-secret").innerText()).replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await field(page, "security:setup_step_code").fill(await codeAt(secret));
  await button(page, "security:enable_submit").click();
  const codes = page.getByTestId("backup-codes").locator("li");
  await expect(codes).toHaveCount(10);
  await expect(page.getByTestId("two-factor-state")).toHaveText(EN("security:is_on"));
  await expect(page.getByTestId("backup-codes")).toContainText(SEC("security.two_factor_enabled"));
  return { secret, backup: await codes.allInnerTexts() };
}

/** Signs in with the password, then the code on /login/code; ends on /. */
async function signInWithCode(page: Page, email: string, code: string): Promise<void> {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/login\/code$/);
  await expect(page.getByRole("heading", { name: EN("security:code_title") })).toBeVisible();
  await field(page, "security:code_label").fill(code);
  await button(page, "security:code_submit").click();
  await expect(page).toHaveURL(HOME);
}

test("two-factor sign-in: turn on, sign in with a code and a backup code, end a device's session, turn off", async ({
  page,
  browser,
}, info) => {
  test.setTimeout(90_000);
  const email = await newSignedInUser(page, info);
  const { secret, backup } = await turnOn(page);

  // A second device: the password alone no longer signs in; a wrong code is refused on the form.
  const other = await secondDevice(browser, info);
  const p2 = other.page;
  await signIn(p2, email);
  await expect(p2).toHaveURL(/\/login\/code$/);
  await field(p2, "security:code_label").fill("000000");
  await button(p2, "security:code_submit").click();
  await expect(p2.getByRole("alert")).toContainText(SEC("security.two_factor_wrong"));
  await expect(p2).toHaveURL(/\/login\/code$/);
  await field(p2, "security:code_label").fill(await codeAt(secret, 1));
  await button(p2, "security:code_submit").click();
  await expect(p2).toHaveURL(HOME);

  // Its session list: both devices, this one marked; it signs the first device out.
  await p2.goto("/mine/security");
  const sessions = p2.getByTestId("session");
  await expect(sessions).toHaveCount(2);
  await expect(p2.getByTestId("this-device")).toHaveCount(1);
  const first = sessions.filter({ hasNot: p2.getByTestId("this-device") });
  await first.getByRole("button", { name: EN("security:end_session") }).click();
  await expect(p2.locator('[data-toast="success"]')).toContainText(SEC("security.session_ended"));
  await expect(p2.getByTestId("session")).toHaveCount(1);
  await other.done();

  // The first device was signed out: it signs in again, with a backup code this time.
  await page.goto("/user");
  await expect(page).toHaveURL(/\/login\?from=(%2F|\/)user$/);
  await page.goto("/login");
  await signInWithCode(page, email, backup[0]);
  await page.goto("/mine/security");
  await expect(page.getByTestId("backup-codes-left")).toHaveText(
    EN("security:backup_codes_left_other", { count: 9 }),
  );

  // A new withdrawal address asks for a code while two-factor is on.
  await page.goto("/mine/wallet");
  await expect(page.getByTestId("bind-address").getByTestId("totp-code")).toBeVisible();

  // Turned off with a backup code and the password: then the password alone signs in.
  await page.goto("/mine/security");
  const off = page
    .getByRole("form")
    .or(page.locator("form"))
    .filter({
      has: page.getByRole("button", { name: EN("security:disable_submit") }),
    });
  await off.getByLabel(EN("security:code_label"), { exact: true }).fill(backup[1]);
  await off.getByLabel(EN("security:password_label"), { exact: true }).fill(PASSWORD);
  await button(page, "security:disable_submit").click();
  await expect(page.locator('[data-toast="success"]')).toContainText(
    SEC("security.two_factor_disabled"),
  );
  await expect(button(page, "security:turn_on")).toBeVisible();
});

test("support resets a user's two-factor sign-in after checking who they are; a second operator approves", async ({
  page,
  browser,
}, info) => {
  test.setTimeout(90_000);
  const email = uniqueEmail(info, "reset2fa");
  await registerEmailByApi(email);
  const user = await userSession(email);
  const setup = await userApi(user.token, "POST", "/api/user/two_factor_setup");
  const secret = setup.data.setup.secret as string;
  const on = await userApi(user.token, "POST", "/api/user/two_factor_enable", {
    code: await codeAt(secret),
  });
  expect(on.code, on.msg).toBe(1);

  await openConsole(page);
  await page.goto(`/operator/users?uid=${user.uid}`);
  const form = page.getByTestId("two-factor-reset-form");
  await form
    .getByLabel(EN("operator:two_factor_reset_remark"), { exact: true })
    .fill("Passport checked on a video call (e2e)");
  await form.getByRole("button", { name: EN("operator:two_factor_reset") }).click();
  await expect(page.locator('[data-toast="info"]')).toBeVisible();
  // Filed, not yet done: the password alone still asks for a code.
  const before = await userApi("", "POST", "/api/user/loginForU", {
    account: email,
    password: PASSWORD,
    login_type: "email",
  });
  expect(before.data.second_factor).toBeTruthy();

  const colleague = await secondOperator(browser, info);
  await approvePending(colleague.page, user.uid);
  await colleague.close();
  const after = await userApi("", "POST", "/api/user/loginForU", {
    account: email,
    password: PASSWORD,
    login_type: "email",
  });
  expect(after.data.token).toMatch(/^[0-9a-f]{32}$/);
  // The user's earlier session was ended with it.
  expect((await userApi(user.token, "GET", "/api/user/info")).code).toBe(999);
});
