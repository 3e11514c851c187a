/**
 * Accessibility (issue 7): every screen passes axe's WCAG 2.2 AA rules with zero violations, with
 * JavaScript on and off. A failure lists each violation's rule, impact and the elements it names.
 *
 * axe runs inside the page, which a browser with JavaScript off cannot do. In the no-js project the
 * screen is therefore checked as that browser built it: its DOM (what the server rendered, no script
 * run, <noscript> content shown) is served again, without any script, to a JavaScript-enabled page of
 * the same size that loads the same style sheets and images, and axe runs there.
 *
 * A screen is checked in the no-js project only when its page without JavaScript differs from the
 * hydrated one (NO_JS_DIFFERS in no-js-screens.ts): every other screen's page is the server's HTML, which hydration
 * keeps as it is, so the js project's check covers both.
 */
import type { Browser, Page, TestInfo } from "@playwright/test";
import {
  test,
  expect,
  jsOn,
  newSignedInUser,
  demoByForm,
  TRON,
  upstreamPost,
  PASSWORD,
} from "./fixtures";
import { operatorAdjust } from "./operator";
import { openConsole } from "./console";
import { NO_JS_DIFFERS, screensFor } from "./no-js-screens";
import { web } from "./texts";
import { AXE_TAGS, axeOf } from "./axe";

/** The screen shown by `page`, as a page axe can run in, and how to let it go. */
async function axeablePage(
  page: Page,
  browser: Browser,
  info: TestInfo,
): Promise<{ target: Page; close: () => Promise<void> }> {
  if (jsOn(info)) return { target: page, close: async () => {} };
  const url = page.url();
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, "")
    .replace(/<\/?noscript>/gi, "");
  const use = info.project.use;
  const context = await browser.newContext({
    viewport: use.viewport,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    userAgent: use.userAgent,
    locale: use.locale,
    timezoneId: use.timezoneId,
    javaScriptEnabled: true,
  });
  const target = await context.newPage();
  await target.route("**/*", (route) => {
    const request = route.request();
    if (request.url() === url && request.isNavigationRequest())
      return route.fulfill({ contentType: "text/html; charset=utf-8", body: html });
    if (request.resourceType() === "script") return route.abort();
    return route.fallback();
  });
  await target.goto(url, { waitUntil: "load" });
  return { target, close: () => context.close() };
}

/** Runs axe on the screen shown and expects no violation; the message says what to fix and where. */
async function expectNoViolations(
  page: Page,
  browser: Browser,
  info: TestInfo,
  screen: string,
): Promise<void> {
  const { target, close } = await axeablePage(page, browser, info);
  try {
    const { violations, toolOptions } = await axeOf(target).analyze();
    // The rules run are the product's WCAG tags, not axe's whole set (best practices included).
    expect((toolOptions.runOnly as { values?: string[] } | undefined)?.values).toEqual(AXE_TAGS);
    const report = violations
      .map((v) => {
        const nodes = v.nodes
          .map((n) => {
            const why = n.failureSummary
              ? `\n      ${n.failureSummary.replace(/\n/g, "\n      ")}`
              : "";
            return `    ${n.target.join(" ")}${why}`;
          })
          .join("\n");
        return `${v.id} (${v.impact ?? "no impact given"}): ${v.help} [${v.nodes.length}]\n${nodes}`;
      })
      .join("\n");
    expect(violations, `axe violations on ${screen}:\n${report}`).toEqual([]);
  } finally {
    await close();
  }
}

/** Opens each screen in turn (it must not redirect) and checks it has no violations. */
async function expectScreensClean(
  page: Page,
  browser: Browser,
  info: TestInfo,
  urls: readonly string[],
): Promise<void> {
  for (const url of urls) {
    await page.goto(url);
    await expect(page).toHaveURL(new RegExp(`${url.replace("?", "\\?")}$`));
    await expectNoViolations(page, browser, info, url);
  }
}

/**
 * Declares the tests of `body` in a group that the no-js project skips, before any page is made,
 * when none of `urls` differs without JavaScript (their check in the js project covers both).
 */
function forScreens(urls: readonly string[], body: () => void): void {
  test.describe(() => {
    test.skip(
      ({ javaScriptEnabled }) => !javaScriptEnabled && !urls.some((u) => NO_JS_DIFFERS.has(u)),
      "the page without JavaScript is the same",
    );
    body();
  });
}

const PUBLIC = [
  "/",
  "/product",
  "/trade?code=EURUSD",
  "/login",
  "/register",
  "/forgot",
  "/language",
  "/feedback",
  "/?lng=ar",
  "/news",
  "/news/detail?id=1",
  "/rank",
  "/rank?view=copy",
  // The ranking with its filter form open (a filter set), and the protection notice.
  "/rank?view=copy&max_risk=9&sort=risk",
  "/protection",
];
/** A real account's wallet screens. */
const REAL_WALLET = [
  "/mine/wallet",
  "/mine/coin-address-list",
  "/mine/bank-card-list",
  "/mine/withdraw-way?type=1",
  "/mine/withdraw-way?type=2",
  "/mine/password",
  "/mine/email",
  "/mine/invite",
  "/mine/security",
  "/mine/notifications",
  "/mine/notifications/settings",
  "/mine/alerts",
  "/mine/watchlists",
];
/** Statements and own statistics (a real account's, with ledger rows). */
const STATEMENTS = [
  "/mine/statements",
  "/mine/statements?from=2026-02-10&to=2026-02-01",
  "/mine/statements/print",
  "/mine/stats",
];
/** The operator console's pages (signed in as an operator). */
const CONSOLE = [
  "/operator/login",
  "/operator",
  "/operator/draws",
  "/operator/verifications",
  "/operator/users",
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
  // Global set-up's approved requests (the abuse limits it lifts) are on this tab.
  "/operator/requests?status=1",
  "/operator/copies",
  "/operator/providers",
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
  "/trade?code=EURUSD",
];
/** The money screens a demo account sees only the real-account message on. */
const DEMO_MONEY = [
  "/mine/withdraw",
  "/mine/coin-address-list",
  "/mine/bank-card-list",
  "/mine/withdraw-way?type=1",
];

/**
 * axe measures the contrast of what is painted at that moment, and a toast fading in is partly
 * transparent then. With reduced motion the app draws every toast in its final colours at once
 * (app.css), so each check sees what a person reads whenever it runs.
 */
test.use({ reducedMotion: "reduce" });

test.describe("accessibility (axe, WCAG 2.2 AA)", () => {
  for (const url of PUBLIC) {
    forScreens([url], () => {
      test(`a visitor's ${url} has no violations`, async ({ page, browser }, info) => {
        await page.goto(url);
        await expectNoViolations(page, browser, info, url);
      });
    });
  }

  // At most five screens per test: each page load plus an axe run takes seconds on a shared 2-core
  // machine, and a test's whole run must stay well inside the 60 s test timeout.
  for (const group of [SIGNED_IN.slice(0, 5), SIGNED_IN.slice(5)]) {
    forScreens(group, () => {
      test(`a signed-in person's ${group.join(", ")} have no violations`, async ({
        page,
        browser,
      }, info) => {
        await demoByForm(page);
        await expectScreensClean(page, browser, info, screensFor(info, group));
      });
    });
  }

  forScreens(DEMO_MONEY, () => {
    test(`a demo account's ${DEMO_MONEY.join(", ")} have no violations`, async ({
      page,
      browser,
    }, info) => {
      await demoByForm(page);
      await expectScreensClean(page, browser, info, screensFor(info, DEMO_MONEY));
    });
  });

  for (const group of [REAL_WALLET.slice(0, 4), REAL_WALLET.slice(4)]) {
    forScreens(group, () => {
      test(`a real account's ${group.join(", ")} have no violations`, async ({
        page,
        browser,
      }, info) => {
        await newSignedInUser(page, info);
        await expectScreensClean(page, browser, info, screensFor(info, group));
      });
    });
  }

  test("a real account's history, deposit and withdrawal screens (prompt, then form) have no violations", async ({
    page,
    browser,
  }, info) => {
    await newSignedInUser(page, info);
    for (const url of screensFor(info, [
      "/mine/history",
      "/mine/withdraw",
      "/mine/charge?type=0",
      "/mine/charge?type=1",
      "/mine/auth",
    ])) {
      await page.goto(url);
      await expect(page).toHaveURL(new RegExp(`${url.replace("?", "\\?")}$`));
      await expectNoViolations(page, browser, info, url);
    }
    // The withdrawal screen with a destination: the form and the records.
    await page.goto("/mine/withdraw-way?type=1&back=withdraw");
    await page.getByTestId("bind-address").getByLabel(web("en", "wallet:address")).fill(TRON);
    await page
      .getByTestId("bind-address")
      .getByRole("button", { name: web("en", "wallet:add_address") })
      .click();
    await expect(page.getByTestId("withdraw-destination")).toHaveCount(1);
    await expectNoViolations(page, browser, info, "/mine/withdraw with a destination");
  });

  forScreens(STATEMENTS, () => {
    test(`a real account's ${STATEMENTS.join(", ")} with figures and rows have no violations`, async ({
      page,
      browser,
    }, info) => {
      const email = await newSignedInUser(page, info);
      const login = await upstreamPost<{ user: { uid: string } }>("/api/user/loginForU", {
        account: email,
        password: PASSWORD,
        login_type: "email",
      });
      await operatorAdjust(login.data.user.uid, "120.50", "a11y statement");
      await operatorAdjust(login.data.user.uid, "-0.75", "a11y statement");
      await expectScreensClean(page, browser, info, screensFor(info, STATEMENTS));
    });
  });

  // The console's pages in groups of four, so the two workers share them (axe over a page
  // without JavaScript costs seconds each).
  const consolePages = CONSOLE.slice(1);
  for (let i = 0; i < consolePages.length; i += 4) {
    const group = consolePages.slice(i, i + 4);
    forScreens(group, () => {
      test(`the operator console's ${group.join(", ")} have no violations`, async ({
        page,
        browser,
      }, info) => {
        await openConsole(page);
        await expectScreensClean(page, browser, info, group);
      });
    });
  }

  forScreens(["/operator/login", "/operator/users"], () => {
    test("the operator console's sign-in and a user's ledger have no violations", async ({
      page,
      browser,
    }, info) => {
      await page.goto("/operator/login");
      await expectNoViolations(page, browser, info, "/operator/login");
      const email = await newSignedInUser(page, info);
      await openConsole(page);
      const q = `/operator/users?q=${encodeURIComponent(email)}`;
      await page.goto(q);
      await page.getByTestId("user").first().getByRole("link").click();
      await expect(page.getByTestId("user-ledger")).toBeVisible();
      await expectNoViolations(page, browser, info, "/operator/users with a ledger");
    });
  });

  test("the trade screen's chart settings, open with every indicator and a refused value, have no violations", async ({
    page,
    browser,
  }, info) => {
    await page.goto("/trade?code=EURUSD");
    const settings = page.getByTestId("chart-settings");
    await settings.getByText(web("en", "chart:settings"), { exact: true }).click();
    // The server's refusal is the state shown: the browser's own check is set aside.
    await settings.locator("form").evaluate((f) => f.setAttribute("novalidate", ""));
    for (const k of ["sma", "ema", "bollinger", "rsi", "macd", "stochastic", "atr"])
      await settings.locator(`input[type="checkbox"][name="${k}"]`).check();
    await settings.locator('input[name="rsi_period"]').fill("1");
    await settings.getByRole("button", { name: web("en", "chart:save") }).click();
    await expect(settings.locator('input[name="rsi_period"]')).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expectNoViolations(page, browser, info, "/trade?code=EURUSD chart settings refused");
  });

  test("a person with an open position: the trade screen, its success pop-up, Holding and the order detail have no violations", async ({
    page,
    browser,
  }, info) => {
    await demoByForm(page);
    await page.goto("/trade?code=EURUSD");
    await page
      .getByTestId("order-form")
      .getByRole("button", { name: web("en", "trade:form.buy"), exact: true })
      .click();
    await expect(page.getByTestId("order-success")).toBeVisible();
    await expectNoViolations(page, browser, info, "the order success pop-up");
    await page.goto("/trade?code=EURUSD");
    const row = page.getByTestId("trade-positions").getByTestId("order-row");
    await expect(row).toHaveCount(1);
    const id = await row.getAttribute("data-order-id");
    await expectNoViolations(page, browser, info, "/trade?code=EURUSD with an open position");
    await page.goto("/order");
    await expect(page.getByTestId("order-row")).toHaveCount(1);
    await expectNoViolations(page, browser, info, "/order with an open position");
    await page.goto(`/order?detail=${id}`);
    await expect(page.getByTestId("order-detail")).toBeVisible();
    await expectNoViolations(page, browser, info, `/order?detail=${id}`);
  });
});
