/** Market calls of the upstream (GET /v1/api/forex/...). */
import * as marketApi from "@contract/api/market";
import { type Caller, type UpstreamResult, send } from "./client.server";
import type { Candle, Category, Instrument, Sparkline } from "@contract/api/market";
import type { Period } from "@contract/constants";
import type { RowQuote } from "~/components/InstrumentRow";
import { instrumentView } from "./views";

export type { Candle, Category, Instrument, Quotation, Sparkline } from "@contract/api/market";
export { PERIODS, DEFAULT_PERIOD, isPeriod, type Period } from "@contract/constants";

export { logoPath } from "./views";

export function getCategories(c: Caller): Promise<UpstreamResult<Category[]>> {
  return send<Category[]>(c, marketApi.getCategories, {}, { init: true });
}

export function tradeList(
  c: Caller,
  p: { searchCurrency?: string } = {},
): Promise<UpstreamResult<Instrument[]>> {
  return send<Instrument[]>(
    c,
    marketApi.tradeList,
    { searchCurrency: p.searchCurrency || undefined },
    { init: true },
  );
}

export function kline(
  c: Caller,
  p: { forex_id: number; period: Period },
): Promise<UpstreamResult<Candle[]>> {
  return send<Candle[]>(c, marketApi.kline, p, { init: true });
}

export function abbreviatedCacheKline(
  c: Caller,
  p: { forex_id?: number[] | string; period?: Period } = {},
): Promise<UpstreamResult<Sparkline[]>> {
  const ids = Array.isArray(p.forex_id) ? p.forex_id.join(",") : p.forex_id;
  return send<Sparkline[]>(
    c,
    marketApi.abbreviatedCacheKline,
    { forex_id: ids || undefined, period: p.period },
    { init: true },
  );
}

/** Rows of the home and search lists: each instrument's quote fields plus its sparkline closes. */
export function instrumentRows(instruments: Instrument[], sparks: UpstreamResult<Sparkline[]>) {
  const pointsById = new Map<number, number[]>();
  if (sparks.ok) for (const s of sparks.data) pointsById.set(s.forex_id, s.points);
  return instruments.map((i) => {
    const v = instrumentView(i);
    const quote: RowQuote = {
      id: v.id,
      code: v.code,
      showCode: v.showCode,
      logo: v.logo,
      precision: v.precision,
      marketOpen: v.marketOpen,
      close: v.quote.close,
      change: v.quote.change,
    };
    return { quote, points: pointsById.get(i.Id) ?? [] };
  });
}
