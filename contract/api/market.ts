/** Market data (upstream/API.md "Market"): every call is a GET that needs no token. */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { PERIODS, type Period } from "../constants";
import { optionalWholeField } from "../fields";

/** Longest instrument search text (trade_list searchCurrency), in characters. */
export const TRADE_SEARCH_MAX = 32;
/** Most instruments one sparkline call takes. */
export const SPARKLINE_IDS_MAX = 200;

/** The day's quote of an instrument (`Close` is the last price; `Change` percent against `Open`). */
export interface Quotation {
  Open: number;
  Close: number;
  High: number;
  Low: number;
  Volume: number;
  Change: number;
  /** Time of the last tick, ms. */
  Time: number;
}

export interface Instrument {
  Id: number;
  Code: string;
  ShowCode: string;
  /** Path of the logo on the upstream, e.g. /static/logos/EURUSD.svg. */
  Logo: string;
  CategoryId: number;
  /** MARKET_STATUS: 1 open. */
  MarketStatus: number;
  PricePrecision: number;
  /** Lot step. */
  Pip: number;
  /** Minimum lots. */
  ForexMinCont: number;
  /** Units per lot. */
  ForexContNum: number;
  /** MARGIN_MODE: 1 fixed, otherwise leverage based. */
  MarginMode: number;
  /** Leverage options; empty means orders are refused (no_mult_config). */
  HasForexMultiple: { Value: number }[];
  ForexFeeRate: number;
  /** Currency the prices are quoted in (USD, JPY, CHF, CAD, GBP, ...). */
  QuoteCurrency: string;
  ForexQuotations: Quotation;
  Api?: unknown;
}

export interface Category {
  Id: number;
  /** Name in the request's language. */
  NameShowTrans: string;
}

export interface Candle {
  /** Start of the candle, ms UTC. */
  Time: number;
  Open: number;
  High: number;
  Low: number;
  Close: number;
  Volume: number;
}

export interface Sparkline {
  forex_id: number;
  period: Period;
  /** Closes, oldest first; the last is the live price. */
  points: number[];
}

const period = z.enum(PERIODS);

/** An instrument's id (digits) or code. */
const INSTRUMENT_REF = /^[A-Za-z0-9_.-]{1,32}$/;
const INVALID_INSTRUMENT = "market.invalid_forex_id";

/** A chart period, one of PERIODS; absent or empty is undefined (the call's default). */
const optionalPeriod = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.enum(PERIODS, { message: "market.invalid_period" }).optional(),
);

export const getCategories = endpoint<Category[]>()({
  method: "GET",
  path: "/v1/api/forex/getCategories",
  auth: false,
  tag: "market",
  summary: "Instrument categories",
  query: z.object({ ...cacheBuster }),
});

export const tradeList = endpoint<Instrument[]>()({
  method: "GET",
  path: "/v1/api/forex/trade_list",
  auth: false,
  tag: "market",
  summary: "Instruments with their day's quotes",
  query: z.object({
    /** Part of the code or name, case-insensitive; empty: every instrument. */
    searchCurrency: text(TRADE_SEARCH_MAX, "market.search_too_long")
      .transform((s) => s.trim())
      .optional(),
    /** One category's instruments; absent, empty or 0: every category. */
    category_id: optionalWholeField(9, "market.invalid_category").transform((n) => n || undefined),
    ...cacheBuster,
  }),
});

export const kline = endpoint<Candle[]>()({
  method: "GET",
  path: "/v1/api/forex/kline",
  auth: false,
  tag: "market",
  summary: "Candles of one instrument and period, oldest first",
  query: z.object({
    /** The instrument's id or code. */
    forex_id: z.preprocess(
      (v) => (typeof v === "number" ? String(v) : v),
      z.string({ message: INVALID_INSTRUMENT }).regex(INSTRUMENT_REF, INVALID_INSTRUMENT),
    ),
    /** One of PERIODS (default DEFAULT_PERIOD). */
    period: optionalPeriod,
    ...cacheBuster,
  }),
});

export const abbreviatedCacheKline = endpoint<Sparkline[]>()({
  method: "GET",
  path: "/v1/api/forex/abbreviated_cache_kline",
  auth: false,
  tag: "market",
  summary: "Sparkline closes of several instruments",
  query: z.object({
    /**
     * Instruments' ids or codes separated by commas, at most SPARKLINE_IDS_MAX; absent or empty:
     * every instrument.
     */
    forex_id: text(2048, INVALID_INSTRUMENT)
      .transform((s) =>
        s
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .refine(
        (ids) => ids.length <= SPARKLINE_IDS_MAX && ids.every((p) => INSTRUMENT_REF.test(p)),
        {
          message: INVALID_INSTRUMENT,
        },
      )
      .optional(),
    /** One of PERIODS (default DEFAULT_SPARKLINE_PERIOD). */
    period: optionalPeriod,
    ...cacheBuster,
  }),
});

/** The chart period schema, for callers that validate a period themselves. */
export const periodSchema = period;
