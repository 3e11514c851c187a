/**
 * Copy trading, JavaScript on and off: a real user with 1,000 USD finds a hand-driven provider on
 * the documentary tab, copies it with 500 USD and "copy open trades", sees the provider's open
 * position copied at once and its next trade copied as it happens (live with JavaScript; on the
 * next load without), sees the copied positions on /order, adds funds, closes one copied position,
 * pauses, resumes and stops the copy: the
 * positions close, the money returns, and /mine/history shows the copy_in and copy_out rows.
 *
 * The provider is driven through the upstream's dev routes (tests/e2e/copy.ts), with a name of its
 * own per run and project; the market is hand-driven (no price moves unless a test sets one).
 */
import { axeOf } from "./axe";
import type { Page, TestInfo } from "@playwright/test";
import { test, expect, jsOn, newSignedInUser, num } from "./fixtures";
import { operatorAdjust } from "./operator";
import { EN } from "./console";
import { upstream } from "./texts";
import { devProvider, devProviderTrade, lotsForCopy, providerOf } from "./copy";

/** Instruments the strategy traders do not trade and no other spec prices. */
const FIRST = "USDCHF";
const SECOND = "NZDUSD";
/** Their show codes, as the screens name them. */
const SHOWN: Record<string, string> = { USDCHF: "USD/CHF", NZDUSD: "NZD/USD" };

function providerName(info: TestInfo): string {
  return `e2e-copy-${info.project.name}-${Date.now().toString(36)}`.slice(0, 40);
}

/** Waits for `n` open copied positions: live with JavaScript, by loading the page again without. */
async function expectOpenPositions(page: Page, info: TestInfo, n: number): Promise<void> {
  const rows = page.getByTestId("copy-positions").getByTestId("copy-position");
  if (jsOn(info)) {
    await expect(rows).toHaveCount(n, { timeout: 15_000 });
    return;
  }
  await expect(async () => {
    await page.reload();
    await expect(rows).toHaveCount(n, { timeout: 500 });
  }).toPass({ timeout: 15_000, intervals: [250, 500, 1_000] });
}

test("a user copies a provider with 500 USD, follows its trades, pauses, resumes and stops", async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const name = providerName(info);
  const providerId = await devProvider(name);
  const equity = Number((await providerOf(providerId)).equity);
  // Provider lots whose copy by 500 USD is a few lot steps (whatever the provider's funding).
  const lots = lotsForCopy(equity, 500, 0.03);
  await devProviderTrade(providerId, FIRST, 1, lots);

  await newSignedInUser(page, info);
  await page.goto("/user");
  const uid = (await page.getByTestId("user-uid").textContent())!.trim();
  await operatorAdjust(uid, "1000", "Copy trading e2e funds");

  // The documentary tab lists the provider; its page shows the open position as instrument and side.
  await page.goto("/rank?view=copy");
  const row = page.locator(`[data-testid="trader"][data-name="${name}"]`);
  await row.getByTestId("trader-link").click();
  await expect(page).toHaveURL(new RegExp(`/rank/provider\\?id=${providerId}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("provider-position")).toHaveText([
    `${SHOWN[FIRST]} ${EN("trade:buy")}`,
  ]);
  await expect(page.getByTestId("provider-copiers")).toHaveText("0");

  // The copy form: free margin shown, the example follows the provider's last trade.
  await page.getByTestId("copy-button").click();
  await expect(page).toHaveURL(new RegExp(`/rank/provider/copy\\?id=${providerId}$`));
  await expect(page.getByTestId("copy-free-margin")).toContainText("1,000.00");
  await expect(page.getByTestId("copy-example")).toContainText(SHOWN[FIRST]);
  await page.getByLabel(EN("copy:form.amount")).fill("500");
  if (jsOn(info))
    await expect(page.getByTestId("copy-example")).toContainText(
      EN("copy:form.example", { amount: "500.00" }),
    );
  await page.getByRole("checkbox", { name: EN("copy:form.copy_open") }).check();
  await page.getByTestId("copy-submit").click();

  // The copy's page: 500 in, the provider's open position copied at once.
  await expect(page).toHaveURL(/\/mine\/copies\/\d+$/);
  const copyUrl = page.url();
  await expect(page.getByTestId("copy-status")).toHaveAttribute("data-status", "active");
  await expect(page.getByTestId("copy-invested")).toHaveText("500.00");
  await expectOpenPositions(page, info, 1);
  await expect(page.getByTestId("copy-position").first()).toHaveAttribute(
    "data-code",
    SHOWN[FIRST],
  );

  // The provider trades again: the copy follows.
  await devProviderTrade(providerId, SECOND, 2, lots);
  await expectOpenPositions(page, info, 2);
  await expect(
    page.getByTestId("copy-positions").locator(`[data-code="${SHOWN[SECOND]}"]`),
  ).toContainText(EN("trade:sell"));

  // /order shows the copied positions with their provider, linking to the copy.
  await page.goto("/order");
  const copied = page.getByTestId("copied-positions");
  await expect(copied.getByTestId("copied-row")).toHaveCount(2);
  await expect(copied).toContainText(name);
  await copied.getByRole("link", { name: EN("copy:order.from", { name }) }).click();
  await expect(page).toHaveURL(copyUrl);

  // Add 100 USD from free margin; close the second copied position by hand.
  await page.getByTestId("copy-funds-open").click();
  await page.getByLabel(EN("copy:copies.funds_amount")).fill("100");
  await page.getByTestId("copy-funds-submit").click();
  await expect(page.getByTestId("copy-invested")).toHaveText("600.00");
  await page.getByRole("button", { name: new RegExp(`${SHOWN[SECOND]} #\\d+$`) }).click();
  await expectOpenPositions(page, info, 1);
  await expect(page.getByTestId("copy-closed").getByTestId("copy-position")).toHaveCount(1);

  // Pause, resume.
  await page.getByTestId("copy-pause").click();
  await expect(page.getByTestId("copy-status")).toHaveAttribute("data-status", "paused");
  await page.getByTestId("copy-resume").click();
  await expect(page.getByTestId("copy-status")).toHaveAttribute("data-status", "active");

  // Stop, after the confirmation: the positions close and the money returns.
  await page.getByTestId("copy-stop-open").click();
  await expect(page.getByText(EN("copy:copies.stop_confirm"))).toBeVisible();
  await page.getByTestId("copy-stop").click();
  await expect(page.getByTestId("copy-status")).toHaveAttribute("data-status", "stopped");
  await expect(page.getByTestId("copy-positions-empty")).toBeVisible();
  await expect(page.getByTestId("copy-closed").getByTestId("copy-position")).toHaveCount(2);
  await expect(page.getByTestId("copy-actions")).toHaveCount(0);

  await page.goto("/mine/copies");
  const item = page.locator(`[data-testid="copy-item"][data-provider="${name}"]`);
  await expect(item.getByTestId("copy-status")).toHaveAttribute("data-status", "stopped");

  // The ledger: 500 moved into the copy, its equity moved back.
  await page.goto("/mine/history");
  const into = page.locator('[data-testid="history-row"][data-kind="copy_in"]');
  const back = page.locator('[data-testid="history-row"][data-kind="copy_out"]');
  await expect(into).toHaveCount(2);
  await expect(back).toHaveCount(1);
  await expect(into.nth(0)).toContainText(upstream("en", "money", "ledger_kind_copy_in"));
  await expect(into.nth(0)).toContainText("-100.00");
  await expect(into.nth(1)).toContainText("-500.00");
  await expect(back).toContainText(upstream("en", "money", "ledger_kind_copy_out"));
  const returned = num((await back.locator(".ledger-value").textContent()) ?? "");
  // The copy's equity at the stop: 600 less the spreads and fees of a few lot steps.
  expect(returned).toBeGreaterThan(550);
  expect(returned).toBeLessThanOrEqual(600);
  const balance = num((await page.getByTestId("history-balance").textContent()) ?? "");
  expect(balance).toBeCloseTo(400 + returned, 2);
});

test("an unknown provider is a translated 404; a copy beyond the free margin is refused in place; an unverified user sees why it cannot be a provider", async ({
  page,
}, info) => {
  const missing = await page.goto("/rank/provider?id=999999999");
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId("provider-notice")).toHaveText(EN("copy:provider.not_found"));

  const name = providerName(info);
  const providerId = await devProvider(name);
  await newSignedInUser(page, info);
  await page.goto(`/rank/provider/copy?id=${providerId}`);
  await expect(page.getByTestId("copy-free-margin")).toContainText("0.00");
  await page.getByLabel(EN("copy:form.amount")).fill("500");
  const posted = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByTestId("copy-submit").click();
  if (!jsOn(info)) expect((await posted).status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText(
    upstream("en", "copy", "copy_insufficient_margin"),
  );
  await expect(page).toHaveURL(new RegExp(`/rank/provider/copy\\?id=${providerId}$`));
  await expect(page.getByLabel(EN("copy:form.amount"))).toHaveValue("500");

  // The user centre leads to the copies and to the provider settings.
  await page.goto("/mine");
  await page.getByRole("link", { name: EN("common:user.entry.copies") }).click();
  await expect(page).toHaveURL(/\/mine\/copies$/);
  await expect(page.getByTestId("copies-empty")).toBeVisible();
  await page.goto("/mine");
  await page.getByRole("link", { name: EN("common:user.entry.provider") }).click();
  await expect(page).toHaveURL(/\/mine\/provider$/);
  await expect(page.getByTestId("provider-mine-reason")).toBeVisible();
  await expect(page.getByTestId("provider-form")).toHaveCount(0);
});

test.describe(() => {
  // axe measures what is painted at that moment: toasts drawn in their final colours at once
  // (reduced motion), as in a11y.spec.ts.
  test.use({ reducedMotion: "reduce" });
  test("the copy screens have no accessibility violations", async ({ page }, info) => {
    // The server's HTML is what hydration keeps: the js project's check covers both.
    test.skip(!jsOn(info), "checked with JavaScript");
    const axe = async (screen: string) => {
      const { violations } = await axeOf(page).analyze();
      expect(
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        screen,
      ).toEqual([]);
    };
    const providerId = await devProvider(providerName(info));
    await devProviderTrade(providerId, FIRST, 2, "0.5");
    await newSignedInUser(page, info);
    await page.goto("/user");
    const uid = (await page.getByTestId("user-uid").textContent())!.trim();
    await operatorAdjust(uid, "1000", "Copy trading e2e funds");

    await page.goto(`/rank/provider?id=${providerId}`);
    await axe("provider page");
    await page.goto(`/rank/provider/copy?id=${providerId}`);
    await axe("copy form");
    await page.getByLabel(EN("copy:form.amount")).fill("-1");
    await page.getByTestId("copy-submit").click();
    await expect(page.locator('[data-error-for="amount"]')).toHaveText(EN("copy:errors.amount"));
    await axe("copy form with an error");
    await page.getByLabel(EN("copy:form.amount")).fill("200");
    await page.getByTestId("copy-submit").click();
    await expect(page).toHaveURL(/\/mine\/copies\/\d+$/);
    await axe("copy page");
    await page.goto("/mine/copies");
    await axe("copies");
    await page.goto("/mine/provider");
    await axe("provider settings");
    await page.goto("/order");
    await axe("orders with a copy");
  });
});
