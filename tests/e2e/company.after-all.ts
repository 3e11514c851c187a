/**
 * Company mode (setting is_main): /product searches companies instead of instruments. Switching it
 * on changes /product for every visitor, so this file runs in its own projects after all the others
 * (playwright.config.ts), turning the setting on through the operator API and off again afterwards.
 * Covered: the search (GET, works without JS) with each company's details and the complaint e-mail;
 * choosing a company remembers it in a cookie for three years and goes on to the home page; a
 * company whose status is not open sends its visitors to its loss_url, at once and on the home page
 * later; a refused search shows its translated message.
 */
import { test, expect } from "./fixtures";
import { EN } from "./console";
import { operatorSetting } from "./operator";
import { addCompany, publicSetting, updateCompany } from "./company-helpers";

const THREE_YEARS_S = 3 * 365 * 24 * 60 * 60;

test.describe.configure({ mode: "serial" });
let before = "0";
test.beforeAll(async () => {
  before = (await publicSetting("is_main")) ?? "0";
  await operatorSetting("is_main", "1");
});
test.afterAll(() => operatorSetting("is_main", before));

test("the company search shows details, and choosing one remembers it for three years", async ({
  page,
  context,
}) => {
  await page.goto("/product");
  await expect(page.getByRole("heading", { name: EN("company:title") })).toBeVisible();
  await expect(page.getByTestId("complaint-email").getByRole("link")).toHaveAttribute(
    "href",
    /^mailto:.+@.+/,
  );
  await expect.poll(() => page.getByTestId("company").count()).toBeGreaterThanOrEqual(6);

  await page.getByLabel(EN("company:search_label"), { exact: true }).fill("meridian");
  await page.getByRole("button", { name: EN("company:search_submit"), exact: true }).click();
  await expect(page).toHaveURL(/\/product\?name=meridian$/);
  const card = page.getByTestId("company");
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("heading")).toHaveText("Meridian Markets GmbH");
  await expect(card).toContainText("Taunusanlage 8");
  await expect(card).toContainText("Neue Mainzer Straße 52");
  await expect(
    card.getByRole("link", { name: "kontakt@meridian-markets.example.com" }),
  ).toHaveAttribute("href", "mailto:kontakt@meridian-markets.example.com");
  await expect(card.locator("img.company-logo")).toHaveAttribute(
    "src",
    /^\/media\/logos\/company-/,
  );
  const id = await card.getAttribute("data-id");

  // The answer asks for three years; the browser itself keeps a cookie at most 400 days.
  const answer = page.waitForResponse(
    (r) => r.request().method() === "POST" && /\/product/.test(r.url()),
  );
  await card.getByRole("button", { name: new RegExp(`^${EN("company:direct_access")}`) }).click();
  const setCookie = (await (await answer).headerValue("set-cookie")) ?? "";
  expect(setCookie).toMatch(new RegExp(`tp_company=[^;]+;[^\n]*Max-Age=${THREE_YEARS_S}`));
  await expect(page).toHaveURL(/\/$/);
  const cookie = (await context.cookies()).find((c) => c.name === "tp_company");
  const stored = Buffer.from(decodeURIComponent(cookie?.value ?? ""), "base64").toString();
  expect(stored).toBe(id);
  expect(cookie?.httpOnly).toBe(true);
  expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(399 * 24 * 60 * 60);
});

test("a company that is not open sends its visitors to its loss_url", async ({
  page,
  baseURL,
}, info) => {
  const name = `E2E Closed ${info.project.name} ${Date.now().toString(36)}`;
  const loss = `${baseURL}/feedback`;
  const company = await addCompany({ name, subject: "Closed for the test" });

  await page.goto(`/product?name=${encodeURIComponent(name)}`);
  await expect(page.getByTestId("company")).toHaveCount(1);
  // Closed after the page was shown: choosing it leads to its loss_url.
  await updateCompany(company.id, { status: "1", loss_url: loss });
  await page
    .getByTestId("company")
    .getByRole("button", { name: new RegExp(`^${EN("company:direct_access")}`) })
    .click();
  await expect(page).toHaveURL(/\/feedback$/);

  // Remembered: the home page sends the visitor there too, until the company opens again.
  await page.goto("/");
  await expect(page).toHaveURL(/\/feedback$/);
  await updateCompany(company.id, { status: "0", enabled: "0" });
  await page.goto("/");
  await expect(page).toHaveURL(/\/$/);
});

test("a search longer than the bound is refused with its message", async ({ page }) => {
  const res = await page.goto(`/product?name=${"x".repeat(70)}`);
  expect(res?.status()).toBe(400);
  await expect(page.getByText(EN("company:search_too_long"), { exact: true })).toBeVisible();
  await expect(page.getByTestId("company")).toHaveCount(0);
});
