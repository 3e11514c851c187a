/**
 * The sign-up captcha (setting register.captcha, default off). Switching it on changes sign-up for
 * every visitor, so this file runs in its own projects after all the others (playwright.config.ts).
 * It turns the setting on through the operator API, as an operator would, and off again afterwards.
 */
import { operatorSetting } from "./operator";
import path from "node:path";
import Database from "better-sqlite3";
import { test, expect, field, button, uniqueEmail, sentTo } from "./fixtures";
import { web } from "./texts";

const EN = (key: string) => web("en", key);

function setCaptcha(on: boolean): Promise<void> {
  return operatorSetting("register.captcha", on ? "1" : "0");
}

async function codeWasSent(to: string): Promise<boolean> {
  return (await sentTo(to)).length > 0;
}

/**
 * The characters of a captcha image, read where the server keeps them: its store (the e2e
 * server's DATA_DIR), since a test cannot read the picture as a person does.
 */
function captchaText(id: string): string {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "upstream.sqlite"), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const row = db.prepare("SELECT answer FROM captchas WHERE id = ?").get(id) as
      { answer: string } | undefined;
    expect(row, `captcha ${id} in the store`).toBeTruthy();
    return row!.answer;
  } finally {
    db.close();
  }
}

test.describe.configure({ mode: "serial" });
test.beforeAll(() => setCaptcha(true));
test.afterAll(() => setCaptcha(false));

test("with the captcha on, sending a sign-up code needs the characters of the image", async ({
  page,
}, info) => {
  const email = uniqueEmail(info, "captcha");
  await page.goto("/register");
  // The captcha is an image in the HTML: no JavaScript needed to see it.
  const img = page.getByRole("img", { name: EN("auth:captcha_alt") });
  await expect(img).toBeVisible();
  await expect(img).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/);

  // Without the characters: refused, and no code is sent.
  await field(page, "auth:email").fill(email);
  await button(page, "auth:send_code").click();
  await expect(page.locator(".field-error, .form-errors").first()).toBeVisible();
  expect(await codeWasSent(email)).toBe(false);

  // Wrong characters: refused by the upstream, no code sent, and a fresh image is shown.
  const firstId = await page.locator('input[name="captcha_id"]').inputValue();
  await field(page, "auth:email").fill(email);
  await field(page, "auth:captcha").fill("wrong!");
  await button(page, "auth:send_code").click();
  await expect(page.locator(".field-error, .form-errors").first()).toBeVisible();
  expect(await codeWasSent(email)).toBe(false);
  await expect(page.locator('input[name="captcha_id"]')).not.toHaveValue(firstId);

  // The right characters: the code is sent and the button counts down.
  const id = await page.locator('input[name="captcha_id"]').inputValue();
  await field(page, "auth:email").fill(email);
  await field(page, "auth:captcha").fill(captchaText(id));
  await button(page, "auth:send_code").click();
  await expect(page.locator('button[value="send_code"]')).toBeDisabled();
  await expect.poll(() => codeWasSent(email)).toBe(true);
});
