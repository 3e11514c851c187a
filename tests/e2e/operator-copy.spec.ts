/**
 * Copy trading in the operator console (issue 23), with JavaScript on and off: a user (a demo
 * account, through the upstream API as the app calls it) copies a strategy trader; an operator finds
 * the copy by its owner's uid, provider and status, is refused a stop without a remark, stops it with
 * one (the owner sees it ended by an operator; the audit log holds the remark); the operator hides a
 * provider from copiers and shows it again. A viewer sees copies and providers with no form to act.
 * The provider hidden is one this test makes (other specs copy the strategy traders), shown again
 * before the test ends.
 */
import type { Page, TestInfo } from "@playwright/test";
import { test, expect } from "./fixtures";
import { EN, fillOperatorLogin, newOperator, openConsole, totp, userApi } from "./console";
import { E2E_OPERATOR_TOKEN, operatorPost } from "./operator";
import { upstream } from "./texts";
import type { Copy, Provider } from "../../contract/api/copy";
import type { FollowItem } from "../../contract/api/follow";

interface CopyOfDemo {
  token: string;
  uid: string;
  copyId: number;
  providerId: number;
}

/** A demo account that copies a strategy trader of the ranking, as the app does it. */
async function demoCopying(): Promise<CopyOfDemo> {
  const demo = await userApi("", "POST", "/api/user/createAccountDemoForU");
  expect(demo.code, demo.msg).toBe(1);
  const login = await userApi("", "POST", "/api/user/loginForU", { demo_id: demo.data.demo_id });
  expect(login.code, login.msg).toBe(1);
  const token: string = login.data.token;
  const list = await userApi<FollowItem[]>(token, "GET", "/api/follow/list");
  expect(list.code, list.msg).toBe(1);
  const providerId = list.data[0].id;
  const provider = await userApi<Provider>(token, "GET", "/api/follow/provider", {
    id: providerId,
  });
  expect(provider.code, provider.msg).toBe(1);
  const amount = Math.max(100, Math.ceil(Number(provider.data.min_investment)));
  const copy = await userApi<Copy>(token, "POST", "/api/follow/copy", {
    provider_id: providerId,
    amount,
  });
  expect(copy.code, copy.msg).toBe(1);
  return { token, uid: String(login.data.user.uid), copyId: copy.data.id, providerId };
}

/** Looks copies up with the console's filter form (owner uid, provider, status). */
async function findCopies(page: Page, c: CopyOfDemo, statusKey: string) {
  await page.goto("/operator/copies");
  await page.getByLabel(EN("operator:copy_owner"), { exact: true }).fill(c.uid);
  await page
    .getByLabel(EN("operator:copy_provider"), { exact: true })
    .selectOption(String(c.providerId));
  await page
    .getByLabel(EN("operator:copy_status"), { exact: true })
    .selectOption({ label: EN(`operator:${statusKey}`) });
  await page.getByRole("button", { name: EN("operator:search"), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]uid=${c.uid}(&|$)`));
  return page.locator(`[data-testid="copy"][data-id="${c.copyId}"]`);
}

/**
 * A provider of this test's own to hide and show (a hand-driven one, MARKET_FEED=manual: the e2e
 * market), so that no other spec ever finds a provider it copies hidden.
 */
async function ownProvider(info: TestInfo): Promise<number> {
  const upstreamUrl = process.env.E2E_UPSTREAM_URL;
  if (!upstreamUrl) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it)");
  const res = await fetch(`${upstreamUrl}/dev/provider`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${E2E_OPERATOR_TOKEN}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      name: `e2e ${info.project.name} ${Date.now().toString(36)}`.slice(0, 40),
    }).toString(),
  });
  const answer = (await res.json()) as { code: number; msg: string; data: { id: number } };
  expect(answer.code, answer.msg).toBe(1);
  return answer.data.id;
}

const toast = (page: Page, text: string) =>
  expect(page.getByText(text, { exact: true }).first()).toBeVisible();

test("an operator finds a copy and stops it with a remark, hides a provider and shows it again", async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  const c = await demoCopying();
  const opName = await openConsole(page);
  const remark = `Copy ended for review (e2e ${info.project.name} ${c.copyId})`;

  await test.step("the copy is found by its owner, provider and status", async () => {
    const item = await findCopies(page, c, "copy_status_active");
    await expect(item).toHaveAttribute("data-status", "active");
    await expect(item).toContainText(c.uid);
    await expect(item.getByTestId("copy-status")).toHaveText(EN("operator:copy_status_active"));
  });

  await test.step("a stop without a remark is refused; with one the copy ends", async () => {
    const item = page.locator(`[data-testid="copy"][data-id="${c.copyId}"]`);
    const form = item.getByTestId("stop-form");
    // Blanks pass the browser's `required`; the console refuses them with its message.
    await form.getByLabel(EN("operator:remark"), { exact: true }).fill("   ");
    const refused = page.waitForResponse(
      (r) =>
        r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/operator/copies"),
    );
    await form.getByRole("button", { name: EN("operator:copy_stop"), exact: true }).click();
    expect((await refused).status()).toBe(400);
    await expect(item.locator("[data-form-error]")).toHaveText(EN("auth:please_complete"));
    await expect(item).toHaveAttribute("data-status", "active");

    await item
      .getByTestId("stop-form")
      .getByLabel(EN("operator:remark"), { exact: true })
      .fill(remark);
    await item
      .getByTestId("stop-form")
      .getByRole("button", { name: EN("operator:copy_stop"), exact: true })
      .click();
    await toast(page, EN("operator:copy_done_stop", { id: c.copyId }));
  });

  await test.step("the stopped copy shows why, with the remark; its owner sees it", async () => {
    const item = await findCopies(page, c, "copy_status_stopped");
    await expect(item).toHaveAttribute("data-status", "stopped");
    await expect(item.getByTestId("copy-stop-reason")).toHaveAttribute("data-reason", "operator");
    await expect(item.getByTestId("copy-remark")).toHaveText(remark);
    await expect(item.getByTestId("stop-form")).toHaveCount(0);
    const mine = await userApi<Copy[]>(c.token, "GET", "/api/follow/copies");
    expect(mine.data.find((x) => x.id === c.copyId)).toMatchObject({
      status: "stopped",
      stop_reason: "operator",
    });
  });

  await test.step("the audit log holds the stop and its remark", async () => {
    await page.goto(`/operator/audit?actor=${encodeURIComponent(opName)}`);
    await expect(page.getByTestId("audit-row").filter({ hasText: remark })).toHaveCount(1);
  });

  const hideId = await ownProvider(info);
  await page.goto("/operator/providers");
  const provider = page.locator(`[data-testid="provider"][data-id="${hideId}"]`);
  try {
    await test.step("a provider is hidden from copiers with a remark", async () => {
      await expect(provider).toHaveAttribute("data-hidden", "0");
      const form = provider.getByTestId("hide-form");
      await form.getByLabel(EN("operator:remark"), { exact: true }).fill("Under review (e2e)");
      await form.getByRole("button", { name: EN("operator:provider_hide"), exact: true }).click();
      await toast(page, EN("operator:provider_done_hide", { id: hideId }));
      await expect(provider).toHaveAttribute("data-hidden", "1");
      await expect(provider.getByTestId("provider-visibility")).toHaveText(
        EN("operator:hidden_mark"),
      );
      const seen = await userApi(c.token, "GET", "/api/follow/provider", { id: hideId });
      expect(seen.msg).toBe(upstream("en", "copy", "copy_provider_not_found"));
    });

    await test.step("shown again with a remark, copiers find it again", async () => {
      const form = provider.getByTestId("show-form");
      await form.getByLabel(EN("operator:remark"), { exact: true }).fill("Review done (e2e)");
      await form.getByRole("button", { name: EN("operator:provider_show"), exact: true }).click();
      await toast(page, EN("operator:provider_done_show", { id: hideId }));
      await expect(provider).toHaveAttribute("data-hidden", "0");
      const seen = await userApi(c.token, "GET", "/api/follow/provider", { id: hideId });
      expect(seen.code, seen.msg).toBe(1);
    });
  } finally {
    // Shown at the end whatever happened: a hidden provider is left to no one.
    await operatorPost(`/providers/${hideId}/hide`, { hidden: "0", remark: "e2e clean-up" });
  }
});

test("a viewer sees copies and providers with no form to act", async ({ page }, info) => {
  const c = await demoCopying();
  const op = newOperator(info, "cview", "viewer");
  await page.goto("/operator/login");
  await fillOperatorLogin(page, op, await totp(op));
  await expect(page.getByTestId("operator-role")).toHaveAttribute("data-role", "viewer");

  await page.getByRole("link", { name: EN("operator:nav_copies"), exact: true }).click();
  await expect(page).toHaveURL(/\/operator\/copies$/);
  const item = await findCopies(page, c, "copy_status_all");
  await expect(item).toHaveAttribute("data-status", "active");
  await expect(item.locator("form")).toHaveCount(0);

  await page.getByRole("link", { name: EN("operator:nav_providers"), exact: true }).click();
  await expect(page).toHaveURL(/\/operator\/providers$/);
  await expect(page.locator(`[data-testid="provider"][data-id="${c.providerId}"]`)).toBeVisible();
  await expect(page.getByTestId("providers").locator("form")).toHaveCount(0);
});
