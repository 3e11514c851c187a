/**
 * The Content-Security-Policy allows no inline style and no inline script without the response's
 * nonce, and no screen breaks it: the browser reports no CSP violation on any screen, with
 * JavaScript on (hydration, the live chart, the order form) and off. Without JavaScript a screen is
 * loaded again only when its page then differs (no-js-screens.ts): the others' HTML is what the
 * browser with JavaScript parsed and reported on first.
 */
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { test, expect, jsOn, newSignedInUser, demoByForm } from "./fixtures";
import { depositAs, openConsole, userSession } from "./console";
import { web } from "./texts";
import { screensFor } from "./no-js-screens";

const PUBLIC = [
  "/",
  "/product?searchCurrency=EUR",
  "/login",
  "/register",
  "/forgot",
  "/language",
  "/feedback",
  "/news",
  "/news/detail?id=1",
  "/rank",
  "/rank?view=copy",
];
const SIGNED_IN = [
  "/mine/announcement",
  "/mine/announcement?id=2",
  "/order",
  "/user",
  "/mine",
  "/mine/chat",
  "/mine/system",
  "/mine/history",
  "/mine/wallet",
  "/mine/withdraw",
  "/mine/coin-address-list",
  "/mine/bank-card-list",
  "/mine/withdraw-way?type=1",
  "/mine/charge",
  "/mine/auth",
  "/trade?code=EURUSD",
];
/** A real account's money screens (the demo account sees only their real-account message). */
const REAL_MONEY = [
  "/mine/wallet",
  "/mine/withdraw",
  "/mine/coin-address-list",
  "/mine/bank-card-list",
  "/mine/withdraw-way?type=1",
  "/mine/withdraw-way?type=2",
  "/mine/history",
  "/mine/auth",
  "/mine/password",
  "/mine/email",
  "/mine/invite",
];

/** Collects the browser's reports of CSP violations on `page`. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
  });
  return seen;
}

test.describe("content security policy", () => {
  test("forbids inline styles and un-nonced scripts", async ({ request }, info) => {
    test.skip(!jsOn(info), "a header: the same for every browser");
    const res = await request.get("/");
    const csp = res.headers()["content-security-policy"] ?? "";
    const style = /style-src ([^;]*)/.exec(csp)?.[1] ?? "";
    const script = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    expect(style).toContain("'self'");
    expect(style).not.toContain("unsafe-inline");
    expect(script).toMatch(/'nonce-[^']+'/);
    expect(script).not.toContain("unsafe-inline");
  });

  test("no screen breaks it", async ({ page }, info) => {
    const violations = watchViolations(page);
    for (const url of screensFor(info, PUBLIC)) {
      await page.goto(url);
      await page.waitForLoadState("load");
    }
    await demoByForm(page);
    for (const url of screensFor(info, SIGNED_IN)) {
      await page.goto(url);
      await page.waitForLoadState("load");
    }
    // An order and its pop-up, then the position on the trade and order screens.
    await page.goto("/trade?code=EURUSD");
    await page
      .getByTestId("order-form")
      .getByRole("button", { name: web("en", "trade:form.buy"), exact: true })
      .click();
    await expect(page.getByTestId("order-success")).toBeVisible();
    await page.goto("/order");
    await expect(page.getByTestId("order-row")).toHaveCount(1);
    await page.goto("/?lng=ar");
    await page.waitForLoadState("load");
    expect(violations).toEqual([]);
  });

  test("a real account's money screens do not break it", async ({ page }, info) => {
    const violations = watchViolations(page);
    await newSignedInUser(page, info);
    for (const url of screensFor(info, REAL_MONEY)) {
      await page.goto(url);
      await page.waitForLoadState("load");
    }
    // The withdrawal screen's prompt, shown as a dialog.
    await page.goto("/mine/withdraw");
    await expect(page.getByTestId("not-bind")).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("a real account's deposit screens break it neither (QR code SVG, proof preview)", async ({
    page,
  }, info) => {
    const violations = watchViolations(page);
    await newSignedInUser(page, info);
    await page.goto("/mine/charge?type=0");
    await expect(page.getByTestId("charge-qr").locator("svg")).toBeVisible();
    const proof = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 20, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    await page
      .getByTestId("charge-form-coin")
      .getByLabel(web("en", "charge:proof"))
      .setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: proof });
    if (jsOn(info)) await expect(page.getByTestId("charge-preview")).toBeVisible();
    await page.goto("/mine/charge?type=1");
    await expect(page.getByTestId("charge-wire-details")).toBeVisible();
    await page.waitForLoadState("load");
    expect(violations).toEqual([]);
  });

  test("the operator console breaks it nowhere, proof images included", async ({ page }, info) => {
    test.skip(!jsOn(info), "the console's pages are the same without JavaScript");
    const violations = watchViolations(page);
    const email = await newSignedInUser(page, info);
    await depositAs((await userSession(email)).token, "50");
    await page.goto("/operator/login");
    await page.waitForLoadState("load");
    await openConsole(page);
    for (const url of [
      "/operator",
      "/operator/draws",
      "/operator/verifications",
      `/operator/users?q=${encodeURIComponent(email)}`,
      "/operator/settings",
      "/operator/audit",
      "/operator/channels",
      "/operator/wire-accounts",
      "/operator/draw-currencies",
      "/operator/feedback",
      "/operator/companies",
      "/operator/news?edit=new",
      "/operator/notices?edit=2",
      "/operator/news-categories",
      "/operator/requests?status=1",
      "/operator/copies",
      "/operator/providers",
    ]) {
      await page.goto(url);
      await page.waitForLoadState("load");
    }
    expect(violations).toEqual([]);
  });
});
