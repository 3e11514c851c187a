/**
 * The default market: categories and instruments of seed/categories.json and seed/instruments.json
 * (read and checked at start-up by seed.ts), seeded on first start (idempotent: rows that exist are
 * left alone, so an operator's edits survive restarts), plus typed access and the quote-currency ->
 * USD conversion the order engine uses.
 */
import { floatArith, usdRate as usdRateOf } from "@contract/formulas";
import type { DB } from "../../platform/db.js";
import type { PriceFeed } from "./feed.js";
import { loadMarketSeed, type CategorySeed, type InstrumentSeed } from "./seed.js";
import { enabledInstruments, insertCategoryIfMissing, insertInstrumentIfMissing } from "./store.js";

export type { CategorySeed, InstrumentSeed };

/** The seed, read once when the upstream starts (a malformed seed file stops it here). */
export const { categories: CATEGORY_SEED, instruments: INSTRUMENT_SEED } = loadMarketSeed();

import type { InstrumentRow } from "./store.js";
export type { InstrumentRow };

/** Inserts the default categories and instruments that are missing. Returns how many instruments it added. */
export function seedInstruments(db: DB): number {
  let added = 0;
  db.transaction(() => {
    for (const c of CATEGORY_SEED)
      insertCategoryIfMissing(db, { id: c.id, names: JSON.stringify(c.names), sort: c.sort });
    INSTRUMENT_SEED.forEach((s, i) => {
      const inserted = insertInstrumentIfMissing(db, {
        code: s.code,
        showCode: s.show,
        logo: `/static/logos/${s.code}.svg`,
        categoryId: s.category,
        session: s.session,
        quoteCurrency: s.quote,
        pricePrecision: s.precision,
        contNum: String(s.cont),
        multiples: JSON.stringify(s.multiples),
        feeRate: s.fee,
        basePrice: s.price,
        volatility: s.vol,
        sort: i + 1,
      });
      if (inserted) added++;
    });
  })();
  return added;
}

/** Enabled instruments in display order (category order, then instrument order). */
export function loadInstruments(db: DB): InstrumentRow[] {
  return enabledInstruments(db);
}

/** Rounds a price to an instrument's precision (display and storage of quotes and candles). */
export function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * USD value of one unit of `quoteCurrency` at the feed's current prices: a quote-currency amount
 * times this rate is USD. "USD" is 1; otherwise it uses the instrument {CCY}USD (rate = its price)
 * or USD{CCY} (rate = 1 / its price), by @contract/formulas usdRate. Undefined when the feed has
 * neither (the caller must refuse).
 * Example: profit of a USDJPY position in JPY x usdRate(feed, "JPY") = profit in USD.
 */
export function usdRate(feed: PriceFeed, quoteCurrency: string): number | undefined {
  const rate = usdRateOf(floatArith, quoteCurrency, (code) => {
    const q = feed.quote(code);
    return q && q.price > 0 ? q.price : null;
  });
  return rate ?? undefined;
}
