/**
 * Choosing a provider safely, with JavaScript on and off (decision 0040): the ranking's sort links
 * and filter form (plain links and a GET form), each provider's risk score, the favourite star
 * kept on the server and the "Favourites only" filter; the risk disclosure on /trade and /order
 * and the negative balance protection notice it links to.
 */
import type { Page } from "@playwright/test";
import { test, expect, newSignedInUser } from "./fixtures";
import { EN } from "./console";

/** The copy-trading view lists every provider at once (the ranking waits for closed positions). */
const COPY_VIEW = "/rank?view=copy";

/** The numbers of a column of the shown list (`data-value` of each row's cell). */
async function column(page: Page, testId: string): Promise<number[]> {
  const values = await page
    .getByTestId(testId)
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-value") ?? ""));
  return values.map(Number);
}

/** Each row's risk score (Infinity before the first daily computation). */
async function scores(page: Page): Promise<number[]> {
  const values = await page
    .getByTestId("trader")
    .getByTestId("risk-score")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-score") ?? ""));
  return values.map((v) => (v === "" ? Infinity : Number(v)));
}

const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] <= x);
const descending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] >= x);

test("the ranking sorts by plain links: copiers, drawdown, risk and 12-month return", async ({
  page,
}) => {
  await page.goto(COPY_VIEW);
  await expect(page.getByTestId("trader").first()).toBeVisible();
  const sorts: [string, () => Promise<boolean>][] = [
    ["copiers", async () => descending(await column(page, "copiers"))],
    ["drawdown", async () => ascending(await column(page, "drawdown"))],
    ["risk", async () => ascending(await scores(page))],
    ["return_12m", async () => descending(await column(page, "return-12m"))],
  ];
  for (const [sort, ordered] of sorts) {
    const link = page.getByTestId("rank-sorts").locator(`a[data-sort="${sort}"]`);
    await expect(link).toHaveText(EN(`risk:sort.${sort}`));
    await link.click();
    await expect(page).toHaveURL(new RegExp(`[?&]sort=${sort}(&|$)`));
    // The link of the sort shown is marked; the view is kept.
    await expect(link).toHaveAttribute("aria-current", "true");
    await expect(page).toHaveURL(/view=copy/);
    await expect.poll(ordered).toBe(true);
  }
});

test("the filter form keeps providers at or below a risk score, and a long history leaves none", async ({
  page,
}) => {
  await page.goto(COPY_VIEW);
  await expect(page.getByTestId("trader").first()).toBeVisible();
  await page.getByText(EN("risk:filter_title"), { exact: true }).click();
  await page.getByLabel(EN("risk:max_risk")).selectOption("3");
  await page.getByTestId("rank-apply").click();
  await expect(page).toHaveURL(/[?&]max_risk=3(&|$)/);
  await expect
    .poll(async () => {
      const shown = await scores(page);
      const empty = await page.getByTestId("rank-empty").count();
      return empty > 0 || (shown.length > 0 && shown.every((s) => s <= 3));
    })
    .toBe(true);

  // Every provider of the e2e server began minutes ago: none has 12 months of history.
  await page.goto(`${COPY_VIEW}&min_months=12`);
  await expect(page.getByTestId("rank-empty")).toHaveText(EN("risk:empty_filtered"));
  await expect(page.getByLabel(EN("risk:min_months"))).toHaveValue("12");
});

test("a signed-in user stars a provider, finds it under Favourites only, and takes the star away", async ({
  page,
}, info) => {
  await newSignedInUser(page, info);
  await page.goto(COPY_VIEW);
  const first = page.getByTestId("trader").first();
  await expect(first).toBeVisible();
  const name = (await first.getAttribute("data-name"))!;
  const id = (await first.getAttribute("data-id"))!;
  const star = first.getByTestId("star");
  await expect(star).toHaveAttribute("aria-pressed", "false");
  await expect(star).toHaveAccessibleName(EN("risk:star_add", { name }));
  await star.click();
  await expect(
    page.locator(`[data-testid="trader"][data-id="${id}"] [data-testid="star"]`),
  ).toHaveAttribute("aria-pressed", "true");

  await page.goto(`${COPY_VIEW}&favourites=1`);
  await expect(page.getByTestId("trader")).toHaveCount(1);
  await expect(page.getByTestId("trader")).toHaveAttribute("data-id", id);
  await expect(page.getByLabel(EN("risk:favourites_only"))).toBeChecked();

  // Taken away on the filtered page: the list it comes back to is empty.
  await page.getByTestId("trader").getByTestId("star").click();
  await expect(page.getByTestId("rank-empty")).toHaveText(EN("risk:empty_filtered"));
  await expect(page).toHaveURL(/favourites=1/);
});

test("the trade and order screens show the risk disclosure, linked to the protection notice", async ({
  page,
}, info) => {
  await newSignedInUser(page, info);
  const disclosed = new RegExp(
    `^(${EN("risk:disclosure_generic").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|\\d+% of retail accounts lose money.*)$`,
  );
  for (const path of ["/trade?code=EURUSD", "/order"]) {
    await page.goto(path);
    const line = page.getByTestId("risk-disclosure");
    await expect(line.locator("p")).toHaveText(disclosed);
    await expect(line.getByTestId("protection-link")).toHaveText(EN("risk:protection_link"));
  }
  await page.goto("/trade?code=EURUSD");
  await page.getByTestId("protection-link").click();
  await expect(page).toHaveURL(/\/protection$/);
  await expect(
    page.getByRole("heading", { level: 1, name: EN("risk:protection_title") }),
  ).toBeVisible();
  await expect(page.getByTestId("protection")).toContainText(EN("risk:protection_p1"));
});
