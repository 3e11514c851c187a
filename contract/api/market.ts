/** Market data (upstream/API.md "Market"): every call is a GET that needs no token. */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { PERIODS } from "../constants";
import { optionalWholeField } from "../fields";

/** Longest instrument search text (trade_list searchCurrency), in characters. */
export const TRADE_SEARCH_MAX = 32;
/** Most instruments one sparkline call takes. */
export const SPARKLINE_IDS_MAX = 200;

const period = z.enum(PERIODS);

/** The day's quote of an instrument (`Close` is the last price; `Change` percent against `Open`). */
export const QuotationSchema = z.object({
  Open: z.number(),
  Close: z.number(),
  High: z.number(),
  Low: z.number(),
  Volume: z.number(),
  Change: z.number().describe("percent against Open, 2 decimals"),
  Time: z.number().int().describe("time of the last tick, ms"),
});
export type Quotation = z.infer<typeof QuotationSchema>;

export const InstrumentSchema = z.object({
  Id: z.number().int(),
  Code: z.string(),
  ShowCode: z.string(),
  Logo: z.string().describe("path of the logo on the upstream, e.g. /static/logos/EURUSD.svg"),
  CategoryId: z.number().int(),
  MarketStatus: z.number().int().describe("MARKET_STATUS: 1 open"),
  PricePrecision: z.number().int(),
  Pip: z.number().describe("lot step"),
  ForexMinCont: z.number().describe("minimum lots"),
  ForexContNum: z.number().describe("units per lot"),
  MarginMode: z.number().int().describe("MARGIN_MODE: 1 fixed, otherwise leverage based"),
  HasForexMultiple: z
    .array(z.object({ Value: z.number().int() }))
    .describe("leverage options; empty means orders are refused (no_mult_config)"),
  ForexFeeRate: z.number(),
  QuoteCurrency: z
    .string()
    .describe("currency the prices are quoted in (USD, JPY, CHF, CAD, GBP, ...)"),
  ForexQuotations: QuotationSchema,
  Api: z.string().describe('where its prices come from ("sim": the simulator)'),
});
export type Instrument = z.infer<typeof InstrumentSchema>;

export const CategorySchema = z.object({
  Id: z.number().int(),
  NameShowTrans: z.string().describe("name in the request's language"),
});
export type Category = z.infer<typeof CategorySchema>;

export const CandleSchema = z.object({
  Time: z.number().int().describe("start of the candle, ms UTC"),
  Open: z.number(),
  High: z.number(),
  Low: z.number(),
  Close: z.number(),
  Volume: z.number(),
});
export type Candle = z.infer<typeof CandleSchema>;

export const SparklineSchema = z.object({
  forex_id: z.number().int(),
  period,
  points: z.array(z.number()).describe("closes, oldest first; the last is the live price"),
});
export type Sparkline = z.infer<typeof SparklineSchema>;

/** An instrument's id (digits) or code. */
const INSTRUMENT_REF = /^[A-Za-z0-9_.-]{1,32}$/;
const INVALID_INSTRUMENT = "market.invalid_forex_id";

/** A chart period, one of PERIODS; absent or empty is undefined (the call's default). */
const optionalPeriod = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.enum(PERIODS, { message: "market.invalid_period" }).optional(),
);

export const getCategories = endpoint({
  data: z.array(CategorySchema),
  method: "GET",
  path: "/v1/api/forex/getCategories",
  auth: false,
  tag: "market",
  summary: "Instrument categories",
  query: z.object({ ...cacheBuster }),
});

export const tradeList = endpoint({
  data: z.array(InstrumentSchema),
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

export const kline = endpoint({
  data: z.array(CandleSchema),
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

export const abbreviatedCacheKline = endpoint({
  data: z.array(SparklineSchema),
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
