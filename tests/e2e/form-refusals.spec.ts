/**
 * Every POST form goes through one pipeline: a form the schema refuses answers 400 with the field
 * messages, a missing or wrong CSRF token 403 with the translated "page expired" message; either
 * way the same page shows the form again and nothing changes. With and without JavaScript: the
 * refused request is a document POST without it and Remix's data request (.data) with it; the
 * bad values and tokens are put into the request on its way (the browser's own checks pass).
 */
import type { Page, Request as PwRequest, Response as PwResponse } from "@playwright/test";
import {
  test,
  expect,
  field,
  button,
  registerEmailByApi,
  signIn,
  demoByForm,
  uniqueEmail,
} from "./fixtures";
import { web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);
const EXPIRED = EN("common:csrf_failed");

/** The response to the next POST to a path (document or data request). */
function nextPost(page: Page, pathname: string): Promise<PwResponse> {
  return page.waitForResponse((r) => {
    const u = new URL(r.url());
    return (
      r.request().method() === "POST" &&
      (u.pathname === pathname || u.pathname === `${pathname}.data`)
    );
  });
}

/** Rewrites the body of the POSTs to a path before they leave the browser. */
async function rewritePosts(
  page: Page,
  pathname: string,
  edit: (body: URLSearchParams) => void,
): Promise<void> {
  await page.route(
    (url) => url.pathname === pathname || url.pathname === `${pathname}.data`,
    async (route) => {
      const req: PwRequest = route.request();
      if (req.method() !== "POST") return route.continue();
      const body = new URLSearchParams(req.postData() ?? "");
      edit(body);
      await route.continue({ postData: body.toString() });
    },
  );
}

/** Posts to a path carry a token that is not the cookie's (a page left open past its token). */
async function spoilTokens(page: Page, pathname: string): Promise<void> {
  await rewritePosts(page, pathname, (body) => body.set("csrf", "expired-token"));
}

/** Whether the browser is still a visitor: /user sends it to sign in. */
async function expectVisitor(page: Page): Promise<void> {
  await page.goto("/user");
  await expect(page).toHaveURL(/\/login\?from=/);
}

test.describe("refused forms", () => {
  test("sign-in with a form the schema refuses: 400 and the field message, still a visitor", async ({
    page,
  }) => {
    await page.goto("/login");
    // Filled as a person would; the account is emptied on the way (the browser's own check passes).
    await rewritePosts(page, "/login", (body) => body.set("account", ""));
    await field(page, "auth:email").fill("someone@example.test");
    await field(page, "auth:password").fill("whatever-1");
    const res = nextPost(page, "/login");
    await button(page, "auth:login_submit").click();
    expect((await res).status()).toBe(400);
    await expect(page.getByText(EN("auth:input_account"), { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await page.unrouteAll();
    await expectVisitor(page);
  });

  test("sign-in with a wrong CSRF token: 403 and 'page expired', not signed in", async ({
    page,
  }, info) => {
    const email = uniqueEmail(info, "csrf");
    await registerEmailByApi(email);
    await page.goto("/login");
    await field(page, "auth:email").fill(email);
    await field(page, "auth:password").fill("Tr4de-post!e2e");
    await spoilTokens(page, "/login");
    const res = nextPost(page, "/login");
    await button(page, "auth:login_submit").click();
    expect((await res).status()).toBe(403);
    await expect(page.getByRole("alert").filter({ hasText: EXPIRED })).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    // The e-mail is kept, the password is not sent back.
    await expect(field(page, "auth:email")).toHaveValue(email);
    await page.unrouteAll();
    await expectVisitor(page);
    // The page's own token works.
    await signIn(page, email);
    await expect(page).not.toHaveURL(/\/login/);
  });

  test("the demo account form without a CSRF token: 403 and 'page expired', no account made", async ({
    page,
  }) => {
    await page.goto("/login");
    await rewritePosts(page, "/login", (body) => body.delete("csrf"));
    const res = nextPost(page, "/login");
    await button(page, "auth:demo_submit").click();
    expect((await res).status()).toBe(403);
    await expect(page.locator("#demo").getByRole("alert")).toHaveText(EXPIRED);
    await page.unrouteAll();
    await expectVisitor(page);
  });

  test("the language form with a wrong token: 403 and 'page expired', the language stays", async ({
    page,
  }) => {
    await page.goto("/language");
    await spoilTokens(page, "/language");
    const res = nextPost(page, "/language");
    await page.getByRole("button", { name: "Français" }).click();
    expect((await res).status()).toBe(403);
    await expect(page.getByRole("alert")).toHaveText(EXPIRED);
    await page.unrouteAll();
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("an order with lots the schema refuses: 400 and the lots message, nothing ordered", async ({
    page,
  }) => {
    await demoByForm(page);
    await page.goto("/trade?code=EURUSD");
    const rows = page.getByTestId("trade-positions").getByTestId("order-row");
    const before = await rows.count();
    await rewritePosts(page, "/trade", (body) => body.set("cont", "0"));
    const form = page.getByTestId("order-form");
    const res = nextPost(page, "/trade");
    await form.getByRole("button", { name: EN("trade:form.buy"), exact: true }).click();
    expect((await res).status()).toBe(400);
    await expect(form.locator('[data-error-for="cont"]')).toHaveText(
      EN("trade:errors.cont_min_other", { min: "0.01" }),
    );
    await expect(page.getByTestId("order-success")).toHaveCount(0);
    await page.unrouteAll();
    await page.goto("/trade?code=EURUSD");
    await expect(rows).toHaveCount(before);
  });

  test("an order with a wrong CSRF token: 403 and 'page expired', nothing ordered", async ({
    page,
  }) => {
    await demoByForm(page);
    await page.goto("/trade?code=EURUSD");
    const rows = page.getByTestId("trade-positions").getByTestId("order-row");
    const before = await rows.count();
    await spoilTokens(page, "/trade");
    const form = page.getByTestId("order-form");
    const res = nextPost(page, "/trade");
    await form.getByRole("button", { name: EN("trade:form.buy"), exact: true }).click();
    expect((await res).status()).toBe(403);
    await expect(form.getByRole("alert").filter({ hasText: EXPIRED })).toBeVisible();
    await expect(page.getByTestId("order-success")).toHaveCount(0);
    await page.unrouteAll();
    await page.goto("/trade?code=EURUSD");
    await expect(rows).toHaveCount(before);
  });

  test("the balance toggle without a CSRF token: 403 and 'page expired', the balance stays shown", async ({
    page,
  }) => {
    await demoByForm(page);
    await page.goto("/user");
    const balance = page.getByTestId("user-balance");
    await expect(balance).not.toHaveText("******");
    await rewritePosts(page, "/user", (body) => body.delete("csrf"));
    const res = nextPost(page, "/user");
    await page.getByRole("button", { name: EN("common:user.hide_balance") }).click();
    expect((await res).status()).toBe(403);
    await expect(page.getByRole("alert")).toHaveText(EXPIRED);
    await page.unrouteAll();
    await page.goto("/user");
    await expect(balance).not.toHaveText("******");
  });
});
