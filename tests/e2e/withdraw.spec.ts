/**
 * Withdraw (/mine/withdraw) and the wallet's screens (/mine/coin-address-list, /mine/bank-card-list,
 * /mine/withdraw-way), both JavaScript modes.
 *
 * A funded real account without a destination gets the `wallet.not_bind` prompt (a modal <dialog>
 * with JavaScript, a section of the page without) that leads to the bind form; it binds a USDT
 * address there and lands back on the withdrawal screen; the expected arrival is the contract's
 * figure (live as the amount changes with JavaScript, by the "calculate" submit without); refusals
 * (no destination to choose, none chosen, an amount that is not positive, one above the balance)
 * answer 400 with the message and change nothing; a withdrawal goes under review and lowers the
 * balance, and cancelling it gives the money back. A demo account gets the real-account message.
 */
import type { Locator, Page } from "@playwright/test";
import { withdrawNetText } from "../../contract/withdraw-net";
import { DRAW_FEE_TYPE } from "../../contract/enums";
import { test, expect, jsOn, newSignedInUser, demoByForm, TRON } from "./fixtures";
import { operatorAdjust } from "./operator";
import { userApi, userSession } from "./console";
import { PAGE_SIZE } from "../../contract/constants";
import { upstream, web } from "./texts";

const W = (key: string, params?: Record<string, string | number>) =>
  web("en", `withdraw:${key}`, params);
const WALLET = (key: string) => web("en", `wallet:${key}`);
/** The seeded USDT (TRC20) withdrawal currency: a fixed fee of 1 USD, 1 USDT per USD. */
const USDT_TRC20 = { label: "USDT (TRC20)", feeType: DRAW_FEE_TYPE.FIXED, rate: "1", price: "1" };
const arrival = (amount: string) =>
  `${withdrawNetText(amount, USDT_TRC20.feeType, USDT_TRC20.rate, USDT_TRC20.price)} USDT`;

async function uidOf(page: Page): Promise<string> {
  await page.goto("/user");
  return (await page.getByTestId("user-uid").textContent())!.trim();
}

/** Submits the withdrawal form with `button` and answers the POST's status. */
async function submit(page: Page, form: Locator, button: string): Promise<number> {
  const posted = page.waitForResponse(
    (r) =>
      r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/mine/withdraw"),
  );
  await form.getByRole("button", { name: button, exact: true }).click();
  return (await posted).status();
}

test.describe("withdraw", () => {
  test("binds an address from the not-bound prompt, sees the arrival, withdraws and cancels", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
    await operatorAdjust(await uidOf(page), "500", "Funding");

    // No destination for the currency: the prompt, modal with JavaScript.
    await page.goto("/mine/withdraw");
    await expect(page.getByRole("heading", { name: W("title"), level: 1 })).toBeVisible();
    const prompt = page.getByTestId("not-bind");
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText(W("not_bind"));
    expect(await prompt.evaluate((d) => d.matches(":modal"))).toBe(jsOn(info));
    await prompt.getByRole("button", { name: W("later") }).click();
    await expect(prompt).toBeHidden();

    // Nothing to withdraw to: refused with the spec's message, nothing changes.
    const form = page.getByTestId("withdraw-form");
    await expect(form.getByTestId("withdraw-available")).toHaveText(
      W("available", { can_use: "500.00", balance: "500.00" }),
    );
    await form.getByLabel(W("amount")).fill("100");
    expect(await submit(page, form, W("submit"))).toBe(400);
    await expect(page.getByTestId("withdraw-form").getByRole("alert")).toHaveText(W("no_account"));

    // The prompt leads to the bind form on this currency and back here once bound.
    await page.goto("/mine/withdraw");
    await page
      .getByTestId("not-bind")
      .getByRole("link", { name: W("bind_now") })
      .click();
    await expect(page).toHaveURL(/\/mine\/withdraw-way\?type=1&draw_id=\d+&back=withdraw$/);
    const bind = page.getByTestId("bind-address");
    await expect(bind.getByLabel(WALLET("network")).locator("option:checked")).toHaveText(
      USDT_TRC20.label,
    );
    await bind.getByLabel(WALLET("address")).fill(TRON);
    await bind.getByRole("button", { name: WALLET("add_address") }).click();
    await expect(page).toHaveURL(/\/mine\/withdraw\?type=1&draw_id=\d+$/);
    await expect(page.getByTestId("not-bind")).toHaveCount(0);
    await expect(page.getByTestId("withdraw-destination")).toHaveText(TRON);

    // The expected arrival: (amount - fee) x usd_price, cut to 8 places.
    const amount = page.getByTestId("withdraw-form").getByLabel(W("amount"));
    const shown = page.getByTestId("withdraw-arrival");
    await amount.fill("250.5");
    if (jsOn(info)) {
      await expect(shown).toHaveText(arrival("250.5"));
      await amount.fill("100");
      await expect(shown).toHaveText(arrival("100"));
    } else {
      expect(await submit(page, page.getByTestId("withdraw-form"), W("calculate"))).toBe(200);
      await expect(shown).toHaveText(arrival("250.5"));
      await amount.fill("100");
      expect(await submit(page, page.getByTestId("withdraw-form"), W("calculate"))).toBe(200);
      await expect(shown).toHaveText(arrival("100"));
    }
    expect(arrival("100")).toBe("99.00000000 USDT");
    await expect(page.getByTestId("withdraw-fee")).toHaveText(W("fee_fixed", { fee: "1.00" }));

    // No destination chosen; an amount that is not positive; one above the balance.
    expect(await submit(page, page.getByTestId("withdraw-form"), W("submit"))).toBe(400);
    await expect(page.getByTestId("withdraw-form").getByRole("alert")).toHaveText(
      W("select_address"),
    );
    await page.getByTestId("withdraw-form").getByLabel(TRON).check();
    await page.getByTestId("withdraw-form").getByLabel(W("amount")).fill("0");
    expect(await submit(page, page.getByTestId("withdraw-form"), W("submit"))).toBe(400);
    await expect(page.getByTestId("withdraw-form").getByRole("alert")).toHaveText(
      W("amount_positive"),
    );
    await page.getByTestId("withdraw-form").getByLabel(TRON).check();
    await page.getByTestId("withdraw-form").getByLabel(W("amount")).fill("600");
    expect(await submit(page, page.getByTestId("withdraw-form"), W("submit"))).toBe(400);
    await expect(page.getByTestId("withdraw-form").getByRole("alert")).toHaveText(
      upstream("en", "money", "withdraw_above_free", { free: "500.00" }),
    );
    await page.goto("/mine/withdraw");
    await expect(page.getByTestId("withdraw-available")).toHaveText(
      W("available", { can_use: "500.00", balance: "500.00" }),
    );
    await expect(page.getByTestId("withdraw-record")).toHaveCount(0);

    // A withdrawal: under review, the balance lowered.
    await page.getByTestId("withdraw-form").getByLabel(TRON).check();
    await page.getByTestId("withdraw-form").getByLabel(W("amount")).fill("100");
    await page
      .getByTestId("withdraw-form")
      .getByRole("button", { name: W("submit") })
      .click();
    await expect(page.locator('[data-toast="success"]')).toContainText(
      upstream("en", "money", "withdraw_requested"),
    );
    const record = page.getByTestId("withdraw-record");
    await expect(record).toHaveCount(1);
    await expect(record).toContainText(upstream("en", "money", "withdraw_status_0"));
    await expect(record).toContainText(
      W("record_amount", { amount: "100.00", net: "99.00000000", code: "USDT" }),
    );
    await expect(page.getByTestId("withdraw-available")).toHaveText(
      W("available", { can_use: "400.00", balance: "400.00" }),
    );

    // Cancelled: the money is back.
    await record.getByRole("button", { name: W("cancel") }).click();
    await expect(record).toContainText(upstream("en", "money", "withdraw_status_3"));
    await expect(record.getByRole("button", { name: W("cancel") })).toHaveCount(0);
    await expect(page.getByTestId("withdraw-available")).toHaveText(
      W("available", { can_use: "500.00", balance: "500.00" }),
    );
  });

  test("more records than a page: infinite scroll with JavaScript, links without", async ({
    page,
  }, info) => {
    const email = await newSignedInUser(page, info);
    await operatorAdjust(await uidOf(page), "1000", "Funding (e2e)");
    const user = await userSession(email);
    const cur = (await userApi(user.token, "GET", "/api/account/draw_symbol_list", { type: 1 }))
      .data[0];
    const method = await userApi(user.token, "POST", "/api/wallet/bind_draw_method", {
      type: 1,
      draw_id: cur.id,
      dc_address: TRON,
    });
    const total = PAGE_SIZE + 2;
    for (let i = 1; i <= total; i++) {
      const d = await userApi(user.token, "POST", "/api/account/draw", {
        draw_currency_id: cur.id,
        number: String(10 + i),
        draw_method_id: method.data.id,
      });
      expect(d.code, d.msg).toBe(1);
    }
    await page.goto("/mine/withdraw?type=1");
    const records = page.getByTestId("withdraw-record");
    if (jsOn(info)) {
      // The first page, then the rest appended once the end of the list is in view.
      await expect(records.first()).toContainText(`${10 + total}.00 USD`);
      await page.getByTestId("records-sentinel").scrollIntoViewIfNeeded();
      await expect(records).toHaveCount(total);
      // Newest first: the last one is the first request.
      await expect(records.last()).toContainText("11.00 USD");
    } else {
      await expect(records).toHaveCount(PAGE_SIZE);
      await page.getByRole("link", { name: web("en", "history:older"), exact: true }).click();
      await expect(page).toHaveURL(/[?&]page=2/);
      await expect(records).toHaveCount(2);
      await expect(records.last()).toContainText("11.00 USD");
    }
  });

  // Reads the pages only: a demo account's are the notice, without the parts that differ without
  // JavaScript (the not-bound dialog, the scrolling records), so their markup is the same.
  test(
    "a demo account is told to use a real account",
    { tag: "@same-without-js" },
    async ({ page }) => {
      await demoByForm(page);
      for (const url of [
        "/mine/withdraw",
        "/mine/coin-address-list",
        "/mine/bank-card-list",
        "/mine/withdraw-way?type=1",
      ]) {
        await page.goto(url);
        await expect(page.getByTestId(/^(withdraw|wallet)-notice$/)).toHaveText(
          "Please register or log in to a real account",
        );
        await expect(page.locator("form[method='post'] input[name='number']")).toHaveCount(0);
      }
    },
  );
});

test.describe("wallet screens", () => {
  test("coin addresses and bank accounts: listed, added through /mine/withdraw-way, deleted", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);

    await page.goto("/mine/coin-address-list");
    await expect(page.getByRole("heading", { name: WALLET("addresses") })).toBeVisible();
    await expect(page.getByTestId("wallet-address")).toHaveCount(0);
    await page.getByRole("link", { name: WALLET("add_address") }).click();
    await expect(page).toHaveURL(/\/mine\/withdraw-way\?type=1$/);
    const bind = page.getByTestId("bind-address");
    await bind.getByLabel(WALLET("network")).selectOption({ label: USDT_TRC20.label });
    await bind.getByLabel(WALLET("address")).fill("not-an-address");
    const refused = page.waitForResponse(
      (r) =>
        r.request().method() === "POST" &&
        new URL(r.url()).pathname.startsWith("/mine/withdraw-way"),
    );
    await bind.getByRole("button", { name: WALLET("add_address") }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByTestId("bind-address").getByRole("alert")).toHaveText(
      upstream("en", "money", "wallet_address_invalid", { network: "TRC20" }),
    );
    await page.getByTestId("bind-address").getByLabel(WALLET("address")).fill(TRON);
    await page
      .getByTestId("bind-address")
      .getByRole("button", { name: WALLET("add_address") })
      .click();
    await expect(page).toHaveURL(/\/mine\/coin-address-list$/);
    await expect(page.getByTestId("wallet-address")).toHaveCount(1);
    await expect(page.getByTestId("wallet-address")).toContainText(TRON);

    await page.goto("/mine/bank-card-list");
    await expect(page.getByRole("heading", { name: WALLET("banks") })).toBeVisible();
    await page.getByRole("link", { name: WALLET("add_bank") }).click();
    await expect(page).toHaveURL(/\/mine\/withdraw-way\?type=2$/);
    const bank = page.getByTestId("bind-bank");
    await bank.getByLabel(WALLET("bank_name")).fill("Harbour Bank");
    await bank.getByLabel(WALLET("bank_address")).fill("1 Quay, Singapore");
    await bank.getByLabel(WALLET("bank_swift")).fill("FHBKSGSG");
    await bank.getByLabel(WALLET("payee_name")).fill("Ada Lovelace");
    await bank.getByLabel(WALLET("payee_account")).fill("0012-345");
    await bank.getByRole("button", { name: WALLET("add_bank") }).click();
    await expect(page).toHaveURL(/\/mine\/bank-card-list$/);
    await expect(page.getByTestId("wallet-bank")).toHaveCount(1);
    await expect(page.getByTestId("wallet-bank")).toContainText("Ada Lovelace");
    await page
      .getByTestId("wallet-bank")
      .getByRole("button", { name: WALLET("delete") })
      .click();
    await expect(page.getByTestId("wallet-bank")).toHaveCount(0);

    await page.goto("/mine/coin-address-list");
    await page
      .getByTestId("wallet-address")
      .getByRole("button", { name: WALLET("delete") })
      .click();
    await expect(page.getByTestId("wallet-address")).toHaveCount(0);

    // The wallet links to both lists.
    await page.goto("/mine/wallet");
    await page.getByRole("link", { name: WALLET("manage_banks") }).click();
    await expect(page).toHaveURL(/\/mine\/bank-card-list$/);
  });
});
