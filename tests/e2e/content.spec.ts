/**
 * News and announcements with JavaScript on and off: the policy notice shown once to a new visitor
 * and dismissed by a plain form; /news with its categories, pages and articles; /mine/announcement's
 * list and detail; and the console's editor, whose preview and saved article keep no script, event
 * handler or javascript: link of hostile HTML.
 */
import { axeOf } from "./axe";
import type { Page } from "@playwright/test";
import { test, expect, jsOn, newSignedInUser, UPSTREAM_URL } from "./fixtures";
import { EN, openConsole } from "./console";
import { E2E_OPERATOR_TOKEN } from "./operator";
import { upstream, web } from "./texts";

/** Hostile HTML an operator might paste: everything but the paragraph's text and the good link goes. */
const HOSTILE =
  '<p onclick="window.__pwned=1">Breaking <strong>story</strong></p>' +
  '<script>window.__pwned=2</script><img src="x" onerror="window.__pwned=3">' +
  '<a href="javascript:window.__pwned=4">bad link</a><a href="https://example.com/more">good link</a>' +
  '<iframe src="https://example.com"></iframe><style>body{display:none}</style>';

/** The article body holds no script, handler, frame, style or javascript: link. */
async function expectSafe(body: ReturnType<Page["getByTestId"]>) {
  const html = await body.innerHTML();
  expect(html).not.toMatch(/<script|onclick|onerror|javascript:|<iframe|<style/i);
  await expect(body.locator("strong")).toHaveText("story");
  await expect(body.getByRole("link", { name: "good link" })).toHaveAttribute(
    "rel",
    "noopener noreferrer",
  );
}

/** How many stored news items (newest page, drafts included) have this title. */
async function newsCount(title: string): Promise<number> {
  const r = await fetch(`${UPSTREAM_URL}/admin/api/news`, {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
  });
  const page = (await r.json()) as { data: { data: { title: string }[] } };
  return page.data.data.filter((n) => n.title === title).length;
}

test.describe("a new visitor", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("sees the policy notice once, dismisses it and does not see it again", async ({
    page,
  }, info) => {
    await page.goto("/");
    const notice = page.getByTestId("policy-notice");
    await expect(notice).toBeVisible();
    await expect(notice.getByRole("heading")).toHaveText("Notice on restricted countries");
    await expect(notice).toContainText("not provided to residents of certain countries");
    if (jsOn(info)) {
      // axe runs in the page; a11y.spec.ts checks the no-JavaScript screens its own way.
      const axe = await axeOf(page).include('[data-testid="policy-notice"]').analyze();
      expect(axe.violations.map((v) => v.id)).toEqual([]);
    }
    await page.goto("/news?lng=ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(notice.getByRole("heading")).toHaveText("إشعار بشأن الدول المقيّدة");
    // The dismissal is a form post; the next page waits for its answer (which sets the cookie).
    const dismissed = page.waitForResponse((r) => r.request().method() === "POST");
    await notice.getByRole("button", { name: web("ar", "content:policy_dismiss") }).click();
    await dismissed;
    await expect(notice).toHaveCount(0);
    await expect(page).toHaveURL(/\/news/);
    for (const path of ["/", "/news?lng=en", "/language"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expect(notice).toHaveCount(0);
    }
  });
});

test("news: from the home page, categories, an article, and back", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: EN("common:home.news"), exact: true }).click();
  await expect(page).toHaveURL(/\/news$/);
  await expect(
    page.getByRole("heading", { level: 1, name: EN("content:news_title") }),
  ).toBeVisible();
  // The page streams in: count once the list has arrived (the heading comes first).
  const items = page.getByTestId("news-item");
  await expect.poll(() => items.count()).toBeGreaterThanOrEqual(12);
  const categories = page.getByTestId("news-category");
  await expect.poll(() => categories.count()).toBeGreaterThanOrEqual(3);
  await expect(page.getByRole("link", { name: EN("content:all"), exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  // Dates in the user's locale (en-US short date and time, UTC).
  await expect(items.first().locator("time")).toHaveText(/^\d{1,2}\/\d{1,2}\/\d{2}, /);

  await page.getByRole("link", { name: "Education", exact: true }).click();
  await expect(page).toHaveURL(/\/news\?category_id=3$/);
  await expect(page.getByRole("link", { name: "Education", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(items.first()).toContainText("Education");
  // Every item of the category, counted once the whole page has arrived.
  await page.waitForLoadState();
  const n = await items.count();
  for (let i = 0; i < n; i++) await expect(items.nth(i)).toContainText("Education");

  await page.getByRole("link", { name: /What is leverage\?/ }).click();
  await expect(page).toHaveURL(/\/news\/detail\?id=\d+$/);
  const article = page.getByTestId("news-article");
  await expect(article.getByRole("heading", { level: 2 })).toHaveText("What is leverage?");
  await expect(page.getByTestId("article-body").locator("strong")).toHaveText("Leverage");
  await expect(article.locator("img")).toHaveJSProperty("complete", true);
  await page.getByRole("link", { name: EN("common:back") }).click();
  await expect(page).toHaveURL(/\/news$/);

  const missing = await page.goto("/news/detail?id=999999");
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId("news-notice")).toBeVisible();
});

test("announcements: the list with the policy notice first, and one announcement", async ({
  page,
}, info) => {
  await newSignedInUser(page, info);
  await page.goto("/user");
  await page.getByRole("link", { name: EN("common:user.entry.announcement") }).click();
  await expect(page).toHaveURL(/\/mine\/announcement$/);
  const first = page.getByTestId("notice-item").first();
  await expect(first).toContainText(EN("content:policy_badge"));
  await expect(first).toContainText("Notice on restricted countries");
  await expect.poll(() => page.getByTestId("notice-item").count()).toBeGreaterThanOrEqual(3);
  await page.getByRole("link", { name: /Planned maintenance on Sunday/ }).click();
  await expect(page).toHaveURL(/\/mine\/announcement\?id=\d+$/);
  await expect(page.getByTestId("notice-article")).toContainText("02:00 and 03:00 UTC");
  await page.getByRole("link", { name: EN("common:back") }).click();
  await expect(page).toHaveURL(/\/mine\/announcement$/);
});

test("the console's news editor previews and saves sanitised HTML; unpublishing hides it", async ({
  page,
}, info) => {
  test.setTimeout(60_000);
  const title = `Editor test ${info.project.name} ${Date.now().toString(36)}`;
  await openConsole(page);
  await page.getByRole("link", { name: EN("content:nav_news"), exact: true }).click();
  await expect(page).toHaveURL(/\/operator\/news$/);
  await page.getByRole("link", { name: EN("content:editor_new") }).click();
  const editor = page.getByTestId("news-editor");
  await editor.getByLabel(EN("content:f_category")).selectOption({ label: "Company news" });
  await editor.getByLabel(EN("content:f_title")).fill(title);
  await editor.getByLabel(EN("content:f_desc")).fill("A summary");
  await editor.getByLabel(EN("content:f_logo")).selectOption("company-app.svg");
  await editor.getByLabel(EN("content:f_content")).fill(HOSTILE);

  await editor.getByRole("button", { name: EN("content:editor_preview") }).click();
  const preview = page.getByTestId("news-preview");
  await expect(preview).toBeVisible();
  await expectSafe(preview.getByTestId("preview-body"));
  // The form keeps what was typed, and nothing is stored by a preview.
  await expect(editor.getByLabel(EN("content:f_title"))).toHaveValue(title);
  expect(await newsCount(title)).toBe(0);

  await editor.getByRole("button", { name: EN("content:editor_save") }).click();
  await expect(page.getByTestId("news-row").filter({ hasText: title })).toHaveCount(1);
  expect(await newsCount(title)).toBe(1);

  await page.goto("/news");
  await page.getByRole("link", { name: new RegExp(title) }).click();
  await expectSafe(page.getByTestId("article-body"));
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  await page.goto("/operator/news");
  const row = page.getByTestId("news-row").filter({ hasText: title });
  await row.getByRole("link", { name: new RegExp(EN("content:editor_edit")) }).click();
  await editor.getByLabel(EN("content:f_published")).selectOption("0");
  await editor.getByRole("button", { name: EN("content:editor_save") }).click();
  await expect(
    page
      .getByTestId("news-row")
      .filter({ hasText: title })
      .getByRole("cell", {
        name: EN("content:published_0"),
      }),
  ).toBeVisible();
  await page.goto("/news");
  await expect(page.getByRole("link", { name: new RegExp(title) })).toHaveCount(0);

  await test.step("a refused entry keeps its values and answers 400", async () => {
    await page.goto("/operator/news?edit=new");
    await editor.getByLabel(EN("content:f_title")).fill(`${title} refused`);
    await editor.getByLabel(EN("content:f_content")).fill("<script>x()</script>");
    const answer = page.waitForResponse(
      (r) =>
        r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/operator/news"),
    );
    await editor.getByRole("button", { name: EN("content:editor_save") }).click();
    expect((await answer).status()).toBe(400);
    await expect(editor.getByRole("alert")).toBeVisible();
    await expect(editor.getByLabel(EN("content:f_content"))).toHaveValue("<script>x()</script>");
    await expect(editor.getByRole("alert")).toContainText(
      upstream("en", "content", "content.content_required"),
    );
    expect(await newsCount(`${title} refused`)).toBe(0);
  });
});
