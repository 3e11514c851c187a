/**
 * /feedback with JavaScript on and off: an empty message is refused with its translated message and
 * nothing is stored; a message is sent by a visitor who is not signed in, confirmed by a toast, seen
 * in the console's inbox and marked handled there.
 */
import type { Page, Response as PwResponse } from "@playwright/test";
import { test, expect, field, button, jsOn } from "./fixtures";
import { EN, openConsole } from "./console";
import { feedbackInbox } from "./company-helpers";
import { upstream } from "./texts";

function nextPost(page: Page, pathname: string): Promise<PwResponse> {
  return page.waitForResponse((r) => {
    const u = new URL(r.url());
    return (
      r.request().method() === "POST" &&
      (u.pathname === pathname || u.pathname === `${pathname}.data`)
    );
  });
}

test("feedback is sent without signing in, then read and marked handled in the console", async ({
  page,
}, info) => {
  test.setTimeout(60_000);
  const text = `Feedback ${info.project.name} ${info.workerIndex} ${Date.now().toString(36)}`;

  await test.step("an empty message is refused and nothing is stored", async () => {
    await page.goto("/feedback");
    await expect(page.getByRole("link", { name: EN("common:back") })).toHaveAttribute("href", "/");
    const before = (await feedbackInbox()).length;
    if (jsOn(info)) {
      await button(page, "company:feedback_send").click();
    } else {
      const refused = nextPost(page, "/feedback");
      await button(page, "company:feedback_send").click();
      expect((await refused).status()).toBe(400);
    }
    await expect(page.locator('[data-error-for="message"]')).toHaveText(
      EN("company:message_required"),
    );
    expect((await feedbackInbox()).length).toBe(before);
  });

  await test.step("a message is sent and confirmed", async () => {
    await field(page, "company:feedback_message").fill(text);
    await field(page, "company:feedback_contact").fill("reader@example.com");
    await button(page, "company:feedback_send").click();
    await expect(
      page.getByText(upstream("en", "company", "company.feedback_received"), { exact: true }),
    ).toBeVisible();
    await expect(field(page, "company:feedback_message")).toHaveValue("");
  });

  await test.step("the console's inbox shows it and marks it handled", async () => {
    await openConsole(page);
    await page.getByRole("link", { name: EN("company:nav_feedback"), exact: true }).click();
    await expect(page).toHaveURL(/\/operator\/feedback$/);
    const item = page.getByTestId("feedback").filter({ hasText: text });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("reader@example.com");
    await expect(item).toHaveAttribute("data-handled", "0");
    await item.getByRole("button", { name: EN("company:mark_handled"), exact: true }).click();
    await expect(page.getByTestId("feedback").filter({ hasText: text })).toHaveAttribute(
      "data-handled",
      "1",
    );
    const stored = (await feedbackInbox()).find((f) => f.message === text);
    expect(stored?.handled).toBe(1);
    await page.goto("/operator/audit");
    await expect(
      page.locator('[data-testid="audit-row"][data-action="feedback.handled"]').first(),
    ).toBeVisible();
  });
});
