/**
 * Wallet (/mine/wallet), both JavaScript modes: a real account adds a coin address (one with the
 * wrong format for its network is refused with the upstream's message, 400) and a bank account,
 * sees them listed and deletes one; a demo account gets the real-account message.
 */
import { test, expect, newSignedInUser, demoByForm, TRON } from "./fixtures";

test.describe("wallet", () => {
  test("adds a checked coin address and a bank account, and deletes one", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/mine/wallet");
    await expect(page.getByRole("heading", { name: "Wallet" })).toBeVisible();
    const addForm = page.getByTestId("bind-address");
    await addForm.getByLabel("Currency and network").selectOption({ label: "USDT (TRC20)" });
    await addForm.getByLabel("Address").fill("0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063");
    const refused = page.waitForResponse(
      (r) =>
        r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/mine/wallet"),
    );
    await addForm.getByRole("button", { name: "Add address" }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByTestId("bind-address").getByRole("alert")).toContainText(
      "This is not a valid TRC20 address",
    );

    await page.getByTestId("bind-address").getByLabel("Address").fill(TRON);
    await page.getByTestId("bind-address").getByRole("button", { name: "Add address" }).click();
    await expect(page.getByTestId("wallet-address")).toHaveCount(1);
    await expect(page.getByTestId("wallet-address")).toContainText(TRON);

    const bank = page.getByTestId("bind-bank");
    await bank.getByLabel("Bank name").fill("Harbour Bank");
    await bank.getByLabel("Bank address").fill("1 Quay, Singapore");
    await bank.getByLabel("SWIFT/BIC").fill("FHBKSGSG");
    await bank.getByLabel("Payee name").fill("Ada Lovelace");
    await bank.getByLabel("Account number").fill("0012-345");
    await bank.getByRole("button", { name: "Add bank account" }).click();
    await expect(page.getByTestId("wallet-bank")).toHaveCount(1);
    await expect(page.getByTestId("wallet-bank")).toContainText("Ada Lovelace");

    await page.getByTestId("wallet-address").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("wallet-address")).toHaveCount(0);
    await expect(page.getByTestId("wallet-bank")).toHaveCount(1);
  });

  // Reads the page only; its markup is the same without JavaScript.
  test(
    "a demo account is told to use a real account",
    { tag: "@same-without-js" },
    async ({ page }) => {
      await demoByForm(page);
      await page.goto("/mine/wallet");
      await expect(page.getByTestId("wallet-notice")).toHaveText(
        "Please register or log in to a real account",
      );
    },
  );
});
