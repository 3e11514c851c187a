/**
 * The money a person sees, end to end, with and without JavaScript: after opening a buy and a sell
 * and after both are closed, every figure on /order (each order's margin, fee, floating and realised
 * profit; the summary's balance, equity, used margin, free margin and margin level), on /trade (the
 * order form's balance) and on /user (the card's balance) equals contract/formulas.ts over exact
 * decimals, fed with the orders' own fill prices and the instrument's contract (money.ts).
 *
 * The market is the e2e server's hand-driven one (MARKET_FEED=manual), and no price is assumed: the
 * figures come from the prices the screens show. To cover a profit and a loss, both positions get
 * the same bracket [L, H] of take-profit and stop-loss around their open prices, and the test ticks
 * the market one step above H: that tick closes both at one price beyond both open prices, so the
 * buy and the sell end on opposite sides of zero. EURUSD is quoted in USD; USDJPY in JPY, whose
 * USD rate is 1 / the USDJPY price at that moment.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect, jsOn, demoByForm, UPSTREAM_URL } from "./fixtures";
import { web } from "./texts";
import { setPrice } from "./operator";
import { formatBalance, formatProfit } from "../../app/utils/format";
import {
  D,
  contractOf,
  expectOrderFigures,
  flatSummary,
  openFigures,
  openSummary,
  profitAt,
  readOrder,
  readSummary,
  rowPrices,
  type Contract,
  type Shown,
  type Side,
} from "./money";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

/** The demo account's starting balance (demo.initial_balance). */
const START = new D(10000);

/** Places a market order of the default size from /trade and stays on the trade screen. */
async function place(page: Page, code: string, side: Side): Promise<void> {
  const form = page.getByTestId("order-form");
  await form
    .getByRole("button", { name: EN(side === "buy" ? "trade:form.buy" : "trade:form.sell") })
    .click();
  const success = page.getByTestId("order-success");
  await expect(success).toBeVisible();
  await success.getByText(EN("trade:success.continue"), { exact: true }).click();
  await expect(page.getByTestId("order-success")).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/trade\\?code=${code}$`));
}

/**
 * The last price of an instrument: the close of its forming one-minute candle, which the upstream
 * serves from memory (trade_list's quote is the stored one, written every few seconds).
 */
async function lastPrice(c: Contract): Promise<D> {
  const res = await fetch(`${UPSTREAM_URL}/v1/api/forex/kline?forex_id=${c.id}&period=1min`);
  const body = (await res.json()) as { data: { Close: number }[] };
  const last = body.data.at(-1);
  if (!last) throw new Error(`no candle of ${c.code}`);
  return new D(String(last.Close));
}

/** The balance of /user's card, /trade's order form and /order's summary are all `balance`. */
async function expectBalanceEverywhere(page: Page, code: string, balance: D): Promise<void> {
  const text = formatBalance(balance.toNumber(), "en");
  await page.goto("/user");
  await expect(page.getByTestId("user-balance")).toHaveText(text);
  await page.goto(`/trade?code=${code}`);
  await expect(page.getByTestId("order-balance")).toHaveText(text);
}

/**
 * Waits (bounded) until /order's summary card shows the figures of `open` at the prices shown in
 * their rows at the same moment. Without JavaScript each look is a fresh page; with it, the live
 * pushes move prices and figures together.
 */
async function expectOpenSummary(
  page: Page,
  c: Contract,
  balance: D,
  open: Shown[],
  js: boolean,
): Promise<void> {
  await page.goto("/order?status=1");
  await expect(page.getByTestId("order-row")).toHaveCount(open.length);
  let last = "";
  await expect
    .poll(
      async () => {
        if (!js) await page.reload();
        const prices = await rowPrices(page);
        const shown = await readSummary(page);
        const expected = openSummary(c, balance, open, prices);
        const same = JSON.stringify(shown) === JSON.stringify(expected);
        last = same ? "" : JSON.stringify({ shown, expected });
        return last;
      },
      { timeout: 20_000, intervals: [250, 500, 1000] },
    )
    .toBe("");
  expect(last).toBe("");
}

/**
 * Gives both positions the take-profit / stop-loss bracket [L, H] (L below and H above both open
 * prices and the last price, by `steps` price steps); answers H. The two stop forms are posted
 * together, as two taps would. The market is driven by the tests (MARKET_FEED=manual), so the
 * price read is the price the upstream checks the stops against.
 */
async function bracket(page: Page, c: Contract, orders: Shown[], steps: number): Promise<D> {
  const fields: Record<number, Record<string, string>> = {};
  for (const o of orders) {
    await page.goto(`/order?status=1&detail=${o.id}`);
    const form = page.getByRole("form", { name: EN("order:detail.stop_title") });
    await expect(form).toBeVisible();
    fields[o.id] = Object.fromEntries(
      await form
        .locator('input[type="hidden"]')
        .evaluateAll((els) =>
          els.map((e) => [(e as HTMLInputElement).name, (e as HTMLInputElement).value]),
        ),
    );
  }
  const step = priceStep(c);
  const now = await lastPrice(c);
  const all = [now, ...orders.map((o) => o.open)];
  const low = D.min(...all).minus(step.mul(steps));
  const high = D.max(...all).plus(step.mul(steps));
  const answers = await Promise.all(
    orders.map((o) =>
      page.request.post(`/order?status=1&detail=${o.id}`, {
        form: {
          ...fields[o.id],
          idempotency_key: randomUUID(),
          target_profit_price: (o.side === "buy" ? high : low).toFixed(c.precision),
          stop_loss_price: (o.side === "buy" ? low : high).toFixed(c.precision),
        },
        maxRedirects: 0,
      }),
    ),
  );
  // A saved stop answers with a redirect back to the list; a refusal re-renders the form (200).
  for (const a of answers)
    if (a.status() < 300) throw new Error(`the bracket was refused: ${await a.text()}`);
  return high;
}

/** One price step of the instrument (its last decimal place). */
function priceStep(c: Contract): D {
  return new D(1).div(new D(10).pow(c.precision));
}

for (const code of ["EURUSD", "USDJPY"]) {
  test(`${code}: a buy and a sell, opened and closed, every money figure as the formulas say`, async ({
    page,
  }, info) => {
    // Opening, closing and reading every screen twice.
    test.setTimeout(120_000);
    const js = jsOn(info);
    const c = await contractOf(code);
    await demoByForm(page);
    await page.goto("/user");
    await expect(page.getByTestId("user-balance")).toHaveText(
      formatBalance(START.toNumber(), "en"),
    );

    await page.goto(`/trade?code=${code}`);
    await expect(page.getByTestId("order-form")).toBeVisible();
    await place(page, code, "buy");
    await place(page, code, "sell");

    // Holding: both positions; each detail's margin, fee and floating profit from its own prices.
    await page.goto("/order?status=1");
    const rows = page.getByTestId("order-row");
    await expect(rows).toHaveCount(2);
    const ids = await rows.evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute("data-order-id"))),
    );
    const open: Shown[] = [];
    for (const id of ids) {
      const o = await readOrder(page, 1, id);
      expectOrderFigures(c, o, 1);
      open.push(o);
    }
    expect(open.map((o) => o.side).sort()).toEqual(["buy", "sell"]);

    // The fee is charged when a position opens; the margin is held, not charged.
    const fees = open.reduce((s, o) => s.plus(openFigures(c, o).fee), new D(0));
    const opened = START.minus(fees);
    await expectOpenSummary(page, c, opened, open, js);
    await expectBalanceEverywhere(page, code, opened);

    // The bracket, two price steps beyond the extremes; then the market ticks one step above it:
    // that one tick closes both, the buy at its take-profit and the sell at its stop-loss.
    const high = await bracket(page, c, open, 2);
    await setPrice(code, high.plus(priceStep(c)).toFixed(c.precision));
    await page.goto("/order?status=1");
    await expect(page.getByTestId("order-row")).toHaveCount(0);

    // History: each realised profit from the order's own open and close prices.
    const closed: Shown[] = [];
    for (const id of ids) {
      const o = await readOrder(page, 3, id);
      expectOrderFigures(c, o, 3);
      closed.push(o);
    }
    const [a, b] = closed;
    expect(a.price.eq(b.price), "both closed by the same tick").toBe(true);
    const profits = closed.map((o) => profitAt(c, o, o.price));
    expect(profits.map((p) => D.sign(p)).sort(), "one profit and one loss").toEqual([-1, 1]);
    await page.goto("/order?status=3");
    for (const [i, o] of closed.entries()) {
      await expect(
        page
          .locator(`[data-testid="order-row"][data-order-id="${o.id}"]`)
          .getByTestId("order-profit"),
      ).toHaveText(formatProfit(profits[i].toNumber(), "en"));
    }

    // No position left: balance = start - fees + realised profits, and equity and free margin are it.
    const final = opened.plus(profits[0]).plus(profits[1]);
    await page.goto("/order?status=1");
    expect(await readSummary(page)).toEqual(flatSummary(final));
    await expectBalanceEverywhere(page, code, final);
  });
}
