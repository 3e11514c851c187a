/**
 * Copy trading from the provider's side and a copy's money, JavaScript on and off:
 * - a real user is told why it cannot be a provider; once an operator approved its real-name
 *   verification, an empty name and a name another provider uses ("Aurora FX") are refused in
 *   place (400 without JavaScript); it becomes a provider with a public name, description and
 *   minimum investment, sees them saved and on its public page, changes them, and stops being a
 *   provider: its page then takes no new copiers.
 * - a user with a copy takes 100 USD back on /mine/copies (the copy's amount in and the user's
 *   balance follow); taking back more than the copy's free margin is refused in place with the
 *   upstream's message.
 *
 * Providers are named per run and project; the market is hand-driven (no price moves here).
 */
import sharp from "sharp";
import type { Page, TestInfo } from "@playwright/test";
import { test, expect, jsOn, newSignedInUser, num, remixBooted } from "./fixtures";
import { approveRealName, operatorAdjust } from "./operator";
import { EN } from "./console";
import { upstream } from "./texts";
import { devProvider, devProviderTrade, lotsForCopy, providerOf } from "./copy";

/** An instrument the strategy traders do not trade and no spec prices. */
const INSTRUMENT = "USDCHF";

function uniqueName(info: TestInfo, tag: string): string {
  const run = `${info.workerIndex}${info.repeatEachIndex}-${Date.now().toString(36)}`;
  return `e2e-${tag}-${info.project.name}-${run}`.slice(0, 40);
}

async function png(seed: number): Promise<Buffer> {
  return sharp({
    create: { width: 20, height: 14, channels: 3, background: { r: seed, g: 90, b: 40 } },
  })
    .png()
    .toBuffer();
}

/** Submits a real-name verification on /mine/auth; answers the id number it was sent with. */
async function submitVerification(page: Page, info: TestInfo): Promise<string> {
  const card = `P${info.workerIndex}${Date.now().toString(36).toUpperCase()}`;
  await page.goto("/mine/auth");
  const form = page.getByTestId("verify-form");
  await form.getByLabel(EN("verify:name")).fill("Ana Souza");
  await form.getByLabel(EN("verify:card_id")).fill(card);
  await form
    .getByLabel(EN("verify:front"))
    .setInputFiles({ name: "front.png", mimeType: "image/png", buffer: await png(11) });
  await form
    .getByLabel(EN("verify:back"))
    .setInputFiles({ name: "back.png", mimeType: "image/png", buffer: await png(22) });
  await form.getByRole("button", { name: EN("verify:submit") }).click();
  await expect(page.getByTestId("verify-status")).toHaveText(EN("verify:status_waiting"));
  // The form is a plain multipart post: the page after it is a new document.
  if (jsOn(info)) await remixBooted(page);
  return card;
}

/** Clicks a POST form's button; answers the status of the post (the document's without JavaScript). */
async function postStatus(page: Page, click: () => Promise<void>): Promise<number> {
  const posted = page.waitForResponse((r) => r.request().method() === "POST");
  await click();
  return (await posted).status();
}

test("a verified user becomes a provider, changes its settings and stops being one", async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  await newSignedInUser(page, info);

  // Not verified yet: the upstream's reason instead of the form.
  await page.goto("/mine/provider");
  await expect(page.getByTestId("provider-mine-reason")).toContainText(
    upstream("en", "copy", "provider_needs_verification"),
  );
  await expect(page.getByTestId("provider-form")).toHaveCount(0);

  await approveRealName(await submitVerification(page, info));

  await page.goto("/mine/provider");
  await expect(page.getByTestId("provider-mine-reason")).toHaveCount(0);
  await expect(page.getByTestId("provider-mine-state")).toHaveCount(0);
  const form = page.getByTestId("provider-form");
  const nameField = form.getByLabel(EN("copy:mine.name"));
  const descriptionField = form.getByLabel(EN("copy:mine.description"));
  const minField = form.getByLabel(EN("copy:mine.min_investment"));
  const save = form.getByTestId("provider-save");
  await expect(save).toHaveText(EN("copy:mine.become"));

  // An empty name: the field's message, the other fields kept.
  const description = "Swing trades on the majors, a few a week.";
  await descriptionField.fill(description);
  await minField.fill("50");
  const empty = await postStatus(page, () => save.click());
  if (!jsOn(info)) expect(empty).toBe(400);
  await expect(form.locator('[data-error-for="name"]')).toHaveText(EN("copy:errors.name"));
  await expect(descriptionField).toHaveValue(description);
  await expect(minField).toHaveValue("50");

  // A name a strategy trader uses: the upstream's message above the form, the name kept.
  await nameField.fill("Aurora FX");
  const taken = await postStatus(page, () => save.click());
  if (!jsOn(info)) expect(taken).toBe(400);
  await expect(form.getByRole("alert")).toHaveText(upstream("en", "copy", "provider_name_taken"));
  await expect(page).toHaveURL(/\/mine\/provider$/);
  await expect(nameField).toHaveValue("Aurora FX");
  await expect(page.getByTestId("provider-mine-state")).toHaveCount(0);

  // Becomes a provider: the settings as saved.
  const name = uniqueName(info, "prov");
  await nameField.fill(name);
  await save.click();
  await expect(page.locator('[data-toast="success"]')).toContainText(EN("copy:mine.saved"));
  const state = page.getByTestId("provider-mine-state");
  await expect(state).toContainText(EN("copy:mine.active"));
  await expect(state.locator("dd")).toHaveText(["0", "50.00"]);
  await expect(save).toHaveText(EN("copy:mine.update"));
  await page.goto("/mine/provider");
  await expect(nameField).toHaveValue(name);
  await expect(descriptionField).toHaveValue(description);
  await expect(minField).toHaveValue("50.00");

  // Its public page: name, description, minimum, copyable.
  await state.getByRole("link", { name: EN("copy:mine.view_page") }).click();
  await expect(page).toHaveURL(/\/rank\/provider\?id=\d+$/);
  const providerId = Number(new URL(page.url()).searchParams.get("id"));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText(description)).toBeVisible();
  await expect(
    page.getByText(EN("copy:provider.min_investment", { amount: "50.00" })),
  ).toBeVisible();
  await expect(page.getByTestId("copy-button")).toBeVisible();

  // Changes the description and the minimum.
  await page.goto("/mine/provider");
  const changed = "Swing trades on the majors; no more than three open at once.";
  await descriptionField.fill(changed);
  await minField.fill("75,5");
  await save.click();
  await expect(page.locator('[data-toast="success"]')).toContainText(EN("copy:mine.saved"));
  await expect(state.locator("dd")).toHaveText(["0", "75.50"]);
  await page.goto("/mine/provider");
  await expect(nameField).toHaveValue(name);
  await expect(descriptionField).toHaveValue(changed);
  await expect(minField).toHaveValue("75.50");
  const seen = await providerOf(providerId);
  expect(seen.description).toBe(changed);
  expect(seen.min_investment).toBe("75.50");

  // Stops being a provider, after the confirmation: no new copies.
  await page.getByText(EN("copy:mine.stop"), { exact: true }).click();
  await expect(page.getByText(EN("copy:mine.stop_confirm"))).toBeVisible();
  await page.getByTestId("provider-stop").click();
  await expect(page.locator('[data-toast="success"]')).toContainText(EN("copy:mine.stopped"));
  await expect(state).toContainText(EN("copy:mine.inactive"));
  await expect(state.getByRole("link", { name: EN("copy:mine.view_page") })).toHaveCount(0);
  await expect(page.getByTestId("provider-stop")).toHaveCount(0);
  await expect(save).toHaveText(EN("copy:mine.become"));
  // No longer public: its page is not found, as for a provider hidden by an operator.
  const gone = await page.goto(`/rank/provider?id=${providerId}`);
  expect(gone?.status()).toBe(404);
  await expect(page.getByTestId("provider-notice")).toHaveText(EN("copy:provider.not_found"));
  await expect(page.getByTestId("copy-button")).toHaveCount(0);
});

test("a user takes money back from a copy; more than the copy's free margin is refused in place", async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  const name = uniqueName(info, "funds");
  const providerId = await devProvider(name);
  const equity = Number((await providerOf(providerId)).equity);
  // A provider position whose copy by 500 USD holds some of the copy's margin.
  await devProviderTrade(providerId, INSTRUMENT, 1, lotsForCopy(equity, 500, 0.05));

  await newSignedInUser(page, info);
  await page.goto("/user");
  const uid = (await page.getByTestId("user-uid").textContent())!.trim();
  await operatorAdjust(uid, "1000", "Copy funds e2e");

  await page.goto(`/rank/provider/copy?id=${providerId}`);
  await page.getByLabel(EN("copy:form.amount")).fill("500");
  await page.getByRole("checkbox", { name: EN("copy:form.copy_open") }).check();
  await page.getByTestId("copy-submit").click();
  await expect(page).toHaveURL(/\/mine\/copies\/\d+$/);
  await expect(page.getByTestId("copy-positions").getByTestId("copy-position")).toHaveCount(1);

  // Takes 100 USD back on /mine/copies.
  await page.goto("/mine/copies");
  const item = page.locator(`[data-testid="copy-item"][data-provider="${name}"]`);
  await expect(item.getByTestId("copy-invested")).toHaveText("500.00");
  await item.getByTestId("copy-funds-open").click();
  await item.getByRole("radio", { name: EN("copy:copies.funds_remove"), exact: true }).check();
  await item.getByLabel(EN("copy:copies.funds_amount")).fill("100");
  await item.getByTestId("copy-funds-submit").click();
  await expect(page.locator('[data-toast="success"]')).toContainText(EN("copy:copies.funds_done"));
  await expect(page).toHaveURL(/\/mine\/copies$/);
  await expect(item.getByTestId("copy-invested")).toHaveText("400.00");

  // The user's balance: 1,000 less 500 in, plus 100 back; the ledger row.
  await page.goto("/mine/history");
  await expect(page.getByTestId("history-balance")).toHaveText("600.00");
  const back = page.locator('[data-testid="history-row"][data-kind="copy_out"]');
  await expect(back).toHaveCount(1);
  await expect(back.locator(".ledger-value")).toHaveText("+100.00");

  // More than the copy's free margin (its position holds the rest): refused beside the copy.
  await page.goto("/mine/copies");
  const hint = item.getByText(EN("copy:copies.can_take_out", { amount: "" }).split(":")[0]);
  const free = num((await hint.textContent())!.split(":")[1]!);
  expect(free).toBeGreaterThanOrEqual(0);
  const tooMuch = (Math.floor(free) + 1).toFixed(2);
  // Less than the copy's value: what refuses it is the margin its open position holds.
  expect(Number(tooMuch)).toBeLessThan(num((await item.getByTestId("copy-equity").textContent())!));
  await item.getByTestId("copy-funds-open").click();
  await item.getByRole("radio", { name: EN("copy:copies.funds_remove"), exact: true }).check();
  await item.getByLabel(EN("copy:copies.funds_amount")).fill(tooMuch);
  const status = await postStatus(page, () => item.getByTestId("copy-funds-submit").click());
  if (!jsOn(info)) expect(status).toBe(400);
  await expect(item.getByRole("alert")).toHaveText(upstream("en", "copy", "copy_funds_in_use"));
  await expect(page).toHaveURL(/\/mine\/copies$/);
  await expect(item.getByTestId("copy-funds-submit")).toBeVisible();
  await expect(item.getByTestId("copy-invested")).toHaveText("400.00");
  await page.goto("/mine/history");
  await expect(page.getByTestId("history-balance")).toHaveText("600.00");
});
