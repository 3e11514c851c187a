/**
 * The money catalogue in the operator console (issues 8 and 20), with JavaScript on and off, kept by
 * two real operators: a deposit channel the first adds waits on /operator/requests until the second
 * approves it, then a user sees it on /mine/charge; an address that is not valid for its network is
 * refused at once with 400 and the upstream's message; hiding the channel takes effect at once; a
 * wire account is added (approved by the second) and shown on /mine/charge?type=1; a withdrawal
 * currency's minimum above its maximum is refused with 400; the audit log lists who did what. Only
 * entries made here are changed (other specs depend on the seeded ones).
 */
import type { Locator, Page, Response as PwResponse, TestInfo } from "@playwright/test";
import { test, expect, newSignedInUser } from "./fixtures";
import { EN, approvePending, secondOperator, signInOperator } from "./console";
import { upstream } from "./texts";

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";

/** The response to the next POST to a path (document or data request). */
function nextPost(page: Page, pathname: string): Promise<PwResponse> {
  return page.waitForResponse((r) => {
    const u = new URL(r.url());
    return (
      r.request().method() === "POST" &&
      (u.pathname === pathname || u.pathname === `${pathname}.data`)
    );
  });
}

/** A currency code of this run and project: 2-10 capital letters or digits. */
function freshCode(info: TestInfo, tag: string): string {
  const p = info.project.name
    .replace(/[^a-z]/gi, "")
    .toUpperCase()
    .slice(0, 2);
  return `${tag}${p}${Date.now().toString(36).toUpperCase().slice(-6)}`.slice(0, 10);
}

/** Fills a catalogue form's fields by their labels (operator namespace keys). */
async function fill(scope: Locator, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const field = scope.getByLabel(EN(`operator:${label}`), { exact: true });
    if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
}

const entry = (page: Page, text: string) =>
  page.getByTestId("catalog-entry").filter({ hasText: text });

test.describe("operator money catalogue", () => {
  test("channels, wire accounts and withdrawal currencies are added with a second operator's approval, checked, hidden and audited", async ({
    page,
    browser,
  }, info) => {
    test.setTimeout(120_000);
    await newSignedInUser(page, info);
    const op = await signInOperator(page, info);
    const two = await secondOperator(browser, info);
    const filed = () => expect(page.getByText(/\(request \d+\)/).first()).toBeVisible();
    const coin = freshCode(info, "C");
    const bank = freshCode(info, "B");
    const draw = freshCode(info, "D");

    await test.step("a deposit channel is added and shown to users", async () => {
      await page.getByRole("link", { name: EN("operator:nav_channels"), exact: true }).click();
      await expect(page).toHaveURL(/\/operator\/channels$/);
      const add = page.getByTestId("channel-add");
      await fill(add, {
        f_currency_code: coin,
        f_protocol: "ERC20",
        f_address: EVM,
        f_usd_price: "2.5",
        f_sort: "99999",
      });
      await add.getByRole("button", { name: EN("operator:catalog_add"), exact: true }).click();
      // Filed for a second operator: nothing added yet.
      await filed();
      await expect(entry(page, coin)).toHaveCount(0);
      await approvePending(two.page, coin);
      await page.goto("/operator/channels");
      await expect(entry(page, coin)).toHaveCount(1);
      await page.goto("/mine/charge");
      const chip = page.getByTestId("charge-channel").filter({ hasText: `${coin} (ERC20)` });
      await chip.click();
      await expect(page.getByTestId("charge-address")).toHaveText(EVM);
    });

    await test.step("an address not valid for its network is refused with 400", async () => {
      await page.goto("/operator/channels");
      const card = entry(page, coin);
      await fill(card, { f_protocol: "TRC20" });
      const refused = nextPost(page, "/operator/channels");
      await card.getByRole("button", { name: EN("operator:save"), exact: true }).click();
      expect((await refused).status()).toBe(400);
      await expect(entry(page, coin).locator("[data-form-error]")).toHaveText(
        upstream("en", "money", "wallet_address_invalid", { network: "TRC20" }),
      );
    });

    await test.step("the channel hidden (at once) is gone from /mine/charge", async () => {
      await page.goto("/operator/channels");
      const card = entry(page, coin);
      await fill(card, { f_enabled: "0" });
      await card.getByRole("button", { name: EN("operator:save"), exact: true }).click();
      await expect(entry(page, coin)).toHaveAttribute("data-enabled", "0");
      await expect(entry(page, coin).getByTestId("hidden-mark")).toBeVisible();
      await page.goto("/mine/charge");
      await expect(page.getByTestId("charge-channel").first()).toBeVisible();
      await expect(page.getByTestId("charge-channel").filter({ hasText: coin })).toHaveCount(0);
    });

    await test.step("a wire account is added and shown on /mine/charge?type=1", async () => {
      await page.goto("/operator/wire-accounts");
      const add = page.getByTestId("wire-add");
      await fill(add, {
        f_bank_coin: "USD",
        f_bank_name: `Bank ${bank}`,
        f_bank_address: "Taunusanlage 12, Frankfurt",
        f_bank_swift: "DEUTDEFF",
        f_payee_name: "Tradepost Ltd",
        f_payee_account: `DE${Date.now()}`,
        f_sort: "99999",
      });
      await add.getByRole("button", { name: EN("operator:catalog_add"), exact: true }).click();
      await filed();
      await approvePending(two.page, `Bank ${bank}`);
      await page.goto("/operator/wire-accounts");
      await expect(entry(page, `Bank ${bank}`)).toHaveCount(1);
      await page.goto("/mine/charge?type=1");
      await page
        .getByTestId("charge-wire")
        .filter({ hasText: `Bank ${bank}` })
        .click();
      await expect(page.getByTestId("charge-wire-details")).toContainText("DEUTDEFF");
      // Hidden again so the users' list keeps its seeded accounts only.
      await page.goto("/operator/wire-accounts");
      const card = entry(page, `Bank ${bank}`);
      await fill(card, { f_enabled: "0" });
      await card.getByRole("button", { name: EN("operator:save"), exact: true }).click();
      await expect(entry(page, `Bank ${bank}`)).toHaveAttribute("data-enabled", "0");
    });

    await test.step("a withdrawal currency's minimum above its maximum is refused with 400", async () => {
      await page.goto("/operator/draw-currencies");
      const add = page.getByTestId("draw-add");
      await fill(add, {
        f_draw_type: "1",
        f_currency_code: draw,
        f_protocol: "ERC20",
        f_fee_type: "1",
        f_draw_rate: "1",
        f_units_per_usd: "1",
        f_min: "10",
        f_max: "1000",
        f_enabled: "0",
        f_sort: "99999",
      });
      await add.getByRole("button", { name: EN("operator:catalog_add"), exact: true }).click();
      await filed();
      await approvePending(two.page, draw);
      await page.goto("/operator/draw-currencies");
      const card = entry(page, draw);
      await expect(card).toHaveCount(1);
      await fill(card, { f_min: "5000" });
      const refused = nextPost(page, "/operator/draw-currencies");
      await card.getByRole("button", { name: EN("operator:save"), exact: true }).click();
      expect((await refused).status()).toBe(400);
      await expect(entry(page, draw).locator("[data-form-error]")).toHaveText(
        upstream("en", "operators", "catalog_min_above_max"),
      );
      await page.goto("/operator/draw-currencies");
      await expect(entry(page, draw).getByLabel(EN("operator:f_min"), { exact: true })).toHaveValue(
        "10",
      );
    });

    await test.step("the audit log lists who asked, who approved and what changed", async () => {
      const rows = (action: string) =>
        page.locator(`[data-testid="audit-row"][data-action="${action}"]`);
      await page.goto(`/operator/audit?actor=${op.name}`);
      // Three requests filed; the two hides made at once.
      await expect(rows("request.create")).toHaveCount(3);
      await expect(rows("charge_channel.update")).toHaveCount(1);
      await expect(rows("wire_account.update")).toHaveCount(1);
      await expect(rows("charge_channel.add")).toHaveCount(0);
      await page.goto(`/operator/audit?actor=${two.op.name}`);
      await expect(rows("request.approve")).toHaveCount(3);
      await expect(rows("charge_channel.add")).toHaveCount(1);
      await expect(rows("wire_account.add")).toHaveCount(1);
      await expect(rows("draw_currency.add")).toHaveCount(1);
    });
    await two.close();
  });
});
