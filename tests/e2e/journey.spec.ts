/**
 * The money journey of issue 8, end to end through the screens, with JavaScript on and off: a new
 * real account registers, binds a USDT address, deposits with a proof image; an operator signs in to
 * the console (password + TOTP) and approves it; the user sees the balance, trades, withdraws; the
 * operator rejects (the money returns, the remark is shown), the user withdraws again, the operator
 * pays it; /mine/history shows every row with its translated memo, and `npm run ledger:check`'s
 * command finds every invariant holding.
 */
import { execFileSync } from "node:child_process";
import { nodeArgsFor } from "../support/node-bundle";
import sharp from "sharp";
import type { Locator, Page } from "@playwright/test";
import { formatBalance } from "../../app/utils/format";
import {
  test,
  expect,
  jsOn,
  registerByEmail,
  secondDevice,
  signIn,
  uniqueEmail,
  HOME,
  TRON,
} from "./fixtures";
import { openQueueItem, signInOperator, EN } from "./console";

import { upstream } from "./texts";

const money = (usd: number) => formatBalance(usd, "en");
const M = (key: string, params?: Record<string, string | number>) =>
  upstream("en", "money", key, params);

/** The user card's balance on /user. */
async function balanceShown(page: Page): Promise<string> {
  await page.goto("/user");
  return ((await page.getByTestId("user-balance").textContent()) ?? "").trim();
}

/**
 * Posts a form by its button and waits until the server has answered the post (the document's
 * POST without JavaScript, the action's data request with it), so that the next step never races it.
 */
async function press(form: Locator, name: string): Promise<void> {
  const answered = form.page().waitForResponse((r) => r.request().method() === "POST");
  await form.getByRole("button", { name, exact: true }).click();
  await answered;
}

test("register, bind, deposit, approval, trade, withdraw, rejection, withdraw, payment, history", async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  const js = jsOn(info);

  await test.step("a new real user registers and binds a USDT (TRC20) address", async () => {
    // Sign-up through the screens: the journey is a new person's.
    const email = uniqueEmail(info);
    await registerByEmail(page, email);
    await signIn(page, email);
    await expect(page).toHaveURL(HOME);
    await page.goto("/mine/withdraw-way?type=1");
    const bind = page.getByTestId("bind-address");
    await bind.getByLabel(EN("wallet:network")).selectOption({ label: "USDT (TRC20)" });
    await bind.getByLabel(EN("wallet:address")).fill(TRON);
    await press(bind, EN("wallet:add_address"));
    await page.goto("/mine/coin-address-list");
    await expect(page.getByText(TRON, { exact: true })).toBeVisible();
  });

  let depositId = "";
  await test.step("deposits 1,000 USD by coin with a proof image: pending, balance unchanged", async () => {
    await page.goto("/mine/charge?type=0");
    const form = page.getByTestId("charge-form-coin");
    await form.getByLabel(EN("charge:amount")).fill("1000");
    const proof = await sharp({
      create: { width: 20, height: 20, channels: 3, background: { r: 10, g: 200, b: 90 } },
    })
      .png()
      .toBuffer();
    await form
      .getByLabel(EN("charge:proof"))
      .setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: proof });
    if (js) await expect(page.getByTestId("charge-preview")).toBeVisible();
    await press(form, EN("charge:submit"));
    await expect(page.getByText(M("deposit_submitted"))).toBeVisible();
    const row = page.getByTestId("charge-row");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("charge-status")).toHaveText(M("charge_status_0"));
    depositId = (await row.getAttribute("data-charge-id")) ?? "";
    expect(await balanceShown(page)).toBe(money(0));
  });

  const console_ = await secondDevice(browser, info);
  const op = console_.page;
  await test.step("an operator signs in to /operator with password and TOTP and approves it", async () => {
    await signInOperator(op, info);
    const item = await openQueueItem(op, "/operator?status=0", "charge", Number(depositId));
    await expect(item.locator("img")).toBeVisible();
    await item.getByTestId("approve-form").getByRole("button").click();
    await expect(
      op.getByText(EN("operator:charge_done_approve", { id: depositId }), { exact: true }).first(),
    ).toBeVisible();
    expect(await balanceShown(page)).toBe(money(1000));
  });

  await test.step("the user trades: a market order opened and closed", async () => {
    await page.goto("/trade?code=EURUSD");
    const form = page.getByTestId("order-form");
    await form.getByRole("button", { name: EN("trade:form.buy"), exact: true }).click();
    const success = page.getByTestId("order-success");
    await expect(success).toBeVisible();
    await success.getByText(EN("trade:success.continue"), { exact: true }).click();
    const positions = page.getByTestId("trade-positions");
    const row = positions.getByTestId("order-row");
    await expect(row).toHaveCount(1);
    const id = Number(await row.getAttribute("data-order-id"));
    await positions
      .getByRole("button", { name: EN("trade:positions.close_label", { id }) })
      .click();
    await expect(row).toHaveCount(0);
  });

  const withdraw = async (usd: string) => {
    await page.goto("/mine/withdraw?type=1");
    const form = page.getByTestId("withdraw-form");
    await form.getByLabel(TRON).check();
    await form.getByLabel(EN("withdraw:amount")).fill(usd);
    await press(form, EN("withdraw:submit"));
    await expect(
      page.locator('[data-toast="success"]').filter({ hasText: M("withdraw_requested") }),
    ).toBeVisible();
    const record = page.getByTestId("withdraw-record").first();
    await expect(record).toContainText(M("withdraw_status_0"));
    return (await record.getAttribute("data-draw-id")) ?? "";
  };

  const afterTrade = await balanceShown(page);
  const afterTradeUsd = Number(afterTrade.replace(/,/g, ""));
  // The trade's fee and its (small) profit or loss moved the balance from the deposit's 1,000.
  expect(afterTrade).not.toBe(money(1000));
  expect(afterTradeUsd).toBeGreaterThan(900);
  expect(afterTradeUsd).toBeLessThan(1100);

  await test.step("withdraws 200; the operator rejects it with a remark; the money returns", async () => {
    const id = await withdraw("200");
    expect(await balanceShown(page)).toBe(money(afterTradeUsd - 200));
    const item = await openQueueItem(op, "/operator/draws?status=0", "draw", Number(id));
    const reject = item.getByTestId("reject-form");
    await reject.getByLabel(EN("operator:remark"), { exact: true }).fill("Name does not match");
    await reject.getByRole("button").click();
    await expect(
      op.getByText(EN("operator:draw_done_reject", { id }), { exact: true }).first(),
    ).toBeVisible();
    expect(await balanceShown(page)).toBe(afterTrade);
    await page.goto("/mine/withdraw?type=1");
    const record = page.locator(`[data-testid="withdraw-record"][data-draw-id="${id}"]`);
    await expect(record).toContainText(M("withdraw_status_2"));
    await expect(record).toContainText("Name does not match");
  });

  await test.step("withdraws 150 again; the operator who credited the deposit may not pay it, another does", async () => {
    const id = await withdraw("150");
    const item = await openQueueItem(op, "/operator/draws?status=0", "draw", Number(id));
    await item.getByTestId("approve-form").getByRole("button").click();
    await expect(
      op.getByText(upstream("en", "operators", "draw_own_money_in"), { exact: true }).first(),
    ).toBeVisible();
    const second = await secondDevice(browser, info);
    await signInOperator(second.page, info);
    const again = await openQueueItem(second.page, "/operator/draws?status=0", "draw", Number(id));
    await again.getByTestId("approve-form").getByRole("button").click();
    await expect(
      second.page.getByText(EN("operator:draw_done_approve", { id }), { exact: true }).first(),
    ).toBeVisible();
    await second.done();
    expect(await balanceShown(page)).toBe(money(afterTradeUsd - 150));
    await page.goto("/mine/withdraw?type=1");
    await expect(
      page.locator(`[data-testid="withdraw-record"][data-draw-id="${id}"]`),
    ).toContainText(M("withdraw_status_1"));
  });
  await console_.done();

  await test.step("/mine/history shows every row with its translated memo, newest first", async () => {
    await page.goto("/mine/history");
    const rows = page.getByTestId("history-row");
    const memos = [
      M("ledger_kind_withdrawal_request"),
      M("ledger_kind_withdrawal_returned"),
      M("ledger_kind_withdrawal_request"),
    ];
    for (const [i, memo] of memos.entries()) await expect(rows.nth(i)).toContainText(memo);
    await expect(rows.nth(0)).toContainText("-150.00");
    await expect(rows.nth(1)).toContainText("+200.00");
    await expect(rows.nth(2)).toContainText("-200.00");
    await expect(rows.last()).toContainText(M("ledger_kind_deposit"));
    await expect(rows.last()).toContainText("+1,000.00");
    await expect(page.getByText(M("ledger_kind_fee")).first()).toBeVisible();
  });

  await test.step("the documented ledger check finds every invariant holding", () => {
    const dataDir = process.env.E2E_DATA_DIR;
    if (!dataDir) throw new Error("E2E_DATA_DIR is not set (playwright.config.ts sets it)");
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.UPSTREAM_DB;
    // Exits 1 (and execFileSync throws with its report) on a breach.
    const out = execFileSync(process.execPath, nodeArgsFor("ledger-check"), {
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(out).toContain("Consistent.");
  });
});
