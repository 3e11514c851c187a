/**
 * Price alerts and notifications, as a person uses them, with JavaScript on and off: a price alert
 * set from the trade screen's "Price alert" link fires when the market reaches it (the hand-driven
 * market of the e2e upstream), the notice is listed on /mine/notifications and counted on the user
 * centre, "mark all read" clears the count, and the alert is removed. Each project moves its own
 * instrument, so the two never move each other's prices.
 */
import { test, expect, jsOn, newSignedInUser } from "./fixtures";
import { setPrice } from "./operator";
import { upstream, web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

test("a price alert set from the trade screen fires, is listed as a notification and read", async ({
  page,
}, info) => {
  test.setTimeout(60_000);
  const code = jsOn(info) ? "XPTUSD" : "NGAS";
  const now = await setPrice(code, "100");
  expect(now).toBe(100);
  await newSignedInUser(page, info);

  await page.goto(`/trade?code=${code}`);
  await page.getByTestId("set-alert").click();
  await expect(page).toHaveURL(new RegExp(`/mine/alerts\\?code=${code}$`));
  const form = page.locator("#alert-create");
  await expect(form.getByLabel(EN("alerts:instrument"))).toHaveValue(/\d+/);
  await form.getByLabel(EN("alerts:condition")).selectOption("above");
  await form.getByLabel(EN("alerts:target")).fill("105");
  await form.getByRole("button", { name: EN("alerts:create") }).click();
  await expect(page.locator('[data-toast="success"]')).toContainText(
    upstream("en", "alerts", "alerts.created"),
  );
  await expect(page.getByTestId("alert")).toHaveCount(1);
  await expect(page.getByTestId("alert")).toHaveAttribute("data-active", "1");

  // The market reaches it while the person is elsewhere.
  await setPrice(code, "106");
  await expect(async () => {
    await page.goto("/mine/notifications");
    await expect(page.getByTestId("notice")).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  const notice = page.getByTestId("notice");
  await expect(notice).toHaveAttribute("data-kind", "price_alert");
  await expect(notice).toHaveAttribute("data-read", "0");
  await expect(notice).toContainText(`${code} is at 106, at or above your alert at 105.`);

  await page.goto("/user");
  await expect(page.getByTestId("unread-badge")).toHaveText("1");

  await page.goto("/mine/notifications");
  await page.getByRole("button", { name: EN("notify:read_all") }).click();
  await expect(page.locator('[data-toast="success"]')).toContainText(EN("notify:all_read"));
  await expect(page.getByTestId("notice")).toHaveAttribute("data-read", "1");
  await page.goto("/user");
  await expect(page.getByTestId("unread-badge")).toHaveCount(0);

  await page.goto("/mine/alerts");
  await expect(page.getByTestId("alert")).toHaveAttribute("data-active", "0");
  await page
    .getByTestId("alert")
    .getByRole("button", { name: EN("alerts:delete") })
    .click();
  await expect(page.locator('[data-toast="success"]')).toContainText(
    upstream("en", "alerts", "alerts.deleted"),
  );
  await expect(page.getByTestId("alert")).toHaveCount(0);
});

test("notification settings: a kind's push turned off and its e-mail on are kept", async ({
  page,
}, info) => {
  await newSignedInUser(page, info);
  await page.goto("/mine/notifications");
  await page.getByTestId("notice-settings").click();
  await expect(page).toHaveURL(/\/mine\/notifications\/settings$/);
  const row = page.locator('[data-testid="channel-row"][data-kind="deposit_credited"]');
  const push = row.getByLabel(
    `${EN("notify:kind_deposit_credited")}: ${EN("notify:channel_push")}`,
  );
  const email = row.getByLabel(
    `${EN("notify:kind_deposit_credited")}: ${EN("notify:channel_email")}`,
  );
  await expect(push).toBeChecked();
  await expect(email).not.toBeChecked();
  await push.uncheck();
  await email.check();
  await page.getByRole("button", { name: EN("notify:save") }).click();
  await expect(page.locator('[data-toast="success"]')).toContainText(
    upstream("en", "notify", "notify.settings_saved"),
  );
  await page.reload();
  await expect(push).not.toBeChecked();
  await expect(email).toBeChecked();
  // Turning a device on is the page's script's: without it the page says so.
  if (!jsOn(info)) await expect(page.getByText(EN("notify:device_needs_js"))).toBeVisible();
});
