/** Market calls of the upstream (GET /v1/api/forex/...). */
import * as marketApi from "@contract/api/market";
import { type Caller, type UpstreamResult, send } from "./client.server";
import type { Candle, Category, Instrument, Sparkline } from "@contract/api/market";
import type { Period } from "@contract/constants";
import type { RowQuote } from "~/components/InstrumentRow";
import { instrumentView } from "./views";
import { shared } from "./shared-cache.server";
import { spriteOf, spriteUrl } from "~/utils/sparklines.server";
import { env } from "~/utils/env.server";

/**
 * Every market call is public and the same for every visitor of a language: the answers are shared
 * for MARKET_CACHE_MS (default 1 s), so a busy home page asks the upstream once a second, not once
 * per visitor. Live prices reach pages with JavaScript through the live bridge meanwhile.
 */
function cached<T>(c: Caller, key: string, load: () => Promise<UpstreamResult<T>>) {
  return shared(`${c.lang}|${key}`, env().marketCacheMs, load);
}

export function getCategories(c: Caller): Promise<UpstreamResult<Category[]>> {
  return cached(c, "categories", () =>
    send<Category[]>(c, marketApi.getCategories, {}, { init: true }),
  );
}

export function tradeList(
  c: Caller,
  p: { searchCurrency?: string } = {},
): Promise<UpstreamResult<Instrument[]>> {
  const search = p.searchCurrency || undefined;
  return cached(c, `trade_list|${search ?? ""}`, () =>
    send<Instrument[]>(c, marketApi.tradeList, { searchCurrency: search }, { init: true }),
  );
}

export function kline(
  c: Caller,
  p: { forex_id: number; period: Period },
): Promise<UpstreamResult<Candle[]>> {
  return cached(c, `kline|${p.forex_id}|${p.period}`, () =>
    send<Candle[]>(c, marketApi.kline, p, { init: true }),
  );
}

export function abbreviatedCacheKline(
  c: Caller,
  p: { forex_id?: number[] | string; period?: Period } = {},
): Promise<UpstreamResult<Sparkline[]>> {
  const ids = Array.isArray(p.forex_id) ? p.forex_id.join(",") : p.forex_id;
  return cached(c, `sparklines|${ids ?? ""}|${p.period ?? ""}`, () =>
    send<Sparkline[]>(
      c,
      marketApi.abbreviatedCacheKline,
      { forex_id: ids || undefined, period: p.period },
      { init: true },
    ),
  );
}

/**
 * Rows of the home and search lists: each instrument's quote fields and the direction of its
 * sparkline (null without points), and the sprite's URL the rows' sparklines come from.
 */
export function instrumentRows(instruments: Instrument[], sparks: UpstreamResult<Sparkline[]>) {
  const sprite = sparks.ok ? spriteOf(sparks.data) : null;
  const rows = instruments.map((i) => {
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
    return { quote, up: sprite?.upById.get(i.Id) ?? null };
  });
  return { rows, sparkHref: sprite ? spriteUrl(sprite.version) : null };
}
