/**
 * Expected money figures for the end-to-end specs: the formulas of contract/formulas.ts over exact
 * decimals (decimal.js, 40 significant digits, half-even, as the upstream books them), each booked
 * amount rounded once to micro-USD, then formatted by the app's own display module. The inputs are
 * an order's own figures as the screen shows them (lots, leverage, open and close prices) and the
 * instrument's contract and fee setting as the upstream publishes them. The tests never assume a
 * price (the market moves when a spec ticks it, and specs run side by side): they read the fill
 * prices of each order.
 */
import DecimalJs from "decimal.js";
import type { Locator, Page } from "@playwright/test";
import {
  equity as equityOf,
  freeMargin as freeMarginOf,
  openCost,
  profitUsd,
  units,
  usdRate,
  type Arith,
} from "../../contract/formulas";
import { ORDER_TYPE } from "../../contract/enums";
import {
  formatBalance,
  formatFee,
  formatMargin,
  formatPercent,
  formatPrice,
  formatProfit,
} from "../../app/utils/format";
import { expect, num, UPSTREAM_URL } from "./fixtures";
import { web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

export const D = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_EVEN });
export type D = InstanceType<typeof D>;

export const decimalArith: Arith<D> = {
  of: (x) => new D(x),
  add: (a, b) => a.plus(b),
  sub: (a, b) => a.minus(b),
  mul: (a, b) => a.mul(b),
  div: (a, b) => a.div(b),
  cmp: (a, b) => a.cmp(b),
};
const A = decimalArith;

/** A booked amount: rounded once to micro-USD, half-even (the ledger's unit). */
export function micro(x: D): D {
  return x.toDecimalPlaces(6, D.ROUND_HALF_EVEN);
}

/** What the money formulas need of an instrument, from the upstream's public trade_list and settings. */
export interface Contract {
  id: number;
  code: string;
  showCode: string;
  precision: number;
  contNum: string;
  feeRate: string;
  marginMode: number;
  quoteCurrency: string;
  feeType: number;
}

interface Envelope<T> {
  code: number;
  data: T;
}

export async function contractOf(code: string): Promise<Contract> {
  const list = (await (
    await fetch(`${UPSTREAM_URL}/v1/api/forex/trade_list`, { headers: { lang: "en" } })
  ).json()) as Envelope<
    {
      Id: number;
      Code: string;
      ShowCode: string;
      PricePrecision: number;
      ForexContNum: number;
      ForexFeeRate: number;
      MarginMode: number;
      QuoteCurrency: string;
    }[]
  >;
  const inst = list.data.find((i) => i.Code === code);
  if (!inst) throw new Error(`no instrument ${code} in trade_list`);
  const basic = (await (
    await fetch(`${UPSTREAM_URL}/api/basicSet/getBasicInfo`, { headers: { lang: "en" } })
  ).json()) as Envelope<{ trade_fee_type: number }>;
  return {
    id: inst.Id,
    code,
    showCode: inst.ShowCode,
    precision: inst.PricePrecision,
    contNum: String(inst.ForexContNum),
    feeRate: String(inst.ForexFeeRate),
    marginMode: inst.MarginMode,
    quoteCurrency: inst.QuoteCurrency,
    feeType: Number(basic.data.trade_fee_type),
  };
}

/**
 * USD per unit of the quote currency at a moment when the instrument itself trades at `price`:
 * the tests use USD-quoted instruments and USDxxx pairs, whose own price is the rate's source.
 */
export function rateAt(c: Contract, price: D): D {
  const rate = usdRate(A, c.quoteCurrency, (code) => (code === c.code ? price : null));
  if (rate === null) throw new Error(`no USD rate for ${c.quoteCurrency} from ${c.code} alone`);
  return rate;
}

export type Side = "buy" | "sell";

/** One order's figures as its detail dialog shows them (texts), with the parsed inputs. */
export interface Shown {
  id: number;
  side: Side;
  lots: D;
  leverage: number;
  open: D;
  /** Current price (holding) or close price (history). */
  price: D;
  texts: Record<"open" | "price" | "profit" | "margin" | "fee", string>;
}

/** Margin and fee of opening `o`, booked (micro-USD). */
export function openFigures(c: Contract, o: Pick<Shown, "lots" | "leverage" | "open">) {
  const { margin, fee } = openCost(A, {
    lots: o.lots,
    inst: { contNum: A.of(c.contNum), marginMode: c.marginMode, feeRate: A.of(c.feeRate) },
    price: o.open,
    leverage: o.leverage,
    feeType: c.feeType,
    usdRate: rateAt(c, o.open),
  });
  return { margin: micro(margin), fee: micro(fee) };
}

/** Profit of `o` at `price` (floating, or realised when `price` is the close price), micro-USD. */
export function profitAt(c: Contract, o: Pick<Shown, "side" | "lots" | "open">, price: D): D {
  return micro(
    profitUsd(
      A,
      o.side === "buy" ? ORDER_TYPE.BUY : ORDER_TYPE.SELL,
      o.open,
      price,
      units(A, o.lots, A.of(c.contNum)),
      rateAt(c, price),
    ),
  );
}

/** The dt/dd pairs of the open detail dialog, by English label. */
async function detailPairs(detail: Locator): Promise<Record<string, string>> {
  const pairs = await detail
    .locator("dl.detail-grid > div")
    .evaluateAll((els) =>
      els.map((e) => [
        e.querySelector("dt")?.textContent ?? "",
        (e.querySelector("dd") as HTMLElement | null)?.innerText ?? "",
      ]),
    );
  return Object.fromEntries(pairs.map(([k, v]) => [k.trim(), v.trim()]));
}

/** Opens /order?status=TAB&detail=ID and reads the order's figures from its detail dialog. */
export async function readOrder(page: Page, tab: 1 | 3, id: number): Promise<Shown> {
  await page.goto(`/order?status=${tab}&detail=${id}`);
  const detail = page.getByTestId("order-detail");
  await expect(detail).toHaveAttribute("data-order-id", String(id));
  const title = await detail.locator("#order-detail-title").innerText();
  const side: Side = title.includes(EN("trade:buy")) ? "buy" : "sell";
  const p = await detailPairs(detail);
  const text = (key: string) => {
    const v = p[EN(key)];
    if (v === undefined)
      throw new Error(`no "${EN(key)}" in the detail of ${id}: ${JSON.stringify(p)}`);
    return v;
  };
  const priceKey = tab === 3 ? "order:detail.close_price" : "order:detail.current_price";
  const profitKey = tab === 3 ? "order:detail.realised_profit" : "order:detail.floating_profit";
  const texts = {
    open: text("order:detail.open_price"),
    price: text(priceKey),
    profit: text(profitKey),
    margin: text("order:detail.margin"),
    fee: text("order:detail.fee"),
  };
  const plain = (s: string) => new D(String(num(s)));
  return {
    id,
    side,
    lots: plain(text("order:detail.lots")),
    leverage: num(text("order:detail.leverage").split(":").pop() ?? ""),
    open: plain(texts.open),
    price: plain(texts.price),
    texts,
  };
}

/** The booked figures of an order's detail equal the formulas over its own prices. */
export function expectOrderFigures(c: Contract, o: Shown, tab: 1 | 3): void {
  const { margin, fee } = openFigures(c, o);
  expect(o.texts.margin, `margin of ${o.id}`).toBe(formatMargin(margin.toNumber(), "en"));
  expect(o.texts.fee, `fee of ${o.id}`).toBe(formatFee(fee.toNumber(), "en"));
  expect(o.texts.open).toBe(formatPrice(o.open.toNumber(), c.precision, "en"));
  expect(o.texts.profit, `${tab === 3 ? "realised" : "floating"} profit of ${o.id}`).toBe(
    formatProfit(profitAt(c, o, o.price).toNumber(), "en"),
  );
}

/** The account figures of /order's summary card, as shown. */
export async function readSummary(page: Page): Promise<Record<string, string>> {
  const card = page.getByTestId("summary-card");
  await expect(card).toBeVisible();
  const keys = ["balance", "equity", "margin", "free-margin", "margin-level", "profit"];
  const out: Record<string, string> = {};
  for (const k of keys) out[k] = (await card.getByTestId(`summary-${k}`).innerText()).trim();
  return out;
}

/** The summary card's texts of an account with no open position and this balance. */
export function flatSummary(balance: D): Record<string, string> {
  const b = formatBalance(balance.toNumber(), "en");
  return {
    balance: b,
    equity: b,
    margin: formatBalance(0, "en"),
    "free-margin": b,
    "margin-level": formatPercent(null, "en"),
    profit: formatProfit(0, "en"),
  };
}

/**
 * The summary card's expected figures while `open` positions are held at the prices shown now in
 * their rows (`prices`, by order id): balance and used margin exactly; equity, free margin, margin
 * level and total profit from the floating profits at those prices.
 */
export function openSummary(
  c: Contract,
  balance: D,
  open: Shown[],
  prices: Record<number, D>,
): Record<string, string> {
  let used = new D(0);
  let floating = new D(0);
  for (const o of open) {
    used = used.plus(openFigures(c, o).margin);
    floating = floating.plus(profitAt(c, o, prices[o.id]));
  }
  const eq = equityOf(A, balance, floating);
  const free = freeMarginOf(A, eq, used);
  const level = eq.div(used).mul(100).toDecimalPlaces(2, D.ROUND_HALF_EVEN);
  return {
    balance: formatBalance(balance.toNumber(), "en"),
    equity: formatBalance(eq.toNumber(), "en"),
    margin: formatBalance(used.toNumber(), "en"),
    "free-margin": formatBalance(free.toNumber(), "en"),
    "margin-level": formatPercent(level.toNumber(), "en"),
    profit: formatProfit(floating.toNumber(), "en"),
  };
}

/** The current price of each listed row of /order (Holding), by order id. */
export async function rowPrices(page: Page): Promise<Record<number, D>> {
  const rows = await page
    .getByTestId("order-row")
    .evaluateAll((els) =>
      els.map((e) => [
        Number(e.getAttribute("data-order-id")),
        (e.querySelector('[data-testid="order-price"]') as HTMLElement | null)?.innerText ?? "",
      ]),
    );
  return Object.fromEntries(rows.map(([id, p]) => [id, new D(String(num(String(p))))]));
}
