/**
 * Arabic, right to left: the figures read in the right order, JavaScript on and off. A withdrawal
 * record reads "what was asked ← what arrives" from the right, the deposit price line "1 USDT =
 * 1.00 USD" from the right; an open position's open price comes before (right of) its current
 * price with the arrow pointing left; a loss shows its minus sign before the digits (on their
 * left, as a figure is read left to right) on /order and on a copy's page; a copy's stop-loss
 * level comes before its share.
 *
 * What is checked is what the eye sees: each character's place on the screen (its box), not the
 * order of the text in the page. `visual` reads a one-line element's characters from left to right.
 *
 * The prices of the instruments used here are set by this spec only, one instrument per project,
 * so that the two projects never move each other's prices.
 */
import type { Locator, Page, TestInfo } from "@playwright/test";
import { test, expect, jsOn, newSignedInUser } from "./fixtures";
import { operatorAdjust, setPrice } from "./operator";
import { userApi, userSession, withdrawAs } from "./console";
import { contractOf } from "./money";
import { devProvider, devProviderTrade, lotsForCopy, providerOf } from "./copy";

/** Marks of direction and isolation take no room; spaces are left out of both sides. */
const INVISIBLE = /[\s\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/u;

/** The element's characters as they stand on the screen, left to right (one line, no spaces). */
async function visual(loc: Locator): Promise<string> {
  const chars = await loc.evaluate((el, invisible) => {
    const skip = new RegExp(invisible, "u");
    const out: { x: number; top: number; c: string }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        if (skip.test(text[i])) continue;
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const box = range.getBoundingClientRect();
        if (box.width === 0) continue;
        out.push({ x: box.left + box.width / 2, top: Math.round(box.top), c: text[i] });
      }
    }
    return out;
  }, INVISIBLE.source);
  const lines = new Set(chars.map((c) => c.top));
  expect(lines.size, `${await loc.textContent()} is on one line`).toBeLessThanOrEqual(1);
  return chars
    .sort((a, b) => a.x - b.x)
    .map((c) => c.c)
    .join("");
}

/** A reading as it should look, without spaces (as `visual` answers). */
const looks = (text: string) => text.replace(new RegExp(INVISIBLE.source, "gu"), "");

async function arabic(page: Page): Promise<void> {
  await page.goto("/?lng=ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
}

/** A signed-in real user with 1,000 USD; the upstream token. */
async function fundedUser(page: Page, info: TestInfo): Promise<string> {
  const email = await newSignedInUser(page, info);
  const { token, uid } = await userSession(email);
  await operatorAdjust(uid, "1000", "Right-to-left e2e funds");
  return token;
}

/** Instruments no other spec prices: one for the user's position, one for the provider's. */
function instrumentsOf(info: TestInfo): { own: string; provider: string } {
  return jsOn(info) ? { own: "USDCAD", provider: "EURGBP" } : { own: "GBPJPY", provider: "XAGUSD" };
}

test("a withdrawal record and the deposit price line read right to left", async ({
  page,
}, info) => {
  const token = await fundedUser(page, info);
  await withdrawAs(token, "100");

  await arabic(page);
  await page.goto("/mine/withdraw");
  const record = page.getByTestId("withdraw-record").locator(".ledger-value");
  await expect(record.locator("bdi")).toHaveText(["100.00 USD", "99.00000000 USDT"]);
  // Read from the right: 100.00 USD, then the arrow to what arrives.
  expect(await visual(record)).toBe(looks("99.00000000 USDT ← 100.00 USD"));

  await page.goto("/mine/charge");
  const price = page.getByTestId("charge-price");
  await expect(price.locator("bdi")).toHaveText(["1 USDT", "1.00 USD"]);
  expect(await visual(price)).toBe(looks("1.00 USD = 1 USDT"));

  // The same lines left to right in English.
  await page.goto("/mine/withdraw?lng=en");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  expect(await visual(page.getByTestId("withdraw-record").locator(".ledger-value"))).toBe(
    looks("100.00 USD → 99.00000000 USDT"),
  );
  await page.goto("/mine/charge");
  expect(await visual(page.getByTestId("charge-price"))).toBe(looks("1 USDT = 1.00 USD"));
});

test("an open position's prices and loss, and a copy's figures, read right to left", async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  const { own, provider: copied } = instrumentsOf(info);
  const token = await fundedUser(page, info);

  // The user's own position, bought at one price and marked lower: a loss.
  const c = await contractOf(own);
  const open = await setPrice(own, own === "GBPJPY" ? "190.000" : "1.36000");
  const bought = await userApi(token, "POST", "/v1/api/forex/submit", {
    type: 1,
    cont: "0.01",
    forex_id: c.id,
    multiple: 100,
  });
  expect(bought.code, bought.msg).toBe(1);
  const marked = await setPrice(own, own === "GBPJPY" ? "189.000" : "1.35000");
  expect(marked).toBeLessThan(open);

  // A copy of a provider whose open position then loses.
  const name = `e2e-rtl-${info.project.name}-${Date.now().toString(36)}`.slice(0, 40);
  const providerId = await devProvider(name);
  await setPrice(copied, copied === "XAGUSD" ? "30.000" : "0.85000");
  const equity = Number((await providerOf(providerId)).equity);
  await devProviderTrade(providerId, copied, 1, lotsForCopy(equity, 500, 0.05));
  const copy = await userApi(token, "POST", "/api/follow/copy", {
    provider_id: providerId,
    amount: "500",
    copy_open: "1",
  });
  expect(copy.code, copy.msg).toBe(1);
  await setPrice(copied, copied === "XAGUSD" ? "29.000" : "0.84000");

  await arabic(page);
  await page.goto("/order");
  const row = page.locator(`[data-testid="order-row"][data-order-id="${bought.data.Id}"]`);
  await expect(row).toHaveCount(1);
  const prices = row.getByTestId("order-prices");
  const openShown = await prices.getByTestId("order-open-price").textContent();
  const nowShown = await prices.getByTestId("order-price").textContent();
  expect(Number(nowShown)).toBeLessThan(Number(openShown));
  // From the right: the open price, the arrow (turned to point left), the current price.
  expect(await visual(prices)).toBe(looks(`${nowShown}→${openShown}`));
  expect(await prices.locator(".flip-rtl").evaluate((e) => getComputedStyle(e).transform)).toBe(
    "matrix(-1, 0, 0, 1, 0, 0)",
  );
  const [openBox, nowBox] = [
    await prices.getByTestId("order-open-price").boundingBox(),
    await prices.getByTestId("order-price").boundingBox(),
  ];
  expect(openBox!.x).toBeGreaterThan(nowBox!.x);
  // A loss: the minus sign on the left of its digits.
  const loss = row.getByTestId("order-profit");
  expect(await visual(loss)).toMatch(/^-\d[\d,]*\.\d{6}$/);

  // The copy's page: the copied position's loss, the copy's loss, the stop-loss level and share.
  await page.goto(`/mine/copies/${copy.data.id}`);
  const position = page.getByTestId("copy-position").first();
  await expect(position).toBeVisible();
  expect(await visual(position.getByTestId("copy-position-profit"))).toMatch(/^-\d[\d,]*\.\d{6}$/);
  expect(await visual(page.getByTestId("copy-profit"))).toMatch(/^-\d[\d,]*\.\d{2}$/);
  const stop = page.getByTestId("copy-stop-level");
  // From the right: the level (e.g. 300.00), then its share in brackets, "(40%)".
  // (A bracket is drawn mirrored in right-to-left text, so either bracket character may stand first.)
  expect(await visual(stop)).toMatch(/^[()]\d+%[()]\d[\d,]*\.\d{2}$/);
});
