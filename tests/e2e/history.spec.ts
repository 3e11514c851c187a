/**
 * Account history (/mine/history), both JavaScript modes: the user card leads to it; the account's
 * balance, the amount held for withdrawals under review and what is available head it; each ledger
 * row shows what it was, its signed amount and the balance after it, newest first; more than a page
 * scrolls on with JavaScript (the next page appended when the end comes into view) and is paged by
 * links without; a demo account gets the upstream's "real account" message instead.
 */
import { PAGE_SIZE } from "../../contract/constants";
import { test, expect, jsOn, newSignedInUser, demoByForm } from "./fixtures";
import { operatorAdjust as adjust } from "./operator";
import { userSession, withdrawAs } from "./console";
import { web } from "./texts";

test.describe("account history", () => {
  test("the user card leads to the ledger: the money now, then newest first, signed amounts, balance after each", async ({
    page,
  }, info) => {
    const email = await newSignedInUser(page, info);
    await page.goto("/user");
    const uid = (await page.getByTestId("user-uid").textContent())!.trim();
    await adjust(uid, "1000", "Welcome credit");
    await adjust(uid, "-250.5", "Correction");

    await page.goto("/user");
    await page.getByRole("link", { name: /UID/ }).click();
    await expect(page).toHaveURL(/\/mine\/history$/);
    await expect(page.getByRole("heading", { name: "Account history" })).toBeVisible();
    const rows = page.getByTestId("history-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("Adjustment");
    await expect(rows.nth(0)).toContainText("-250.50");
    await expect(rows.nth(0)).toContainText("Balance 749.50");
    await expect(rows.nth(1)).toContainText("+1,000.00");
    await expect(rows.nth(1)).toContainText("Balance 1,000.00");
    const summary = async (balance: string, held: string, available: string) => {
      await expect(page.getByTestId("history-balance")).toHaveText(balance);
      await expect(page.getByTestId("history-held")).toHaveText(held);
      await expect(page.getByTestId("history-available")).toHaveText(available);
    };
    await summary("749.50", "0.00", "749.50");
    // A withdrawal under review: held, out of the balance and of what is available.
    await withdrawAs((await userSession(email)).token, "100");
    await page.goto("/mine/history");
    await summary("649.50", "100.00", "649.50");
  });

  test("more than a page: infinite scroll with JavaScript, links without", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/user");
    const uid = (await page.getByTestId("user-uid").textContent())!.trim();
    const total = PAGE_SIZE + 5;
    for (let i = 1; i <= total; i += 1) await adjust(uid, String(i), `Credit ${i}`);

    await page.goto("/mine/history");
    const rows = page.getByTestId("history-row");
    if (jsOn(info)) {
      // The first page, then the rest appended once the end of the list is in view.
      await expect(rows.first()).toContainText(`+${total}.00`);
      await page.getByTestId("history-sentinel").scrollIntoViewIfNeeded();
      await expect(rows).toHaveCount(total);
      await expect(rows.last()).toContainText("+1.00");
      await expect(page).toHaveURL(/\/mine\/history$/);
      await expect(page.getByTestId("history-page")).toHaveText(
        web("en", "history:pages_of", { from: 1, to: 2, pages: 2 }),
      );
    } else {
      await expect(rows).toHaveCount(PAGE_SIZE);
      await expect(page.getByTestId("history-page")).toHaveText(
        web("en", "history:page_of", { page: 1, pages: 2 }),
      );
      await page.getByRole("link", { name: web("en", "history:older") }).click();
      await expect(page).toHaveURL(/\/mine\/history\?page=2$/);
      await expect(rows).toHaveCount(total - PAGE_SIZE);
      await expect(rows.last()).toContainText("+1.00");
    }
  });

  // Reads the page only; its markup is the same without JavaScript.
  test(
    "a demo account is told to use a real account",
    { tag: "@same-without-js" },
    async ({ page }) => {
      await demoByForm(page);
      await page.goto("/mine/history");
      await expect(page.getByTestId("history-notice")).toHaveText(
        "Please register or log in to a real account",
      );
    },
  );
});
