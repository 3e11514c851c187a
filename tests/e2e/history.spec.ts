/**
 * Account history (/mine/history), both JavaScript modes: the user card leads to it; each ledger
 * row shows what it was, its signed amount and the balance after it, newest first; a demo account
 * gets the upstream's "real account" message instead.
 */
import { test, expect, newSignedInUser, signInDemo, UPSTREAM_URL } from "./fixtures";
import { E2E_OPERATOR_TOKEN } from "./operator";

/** Books a signed adjustment on a user, as an operator does (the operator API). */
async function adjust(uid: string, amount: string, remark: string): Promise<void> {
  const res = await fetch(`${UPSTREAM_URL}/admin/api/adjustments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${E2E_OPERATOR_TOKEN}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ uid, amount, remark }).toString(),
  });
  const body = (await res.json()) as { code: number; msg: string };
  expect(body.msg).toBe("Success");
}

test.describe("account history", () => {
  test("the user card leads to the ledger: newest first, signed amounts, balance after each", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
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
  });

  test("a demo account is told to use a real account", async ({ page }) => {
    await signInDemo(page);
    await page.goto("/mine/history");
    await expect(page.getByTestId("history-notice")).toHaveText(
      "Please register or log in to a real account",
    );
  });
});
