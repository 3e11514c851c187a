/**
 * The operator console (/operator, issue 8), with JavaScript on and off: a real operator account
 * (made by `npm run operator -- add NAME`) signs in with password and TOTP code (a wrong code is
 * refused); a real user's deposit is shown with its proof image and approved (the balance goes up);
 * a withdrawal is rejected with a remark the user sees; the user is found with the ledger and
 * adjusted; a setting is changed and a bad value refused with 400; the audit log lists it all;
 * sign-out ends the console session. A user's session never opens the console.
 */
import type { Page, Response as PwResponse } from "@playwright/test";
import { test, expect, newSignedInUser } from "./fixtures";
import {
  EN,
  balanceOf,
  depositAs,
  fillOperatorLogin,
  newOperator,
  openQueueItem,
  signInOperator,
  totp,
  userApi,
  userSession,
  withdrawAs,
} from "./console";
import { disableOperatorAccount, operatorSetting } from "./operator";

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

const toast = (page: Page, text: string) =>
  expect(page.getByText(text, { exact: true }).first()).toBeVisible();

test.describe("operator console", () => {
  // Opens pages only: the redirect is the server's answer to the document's request, the same
  // without JavaScript.
  test(
    "without a console session /operator leads to its sign-in",
    { tag: "@same-without-js" },
    async ({ page }) => {
      for (const url of ["/operator", "/operator/draws", "/operator/audit"]) {
        await page.goto(url);
        await expect(page).toHaveURL(/\/operator\/login$/);
      }
      const img = await page.request.get("/operator/uploads/anything.jpg");
      expect(img.status()).toBe(401);
    },
  );

  test("repeated wrong codes: the upstream's limit refuses the sign-in with 429", async ({
    page,
  }, info) => {
    const op = newOperator(info, "lim");
    const code = await totp(op);
    const wrong = String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");
    await page.goto("/operator/login");
    const statuses: number[] = [];
    // The limit is 5 tries of one operator name in 15 minutes (limit.operator_login).
    for (let i = 0; i < 6; i++) {
      const res = nextPost(page, "/operator/login");
      await fillOperatorLogin(page, op, wrong);
      statuses.push((await res).status());
      await expect(page.locator("[data-form-error]")).toBeVisible();
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // Locked: even the right code is refused now, and the console stays closed.
    const res = nextPost(page, "/operator/login");
    await fillOperatorLogin(page, op, code);
    expect((await res).status()).toBe(429);
    await page.goto("/operator");
    await expect(page).toHaveURL(/\/operator\/login$/);
  });

  test("a revoked operator token ends the console session: back to its sign-in", async ({
    page,
  }, info) => {
    const op = await signInOperator(page, info);
    disableOperatorAccount(op.name);
    await page.goto("/operator/audit");
    await expect(page).toHaveURL(/\/operator\/login$/);
    await page.goto("/operator");
    await expect(page).toHaveURL(/\/operator\/login$/);
  });

  test("an operator signs in, decides deposits and withdrawals, looks users up, adjusts, changes settings, reads the audit log, signs out", async ({
    page,
    playwright,
  }, info) => {
    test.setTimeout(120_000);
    // A real user with a pending deposit and, once it is credited, a withdrawal.
    const email = await newSignedInUser(page, info);
    const user = await userSession(email);
    const depositId = await depositAs(user.token, "500");

    await test.step("a user's session does not open the console", async () => {
      await page.goto("/operator");
      await expect(page).toHaveURL(/\/operator\/login$/);
    });

    const op = newOperator(info);
    await test.step("a wrong code is refused with 400; the right one signs in", async () => {
      const code = await totp(op);
      const wrong = String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");
      const refused = nextPost(page, "/operator/login");
      await fillOperatorLogin(page, op, wrong);
      expect((await refused).status()).toBe(400);
      await expect(page.locator("[data-form-error]")).toBeVisible();
      await expect(page).toHaveURL(/\/operator\/login$/);
      await fillOperatorLogin(page, op, code);
      await expect(page).toHaveURL(/\/operator$/);
      await expect(page.getByTestId("operator-name")).toHaveText(op.name);
    });

    await test.step("the pending deposit shows its proof image and is approved", async () => {
      const item = await openQueueItem(page, "/operator?status=0", "charge", depositId);
      await expect(item.getByTestId("charge-amount")).toContainText("500.00");
      const img = item.locator("img");
      const src = await img.getAttribute("src");
      expect(src).toMatch(/^\/operator\/uploads\//);
      const res = await page.request.get(src!);
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toMatch(/^image\//);
      expect(res.headers()["cache-control"]).toContain("private");
      await expect
        .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth))
        .toBeGreaterThan(0);
      await item.getByTestId("approve-form").getByRole("button").click();
      await toast(page, EN("operator:charge_done_approve", { id: depositId }));
      expect((await balanceOf(user.token)).balance).toBe(500);
    });

    const drawId = await withdrawAs(user.token, "100");
    await test.step("a withdrawal is rejected with a remark; the money returns", async () => {
      expect(await balanceOf(user.token)).toMatchObject({ balance: 400, lock_balance: 100 });
      const item = await openQueueItem(page, "/operator/draws?status=0", "draw", drawId);
      const form = item.getByTestId("reject-form");
      await form.getByLabel(EN("operator:remark"), { exact: true }).fill("Address flagged (e2e)");
      await form.getByRole("button").click();
      await toast(page, EN("operator:draw_done_reject", { id: drawId }));
      expect(await balanceOf(user.token)).toMatchObject({ balance: 500, lock_balance: 0 });
      const seen = await userApi(user.token, "GET", "/api/account/draw_list", { type: 1 });
      expect(seen.data.data[0]).toMatchObject({ id: drawId, remark: "Address flagged (e2e)" });
    });

    await test.step("the user is found with the ledger and adjusted", async () => {
      await page.goto("/operator/users");
      await page.getByLabel(EN("operator:search_label"), { exact: true }).fill(user.uid);
      await page.getByRole("button", { name: EN("operator:search"), exact: true }).click();
      const row = page.locator(`[data-testid="user"][data-uid="${user.uid}"]`);
      await expect(row.getByTestId("user-balance")).toHaveText("500.00");
      await row.getByRole("link", { name: EN("operator:show_ledger") }).click();
      const ledger = page.getByTestId("user-ledger");
      await expect(ledger.locator('[data-testid="ledger-row"][data-kind="deposit"]')).toHaveCount(
        1,
      );
      const form = page.getByTestId("adjust-form");
      await form.getByLabel(EN("operator:adjust_amount"), { exact: true }).fill("12.5");
      await form.getByLabel(EN("operator:remark"), { exact: true }).fill("Goodwill (e2e)");
      const key = await form.locator('input[name="idempotency_key"]').inputValue();
      const csrf = await form.locator('input[name="csrf"]').inputValue();
      await form.getByRole("button").click();
      await toast(page, EN("operator:adjusted", { uid: user.uid, amount: "12.5" }));
      // The same form sent again (a double click, a resubmit after a time-out): booked once. It
      // goes from a request client of its own with the browser's cookies, so the cookie its answer
      // sets is not written back into the browser dated by this process's clock (which differs
      // from the browser's when the suite runs on a faked clock: tests/README.md).
      const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
      const again = await playwright.request.newContext({
        baseURL: info.project.use.baseURL,
        extraHTTPHeaders: { cookie },
      });
      const resent = await again.post(`/operator/users?uid=${user.uid}`, {
        form: {
          csrf,
          intent: "adjust",
          uid: user.uid,
          amount: "12.5",
          remark: "Goodwill (e2e)",
          idempotency_key: key,
        },
        maxRedirects: 0,
      });
      expect(resent.status()).toBe(302);
      await again.dispose();
      await expect(ledger.getByTestId("ledger-row").first()).toHaveAttribute(
        "data-kind",
        "adjustment",
      );
      expect((await balanceOf(user.token)).balance).toBe(512.5);
      // More than the balance (and within the four-eyes amount): the upstream's refusal on the
      // form, 400, nothing booked.
      await form.getByLabel(EN("operator:adjust_amount"), { exact: true }).fill("-1000");
      await form.getByLabel(EN("operator:remark"), { exact: true }).fill("Too much (e2e)");
      const refused = nextPost(page, "/operator/users");
      await form.getByRole("button").click();
      expect((await refused).status()).toBe(400);
      await expect(page.getByTestId("adjust-form").locator("[data-form-error]")).toBeVisible();
      expect((await balanceOf(user.token)).balance).toBe(512.5);
    });

    await test.step("a large adjustment waits; the approval screen shows whose money, how much and why", async () => {
      const form = page.getByTestId("adjust-form");
      await form.getByLabel(EN("operator:adjust_amount"), { exact: true }).fill("1500");
      await form.getByLabel(EN("operator:remark"), { exact: true }).fill("Large goodwill (e2e)");
      await form.getByRole("button").click();
      await expect(page.getByText(/^Sent to a second operator for approval/).first()).toBeVisible();
      expect((await balanceOf(user.token)).balance).toBe(512.5);
      await page.goto("/operator/requests?status=0");
      const item = page
        .getByTestId("request")
        .filter({ has: page.getByTestId("request-user").filter({ hasText: user.uid }) });
      await expect(item).toHaveCount(1);
      await expect(item.getByTestId("request-balance")).toHaveText("512.50 USD");
      await expect(item.getByTestId("request-amount")).toHaveText("1,500.00 USD");
      await expect(item.getByTestId("request-note")).toHaveText("Large goodwill (e2e)");
      await expect(item.getByTestId("request-summary")).toContainText(
        "above risk.adjustment_four_eyes_usd",
      );
      // The requester's own: shown, but decided by another.
      await expect(item.getByTestId("request-own")).toBeVisible();
    });

    // A plain setting (a security one, or a deposit bound, would wait for a second operator).
    const KEY = "trade.max_orders";
    await test.step("a setting is changed; a bad value is refused with 400", async () => {
      await page.goto("/operator/settings");
      const setting = page.locator(`[data-testid="setting"][data-key="${KEY}"]`);
      const input = setting.getByRole("textbox");
      const before = await input.inputValue();
      expect(Number(before)).toBeGreaterThan(0);
      const next = String(Number(before) + 1);
      try {
        await input.fill(next);
        await setting.getByRole("button").click();
        await toast(page, EN("operator:setting_saved", { key: KEY }));
        await expect(
          page.locator(`[data-testid="setting"][data-key="${KEY}"] input[name="value"]`),
        ).toHaveValue(next);
        const refused = nextPost(page, "/operator/settings");
        await page
          .locator(`[data-testid="setting"][data-key="${KEY}"] input[name="value"]`)
          .fill("not a number");
        await page
          .locator(`[data-testid="setting"][data-key="${KEY}"]`)
          .getByRole("button")
          .click();
        expect((await refused).status()).toBe(400);
        await expect(
          page.locator(`[data-testid="setting"][data-key="${KEY}"] [data-form-error]`),
        ).toBeVisible();
      } finally {
        await operatorSetting(KEY, before);
      }
    });

    await test.step("the audit log lists those actions", async () => {
      // Other specs' operators write to the log at the same time: narrow it to this operator's
      // rows with the console's filter (a GET form), as an operator reviewing a colleague would.
      await page.goto("/operator/audit");
      await page.getByLabel(EN("operator:actor"), { exact: true }).fill(op.name);
      await page.getByRole("button", { name: EN("operator:search"), exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]actor=${encodeURIComponent(op.name)}`));
      const rows = page.getByTestId("audit-row");
      await expect(rows.filter({ hasNotText: op.name })).toHaveCount(0);
      const mine = rows.filter({ hasText: op.name });
      await expect(
        page
          .locator('[data-testid="audit-row"][data-action="charge.approve"]')
          .filter({ hasText: `charge:${depositId}` }),
      ).toHaveCount(1);
      await expect(mine.filter({ hasText: `draw:${drawId}` })).toHaveCount(1);
      await expect(mine.filter({ hasText: "Goodwill (e2e)" })).toHaveCount(1);
      await expect(mine.filter({ hasText: `setting:${KEY}` })).toHaveCount(1);
      // The wrong code, then the sign-in.
      await expect(rows.and(page.locator('[data-action="operator.login_failed"]'))).toHaveCount(1);
      await expect(rows.and(page.locator('[data-action="operator.login"]'))).toHaveCount(1);
    });

    await test.step("sign-out ends the console session, not the user's", async () => {
      await page.getByRole("button", { name: EN("operator:sign_out"), exact: true }).click();
      await expect(page).toHaveURL(/\/operator\/login$/);
      await toast(page, EN("operator:signed_out"));
      await page.goto("/operator");
      await expect(page).toHaveURL(/\/operator\/login$/);
      await page.goto("/user");
      await expect(page).toHaveURL(/\/user$/);
    });
  });
});
