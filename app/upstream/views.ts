/**
 * View models: what the screens and components read (camelCase), mapped from the upstream's wire
 * shapes (the contract's PascalCase types) here and nowhere else. Pure and safe in the browser:
 * loaders map what they fetch, and live pushes are mapped with the same functions.
 */
import type { Candle, Category, Instrument, Quotation } from "@contract/api/market";
import type { ForexDetail, Order } from "@contract/api/trading";
import type { DayMarketItem, ForexTradePush, KlineItem } from "@contract/ws";
import { MARKET_STATUS, ORDER_TYPE } from "@contract/enums";
import { usdRate, floatArith } from "@contract/formulas";

const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));

/** The day's quote of an instrument. */
export interface QuoteView {
  open: number;
  close: number;
  high: number;
  low: number;
  volume: number;
  /** Percent against the open. */
  change: number;
  /** Time of the last tick, ms. */
  time: number;
}

export interface InstrumentView {
  id: number;
  code: string;
  showCode: string;
  /** Browser path of the logo (proxied), or null. */
  logo: string | null;
  categoryId: number;
  marketOpen: boolean;
  /** Price decimals. */
  precision: number;
  /** Lot step. */
  lotStep: number;
  minLots: number;
  unitsPerLot: number;
  /** MARGIN_MODE: 1 fixed, otherwise leverage based. */
  marginMode: number;
  /** Leverage options; empty means orders are refused. */
  leverages: number[];
  feeRate: number;
  quoteCurrency: string;
  quote: QuoteView;
}

/** An order or position. */
export interface OrderView {
  id: number;
  forexId: number | null;
  /** The instrument's label. */
  code: string;
  side: "buy" | "sell";
  /** ORDER_STATUS: 0 pending, 1 holding, 3 closed, 4 cancelled. */
  status: number;
  lots: number;
  /** The quote at submit (market) or the target price (pending). */
  originPrice: number;
  /** Fill price; 0 while pending. */
  openPrice: number;
  /** Current price while pending or open, the close price once closed. */
  price: number;
  /** Floating profit while open, realised once closed. */
  profit: number;
  /** 0 = not set. */
  stopLoss: number;
  /** 0 = not set. */
  takeProfit: number;
  margin: number;
  fee: number;
  leverage: number | null;
  /** Trailing stop, its activation and break-even as price distances; 0 = not set. */
  trailing: number;
  trailingActivation: number;
  breakEven: number;
  /** A pending order's expiry, "YYYY-MM-DD HH:mm:ss" UTC; null = until cancelled. */
  expiresAt: string | null;
  /** A part closed from an open position: that position's id. */
  parentId: number | null;
  /** "YYYY-MM-DD HH:mm:ss" UTC. */
  createdAt: string;
  closedAt: string | null;
}

/** Account figures of the summary card (null: not known). */
export interface AccountView {
  balance: number | null;
  equity: number | null;
  usedMargin: number | null;
  freeMargin: number | null;
  /** Margin level in percent, null while no position is open. */
  marginLevel: number | null;
  /** Total floating profit. */
  profit: number | null;
  marginCall?: boolean;
}

/** A position's live figures from FOREX_TRADE. */
export interface LiveRow {
  price: number;
  profit: number;
  /** The stop loss now, when the back end sends it (a trailing stop moves it). */
  stopLoss?: number;
}

/** A chart candle. */
export interface CandleView {
  /** Start, ms UTC. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

interface CategoryView {
  id: number;
  name: string;
}

/** Browser path of an instrument logo: the upstream's /static/logos/X is proxied at /media/logos/X. */
export function logoPath(logo: string | null | undefined): string | null {
  if (!logo) return null;
  const file = logo.split("?")[0].split("/").pop() ?? "";
  return /^[A-Za-z0-9._-]+\.(svg|png|jpe?g|webp|gif)$/i.test(file) ? `/media/logos/${file}` : null;
}

function quoteView(q: Partial<Quotation> | null | undefined): QuoteView {
  return {
    open: num(q?.Open),
    close: num(q?.Close),
    high: num(q?.High),
    low: num(q?.Low),
    volume: num(q?.Volume),
    change: num(q?.Change),
    time: num(q?.Time),
  };
}

export function instrumentView(i: Instrument): InstrumentView {
  return {
    id: i.Id,
    code: i.Code,
    showCode: i.ShowCode,
    logo: logoPath(i.Logo),
    categoryId: i.CategoryId,
    marketOpen: i.MarketStatus === MARKET_STATUS.OPEN,
    precision: i.PricePrecision,
    lotStep: i.Pip,
    minLots: i.ForexMinCont,
    unitsPerLot: i.ForexContNum,
    marginMode: i.MarginMode,
    leverages: (i.HasForexMultiple ?? []).map((m) => Number(m.Value)).filter((v) => v > 0),
    feeRate: i.ForexFeeRate,
    quoteCurrency: i.QuoteCurrency ?? "USD",
    quote: quoteView(i.ForexQuotations),
  };
}

/** A DAY_MARKET item's changes to an instrument: its quote and whether its market is open. */
export interface LiveQuote {
  id: number;
  code: string;
  quote: QuoteView;
  marketOpen: boolean;
}

function liveQuote(item: DayMarketItem): LiveQuote {
  return {
    id: item.Id,
    code: item.Code,
    quote: quoteView(item),
    marketOpen: item.MarketStatus === MARKET_STATUS.OPEN,
  };
}

/** The DAY_MARKET items of a push that are well formed. */
export function liveQuotes(payload: unknown): LiveQuote[] {
  if (!Array.isArray(payload)) return [];
  return (payload as DayMarketItem[])
    .filter((q) => q && typeof q.Id === "number" && Number.isFinite(q.Close))
    .map(liveQuote);
}

export function orderView(o: Order): OrderView {
  const lists = o.ForexTradeLists as Partial<Order["ForexTradeLists"]> | null | undefined;
  const extra = o as Order & { ForexId?: number; forex_id?: number; Code?: string };
  const fid = extra.ForexId ?? lists?.Id ?? extra.forex_id;
  return {
    id: o.Id,
    forexId: fid === undefined || fid === null ? null : Number(fid),
    code: lists?.ShowCode || lists?.Code || extra.Code || "",
    side: o.OrderType === ORDER_TYPE.BUY ? "buy" : "sell",
    status: num(o.Status),
    lots: num(o.Quantity),
    originPrice: num(o.OriginPrice),
    openPrice: num(o.Price),
    price: num(o.UpdatePrice),
    profit: num(o.FactProfits),
    stopLoss: num(o.TargetLossPrice ?? 0),
    takeProfit: num(o.TargetProfitPrice ?? 0),
    margin: num(o.CautionMoney),
    fee: num(o.TradeFee),
    leverage: o.Multiple === undefined || o.Multiple === null ? null : num(o.Multiple),
    trailing: num(o.TrailingDistance ?? 0),
    trailingActivation: num(o.TrailingActivation ?? 0),
    breakEven: num(o.BreakEven ?? 0),
    expiresAt: o.ExpiresAt ?? null,
    parentId: o.ParentId ?? null,
    createdAt: o.CreateTimeHandler ?? "",
    closedAt: o.ClosedAt ?? null,
  };
}

export function accountView(d: ForexDetail | null): AccountView {
  if (!d)
    return {
      balance: null,
      equity: null,
      usedMargin: null,
      freeMargin: null,
      marginLevel: null,
      profit: null,
    };
  return {
    balance: num(d.balance),
    equity: num(d.total),
    usedMargin: num(d.all_caution_money),
    freeMargin: num(d.can_use),
    marginLevel: d.HazardRate === null || d.HazardRate === undefined ? null : num(d.HazardRate),
    // total floating profit = equity - balance (the same as the holding list's all_fact_profits)
    profit: Number((num(d.total) - num(d.balance)).toFixed(6)),
  };
}

/** The account figures a FOREX_TRADE push carries (only those). */
export function liveAccount(p: Partial<ForexTradePush>): Partial<AccountView> {
  return {
    ...(typeof p.Balance === "number" ? { balance: p.Balance } : {}),
    ...(typeof p.Total === "number" ? { equity: p.Total } : {}),
    ...(typeof p.CautionMoneyAll === "number" ? { usedMargin: p.CautionMoneyAll } : {}),
    ...(typeof p.CanUse === "number" ? { freeMargin: p.CanUse } : {}),
    ...("HazardRate" in p ? { marginLevel: p.HazardRate ?? null } : {}),
    ...(typeof p.ProfitsTotal === "number" ? { profit: p.ProfitsTotal } : {}),
    marginCall: Boolean(p.MarginCall),
  };
}

/** The live rows after a FOREX_TRADE push: each pushed position's current price and profit. */
export function mergeLiveRows(
  prev: Record<number, LiveRow>,
  pushed: ForexTradePush["TransOrder"],
): Record<number, LiveRow> {
  const next = { ...prev };
  for (const r of pushed)
    next[r.Id] = {
      price: r.UpdatePrice,
      profit: r.FactProfits,
      ...(typeof r.TargetLossPrice === "number" ? { stopLoss: r.TargetLossPrice } : {}),
    };
  return next;
}

export function candleView(c: Candle | KlineItem): CandleView {
  return { time: c.Time, open: c.Open, high: c.High, low: c.Low, close: c.Close, volume: c.Volume };
}

export function categoryView(c: Category): CategoryView {
  return { id: c.Id, name: c.NameShowTrans };
}

/**
 * USD per unit of an instrument's quote currency, from the quotes of every instrument (the
 * contract's rule: {CCY}USD, else 1 / USD{CCY}); null when it cannot be valued.
 */
export function usdRateOf(quoteCurrency: string, closes: Record<string, number>): number | null {
  return usdRate(floatArith, quoteCurrency, (code) => {
    const v = closes[code.toUpperCase()];
    return typeof v === "number" && v > 0 ? v : null;
  });
}

/** The forming candle of a period in a KLINE.{code} push, or null. */
export function liveCandle(payload: unknown, period: string): CandleView | null {
  if (!Array.isArray(payload)) return null;
  const c = (payload as KlineItem[]).find((k) => k && k.period === period);
  return c && Number.isFinite(c.Close) ? candleView(c) : null;
}
