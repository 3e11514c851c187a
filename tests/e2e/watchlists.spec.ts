/**
 * Watchlists as a person uses them, with JavaScript on and off: the star of a home row adds the
 * instrument to Favourites, which becomes the home screen's first tab (with JavaScript the page
 * does not reload); the trade screen's and the search page's stars add more; taking the last one
 * off brings the home screen back as it was. On /mine/watchlists a named list is made, filled, reordered, renamed,
 * shown as a home tab in its order, refused a blank name, emptied and removed. Each test has its
 * own account, so the two projects never touch each other's lists.
 */
import type { Page } from "@playwright/test";
import { test, expect, jsOn, newSignedInUser, UPSTREAM_URL } from "./fixtures";
import { axeOf } from "./axe";
import { upstream, web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

// axe measures what is painted at that moment: a toast fading in or out is partly transparent
// then, and its contrast below what a person reads. With reduced motion every toast is drawn in
// its final colours at once (as in a11y.spec.ts and copy.spec.ts).
test.use({ reducedMotion: "reduce" });

const UP = (key: string) => upstream("en", "watchlists", key);

interface Instrument {
  Code: string;
  ShowCode: string;
}

async function instruments(): Promise<Instrument[]> {
  const res = await fetch(`${UPSTREAM_URL}/v1/api/forex/trade_list`, { headers: { lang: "en" } });
  return ((await res.json()) as { data: Instrument[] }).data;
}

const rows = (page: Page) => page.locator('ul.qlist a[href^="/trade?code="]');
const chips = (page: Page) => page.getByRole("navigation", { name: EN("common:home.categories") });
/** A success toast with this text (with JavaScript, earlier toasts may still be shown). */
const told = (page: Page, text: string) =>
  expect(page.locator('[data-toast="success"]').filter({ hasText: text }).first()).toBeVisible();

test("a star makes Favourites the home screen's first tab; the last one off brings home back", async ({
  page,
}, info) => {
  test.setTimeout(60_000);
  const all = await instruments();
  const byCode = new Map(all.map((i) => [i.Code, i.ShowCode]));
  await newSignedInUser(page, info);
  await page.goto("/");
  await expect(chips(page).getByRole("link", { name: EN("common:watch.favourites") })).toHaveCount(
    0,
  );
  await expect(rows(page)).toHaveCount(all.length);

  // With JavaScript the star posts in place: the page is not loaded again.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  const star = page.getByRole("button", {
    name: EN("common:star.add", { code: byCode.get("GBPUSD")! }),
  });
  await expect(star).toHaveAttribute("aria-pressed", "false");
  await star.click();
  await told(page, UP("watchlists.favourite_added"));
  const favourites = chips(page).getByRole("link", { name: EN("common:watch.favourites") });
  await expect(favourites).toHaveAttribute("aria-current", "true");
  await expect(page).toHaveURL(/\/$/);
  await expect(rows(page)).toHaveCount(1);
  const starred = page.getByRole("button", {
    name: EN("common:star.remove", { code: byCode.get("GBPUSD")! }),
  });
  await expect(starred).toHaveAttribute("aria-pressed", "true");
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(
    jsOn(info) ? true : undefined,
  );
  // Favourites comes first among the tabs, before "All".
  await expect(chips(page).getByRole("link").first()).toHaveText(EN("common:watch.favourites"));

  // The trade screen's star adds the instrument shown; the home tab lists both, in that order.
  await page.goto("/trade?code=EURUSD");
  await page
    .getByRole("button", { name: EN("common:star.add", { code: byCode.get("EURUSD")! }) })
    .click();
  await told(page, UP("watchlists.favourite_added"));
  await expect(
    page.getByRole("button", { name: EN("common:star.remove", { code: byCode.get("EURUSD")! }) }),
  ).toHaveAttribute("aria-pressed", "true");
  // Each row of its instrument picker has a star too: on and off again, back on the trade screen.
  const picker = page.getByTestId("instrument-picker");
  await picker.locator("summary").click();
  const cad = byCode.get("USDCAD")!;
  await picker.getByRole("button", { name: EN("common:star.add", { code: cad }) }).click();
  await told(page, UP("watchlists.favourite_added"));
  await expect(page).toHaveURL(/\/trade\?code=EURUSD/);
  if (!(await picker.evaluate((d) => (d as HTMLDetailsElement).open)))
    await picker.locator("summary").click();
  await picker.getByRole("button", { name: EN("common:star.remove", { code: cad }) }).click();
  await told(page, UP("watchlists.favourite_removed"));
  // So does the search page's, which comes back to the search.
  await page.goto("/product?searchCurrency=USDJPY");
  await page
    .getByRole("button", { name: EN("common:star.add", { code: byCode.get("USDJPY")! }) })
    .click();
  await told(page, UP("watchlists.favourite_added"));
  await expect(page).toHaveURL(/\/product\?searchCurrency=USDJPY$/);
  await expect(
    page.getByRole("button", { name: EN("common:star.remove", { code: byCode.get("USDJPY")! }) }),
  ).toHaveAttribute("aria-pressed", "true");
  await page.goto("/");
  await expect(rows(page)).toHaveCount(3);
  // The list shown after a client-side navigation: polled, as the old list stays until it lands.
  await expect
    .poll(() => rows(page).evaluateAll((as) => as.map((a) => a.getAttribute("href"))))
    .toEqual(["/trade?code=GBPUSD", "/trade?code=EURUSD", "/trade?code=USDJPY"]);

  // "All" is still one tap away.
  await chips(page)
    .getByRole("link", { name: EN("common:home.all"), exact: true })
    .click();
  await expect(page).toHaveURL(/\?list=all$/);
  await expect(rows(page)).toHaveCount(all.length);

  if (jsOn(info)) {
    // The screen as it is now (a starred row, the Favourites tab) passes axe.
    const { violations } = await axeOf(page).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
  }

  // Taking them all off: the home screen is as it was.
  await page.goto("/");
  for (const code of ["GBPUSD", "EURUSD", "USDJPY"]) {
    await page
      .getByRole("button", { name: EN("common:star.remove", { code: byCode.get(code)! }) })
      .click();
    await told(page, UP("watchlists.favourite_removed"));
  }
  await expect(favourites).toHaveCount(0);
  await expect(rows(page)).toHaveCount(all.length);
});

test("a named list is made, filled, reordered, renamed, shown on home and removed", async ({
  page,
}, info) => {
  test.setTimeout(60_000);
  const byCode = new Map((await instruments()).map((i) => [i.Code, i.ShowCode]));
  await newSignedInUser(page, info);
  await page.goto("/user");
  await page.getByRole("link", { name: EN("common:user.entry.watchlists") }).click();
  await expect(page).toHaveURL(/\/mine\/watchlists$/);
  await expect(page.getByText(EN("watchlists:none"))).toBeVisible();

  const create = page.locator("#watchlist-create");
  // A blank name is refused before anything is made.
  await create.getByLabel(EN("watchlists:name")).fill("   ");
  await create.getByRole("button", { name: EN("watchlists:create") }).click();
  await expect(create.getByText(EN("watchlists:name_required"))).toBeVisible();
  await create.getByLabel(EN("watchlists:name")).fill("Metals");
  await create.getByRole("button", { name: EN("watchlists:create") }).click();
  await told(page, UP("watchlists.created"));
  const card = page.getByRole("region", { name: "Metals" });
  await expect(card).toBeVisible();

  for (const code of ["XAUUSD", "XAGUSD", "XPTUSD"]) {
    await card.getByLabel(EN("watchlists:add_label", { list: "Metals" })).selectOption(code);
    await card.getByRole("button", { name: EN("watchlists:add_to", { list: "Metals" }) }).click();
    await expect(card.locator(`[data-testid="watch-item"][data-code="${code}"]`)).toHaveCount(1);
  }
  const order = () =>
    card
      .getByTestId("watch-item")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-code")));
  await expect.poll(order).toEqual(["XAUUSD", "XAGUSD", "XPTUSD"]);
  const item = (code: string) => card.locator(`[data-testid="watch-item"][data-code="${code}"]`);
  await item("XPTUSD").getByRole("button").first().click();
  await expect.poll(order).toEqual(["XAUUSD", "XPTUSD", "XAGUSD"]);
  await item("XAUUSD").getByRole("button").nth(1).click();
  await expect.poll(order).toEqual(["XPTUSD", "XAUUSD", "XAGUSD"]);

  // A second list, moved above the first.
  await create.getByLabel(EN("watchlists:name")).fill("Energy");
  await create.getByRole("button", { name: EN("watchlists:create") }).click();
  const energy = page.getByRole("region", { name: "Energy" });
  await energy.getByLabel(EN("watchlists:add_label", { list: "Energy" })).selectOption("USOIL");
  await energy.getByRole("button", { name: EN("watchlists:add_to", { list: "Energy" }) }).click();
  await expect(energy.getByTestId("watch-item")).toHaveCount(1);
  await energy.getByRole("button", { name: EN("watchlists:list_up", { name: "Energy" }) }).click();
  await expect
    .poll(() =>
      page.getByTestId("watchlist").evaluateAll((els) => els.map((e) => e.getAttribute("id"))),
    )
    .toHaveLength(2);
  const names = () => page.locator('[data-testid="watchlist"] h2').allTextContents();
  await expect.poll(names).toEqual(["Energy", "Metals"]);

  // Renamed: a blank name is refused with its message, a real one kept.
  await card.getByText(EN("watchlists:edit", { name: "Metals" })).click();
  await card.getByLabel(EN("watchlists:new_name")).fill("  ");
  await card.getByRole("button", { name: EN("watchlists:rename") }).click();
  await expect(page.getByText(EN("watchlists:name_required"))).toBeVisible();
  const metals = page.getByRole("region", { name: "Metals" });
  // Without JavaScript the page came again with the disclosure closed; with it, it stayed open.
  if (!(await metals.getByLabel(EN("watchlists:new_name")).isVisible()))
    await metals.getByText(EN("watchlists:edit", { name: "Metals" })).click();
  await metals.getByLabel(EN("watchlists:new_name")).fill("Precious");
  await metals.getByRole("button", { name: EN("watchlists:rename") }).click();
  await told(page, UP("watchlists.renamed"));
  const precious = page.getByRole("region", { name: "Precious" });
  await expect(precious).toBeVisible();

  if (jsOn(info)) {
    const { violations } = await axeOf(page).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
  }

  // On home, a tab of its own, in the list's order (no Favourites yet: "All" stays first).
  await page.goto("/");
  await expect(chips(page).getByRole("link").first()).toHaveText(EN("common:home.all"));
  await chips(page).getByRole("link", { name: "Precious" }).click();
  await expect(page).toHaveURL(/\?list=\d+$/);
  // The list shown after a client-side navigation: polled, as the old list stays until it lands.
  await expect
    .poll(() => rows(page).evaluateAll((as) => as.map((a) => a.getAttribute("href"))))
    .toEqual(["/trade?code=XPTUSD", "/trade?code=XAUUSD", "/trade?code=XAGUSD"]);

  // Emptied and removed.
  await page.goto("/mine/watchlists");
  await precious
    .locator('[data-testid="watch-item"][data-code="XAGUSD"]')
    .getByRole("button", {
      name: EN("watchlists:item_remove", { code: byCode.get("XAGUSD")!, list: "Precious" }),
    })
    .click();
  await told(page, UP("watchlists.item_removed"));
  await expect(precious.getByTestId("watch-item")).toHaveCount(2);
  await precious.getByText(EN("watchlists:edit", { name: "Precious" })).click();
  await precious
    .getByRole("button", { name: EN("watchlists:delete", { name: "Precious" }) })
    .click();
  await told(page, UP("watchlists.deleted"));
  await expect(page.getByTestId("watchlist")).toHaveCount(1);
});
