/** Market calls of the upstream (GET /v1/api/forex/...). */
import { get, type Caller, type UpstreamResult } from "./client.server";
import type { Candle as ChartCandle } from "~/components/trade/candle-geometry";
import type { RowQuote } from "~/components/InstrumentRow";

export interface Quotation {
  Open: number;
  Close: number;
  High: number;
  Low: number;
  Volume: number;
  Change: number;
  Time: number;
}

export interface Instrument {
  Id: number;
  Code: string;
  ShowCode: string;
  Logo: string;
  CategoryId: number;
  MarketStatus: number;
  PricePrecision: number;
  Pip: number;
  ForexMinCont: number;
  ForexContNum: number;
  MarginMode: number;
  HasForexMultiple: { Value: number }[];
  ForexFeeRate: number;
  ForexQuotations: Quotation;
  Api?: unknown;
}

export interface Category {
  Id: number;
  NameShowTrans: string;
}

/** A kline candle as the upstream sends it (one definition, shared with the chart geometry). */
export type Candle = ChartCandle & { Volume: number };

export const PERIODS = ["1min", "5min", "15min", "30min", "60min", "1day"] as const;
export type Period = (typeof PERIODS)[number];

export interface Sparkline {
  forex_id: number;
  period: string;
  points: number[];
}

export function getCategories(c: Caller): Promise<UpstreamResult<Category[]>> {
  return get<Category[]>(c, "/v1/api/forex/getCategories", {}, { init: true });
}

export function tradeList(c: Caller, p: { searchCurrency?: string } = {}): Promise<UpstreamResult<Instrument[]>> {
  return get<Instrument[]>(c, "/v1/api/forex/trade_list", { searchCurrency: p.searchCurrency || undefined }, { init: true });
}

export function kline(c: Caller, p: { forex_id: number; period: Period }): Promise<UpstreamResult<Candle[]>> {
  return get<Candle[]>(c, "/v1/api/forex/kline", p, { init: true });
}

export function abbreviatedCacheKline(
  c: Caller,
  p: { forex_id?: number[] | string; period?: Period } = {},
): Promise<UpstreamResult<Sparkline[]>> {
  const ids = Array.isArray(p.forex_id) ? p.forex_id.join(",") : p.forex_id;
  return get<Sparkline[]>(c, "/v1/api/forex/abbreviated_cache_kline", { forex_id: ids || undefined, period: p.period }, { init: true });
}

/** Browser path of an instrument logo: the upstream's /static/logos/X is proxied at /media/logos/X. */
export function logoPath(logo: string | null | undefined): string | null {
  if (!logo) return null;
  const file = logo.split("?")[0].split("/").pop() ?? "";
  return /^[A-Za-z0-9._-]+\.(svg|png|jpe?g|webp|gif)$/i.test(file) ? `/media/logos/${file}` : null;
}

/** Rows of the home and search lists: each instrument's quote fields plus its sparkline closes. */
export function instrumentRows(instruments: Instrument[], sparks: UpstreamResult<Sparkline[]>) {
  const pointsById = new Map<number, number[]>();
  if (sparks.ok) for (const s of sparks.data) pointsById.set(s.forex_id, s.points);
  return instruments.map((i) => ({
    quote: {
      Id: i.Id,
      Code: i.Code,
      ShowCode: i.ShowCode,
      logo: logoPath(i.Logo),
      PricePrecision: i.PricePrecision,
      MarketStatus: i.MarketStatus,
      Close: i.ForexQuotations?.Close,
      Change: i.ForexQuotations?.Change,
    } satisfies RowQuote,
    points: pointsById.get(i.Id) ?? [],
  }));
}
