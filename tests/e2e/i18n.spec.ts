/** Arabic renders right-to-left, and the /language page switches the interface language. */
import { test, expect, jsOn } from "./fixtures";
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

test("a page's translations are preloaded in its own language and read once, none in another", async ({
  page,
}, info) => {
  const asked: string[] = [];
  page.on("request", (r) => {
    const p = new URL(r.url()).pathname;
    if (p.startsWith("/locales/")) asked.push(p);
  });
  await page.goto("/trade?code=EURUSD&lng=de");
  // The page names what the browser reads before it hydrates the screen, among the scripts it
  // holds until the first paint (root.tsx): the page's namespaces. The held nodes belong to the
  // template's own document, which has no address: each href as written (a path).
  const preloaded = await page
    .locator("template#tp-scripts")
    .evaluate((t) =>
      [
        ...(t as HTMLTemplateElement).content.querySelectorAll('link[rel="preload"][as="fetch"]'),
      ].map((e) => e.getAttribute("href") ?? ""),
    );
  expect(preloaded.sort()).toEqual(
    ["auth", "chart", "common", "risk", "trade"].map((ns) => `/locales/de/${ns}.json`),
  );
  await expect(page.getByTestId("instrument-code")).toHaveText("EUR/USD");
  if (jsOn(info)) {
    // Hydrated (goto waits for it) in German, from the preloaded files only: each read once, and
    // no English fallback.
    await expect(page.getByRole("heading", { name: web("de", "trade:title") })).toBeAttached();
    expect([...asked].sort()).toEqual(preloaded.sort());
  } else {
    // Without scripts nothing is hydrated, and nothing is read for it.
    expect(asked).toEqual([]);
  }
});

test("a screen reached inside the page waits for its translations: the one before stays, never its keys", async ({
  page,
}, info) => {
  test.skip(!jsOn(info), "without JavaScript every page comes translated from the server");
  await page.goto("/");
  const home = web("en", "common:home.title");
  const news = web("en", "content:news_title");
  await expect(page.getByRole("heading", { name: home })).toBeVisible();
  // The news screen's file (its route declares "content") is held until the test lets it go.
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/locales/en/content.json", async (route) => {
    asked();
    await released;
    await route.continue();
  });
  // Every heading text the page shows from here on, in order.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { headings: string[] }).headings = seen;
    const note = () => {
      for (const h of document.querySelectorAll("h1")) {
        const text = h.textContent ?? "";
        if (seen[seen.length - 1] !== text) seen.push(text);
      }
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  await page.getByRole("link", { name: web("en", "common:home.news"), exact: true }).click();
  await requested;
  // While the file is on its way the home screen stays; the news screen is not shown with keys.
  await expect(page.getByRole("heading", { name: home })).toBeVisible();
  release();
  await expect(page.getByRole("heading", { name: news })).toBeVisible();
  await expect(page).toHaveURL(/\/news$/);
  const seen = await page.evaluate(() => (window as unknown as { headings: string[] }).headings);
  expect(seen.filter((text) => text !== home)).toEqual([news]);
});
