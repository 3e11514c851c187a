/** Arabic renders right-to-left, and the /language page switches the interface language. */
import { test, expect } from "./fixtures";
import { web } from "./texts";

// Reads pages only (the server remembers ?lng in a cookie); their markup is the same without
// JavaScript.
test(
  "?lng=ar renders the page right-to-left in Arabic",
  { tag: "@same-without-js" },
  async ({ page }) => {
    await page.goto("/?lng=ar");
    const html = page.locator("html");
    await expect(html).toHaveAttribute("dir", "rtl");
    await expect(html).toHaveAttribute("lang", "ar");
    const title = web("ar", "common:home.title");
    expect(title).toMatch(/[\u0600-\u06FF]/);
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    // the choice sticks for the next page
    await page.goto("/login");
    await expect(html).toHaveAttribute("dir", "rtl");
    await expect(
      page.getByRole("button", { name: web("ar", "auth:login_submit"), exact: true }),
    ).toBeVisible();
  },
);

test("the language page switches the language", async ({ page }) => {
  const html = page.locator("html");
  await page.goto("/language");
  await expect(html).toHaveAttribute("lang", "en");
  await page.getByRole("button", { name: "Français" }).click();
  // The page the switch leads to is already French ...
  await expect(html).toHaveAttribute("lang", "fr");
  await expect(html).toHaveAttribute("dir", "ltr");
  // ... and so is every later page.
  await page.goto("/");
  await expect(html).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { name: web("fr", "common:home.title") })).toBeVisible();

  // and on to Arabic, right-to-left
  await page.goto("/language");
  await page.getByRole("button", { name: "العربية" }).click();
  await expect(html).toHaveAttribute("dir", "rtl");
  await page.goto("/");
  await expect(html).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { name: web("ar", "common:home.title") })).toBeVisible();
});
