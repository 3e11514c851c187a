/**
 * The chart's indicators (contract/indicators.ts) against published worked examples. Each
 * reference series below is copied from the StockCharts ChartSchool article and spreadsheet named
 * beside it (values rounded to two decimals there, so compared to two decimals here):
 *
 * - SMA and EMA: "Moving Averages - Simple and Exponential", the 10-day example (closes of
 *   Intel, 30 days; the EMA seeded with the first 10-day SMA, k = 0.1818).
 * - RSI: "Relative Strength Index (RSI)", the 14-day example of cs-rsi.xls (Wilder's smoothing).
 * - Stochastic: "Stochastic Oscillator", the 14-day %K example of cs-stochastic.xls. Its
 *   spreadsheet's %K column disagrees with its own inputs by up to 0.2 (a known erratum), so %K is
 *   compared within 0.25.
 * - ATR: "Average True Range (ATR)", the 14-day QQQQ example of cs-atr.xls (Wilder's smoothing,
 *   the first ATR the mean of 14 true ranges).
 *
 * The articles' tables print prices to two decimals, while their spreadsheets compute from prices
 * of four: from the printed prices, our values agree with the printed results within what that
 * rounding moves them (SMA and EMA 0.01, RSI 0.08, ATR 0.006), the tolerance of each comparison.
 *
 * Bollinger bands and MACD are compositions of those (an SMA and a population standard
 * deviation; differences of the EMAs and an EMA of them): they are checked against the same
 * reference SMA and EMA and the definitions, and on series whose answer is known exactly.
 */
import { describe, expect, it } from "vitest";
import {
  atr,
  bollinger,
  ema,
  heikinAshi,
  macd,
  rsi,
  sma,
  stochastic,
  trueRange,
  wilder,
  type Series,
} from "@contract/indicators";

/** Values of a series from its first non-null one. */
function defined(s: Series): number[] {
  return s.filter((v): v is number => v !== null);
}

/** Each value within `tolerance` of the reference, and as many. */
function near(actual: number[], reference: number[], tolerance: number) {
  expect(actual).toHaveLength(reference.length);
  actual.forEach((v, i) =>
    expect(Math.abs(v - reference[i]), `value ${i}: ${v} against ${reference[i]}`).toBeLessThan(
      tolerance,
    ),
  );
}

/** Two series alike: nulls in the same places, values equal to 12 decimals. */
function same(a: Series, b: Series) {
  expect(a.map((v) => v === null)).toEqual(b.map((v) => v === null));
  a.forEach((v, i) => v !== null && expect(v).toBeCloseTo(b[i]!, 12));
}

// StockCharts, "Moving Averages - Simple and Exponential", 10-day SMA and EMA.
const MA_CLOSES = [
  22.27, 22.19, 22.08, 22.17, 22.18, 22.13, 22.23, 22.43, 22.24, 22.29, 22.15, 22.39, 22.38, 22.61,
  23.36, 24.05, 23.75, 23.83, 23.95, 23.63, 23.82, 23.87, 23.65, 23.19, 23.1, 23.33, 22.68, 23.1,
  22.4, 22.17,
];
const MA_SMA10 = [
  22.22, 22.21, 22.23, 22.26, 22.31, 22.42, 22.61, 22.77, 22.91, 23.08, 23.21, 23.38, 23.53, 23.65,
  23.71, 23.69, 23.61, 23.51, 23.43, 23.28, 23.13,
];
const MA_EMA10 = [
  22.22, 22.21, 22.24, 22.27, 22.33, 22.52, 22.8, 22.97, 23.13, 23.28, 23.34, 23.43, 23.51, 23.54,
  23.47, 23.4, 23.39, 23.26, 23.23, 23.08, 22.92,
];

// StockCharts, "Relative Strength Index (RSI)", cs-rsi.xls.
const RSI_CLOSES = [
  44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28,
  46.28, 46.0, 46.03, 46.41, 46.22, 45.64, 46.21, 46.25, 45.71, 46.45, 45.78, 45.35, 44.03, 44.18,
  44.22, 44.57, 43.42, 42.66, 43.13,
];
const RSI_14 = [
  70.53, 66.32, 66.55, 69.41, 66.36, 57.97, 62.93, 63.26, 56.06, 62.38, 54.71, 50.42, 39.99, 41.46,
  41.87, 45.46, 37.3, 33.08, 37.77,
];

// StockCharts, "Stochastic Oscillator", cs-stochastic.xls (closes from the 14th day).
const ST_HIGH = [
  127.01, 127.62, 126.59, 127.35, 128.17, 128.43, 127.37, 126.42, 126.9, 126.85, 125.65, 125.72,
  127.16, 127.72, 127.69, 128.22, 128.27, 128.09, 128.27, 127.74, 128.77, 129.29, 130.06, 129.12,
  129.29, 128.47, 128.09, 128.65, 129.14, 128.64,
];
const ST_LOW = [
  125.36, 126.16, 124.93, 126.09, 126.82, 126.48, 126.03, 124.83, 126.39, 125.72, 124.56, 124.57,
  125.07, 126.86, 126.63, 126.8, 126.71, 126.8, 126.13, 125.92, 126.99, 127.81, 128.47, 128.06,
  127.61, 127.6, 127.0, 126.9, 127.49, 127.4,
];
const ST_CLOSE_FROM_14 = [
  127.29, 127.18, 128.01, 127.11, 127.73, 127.06, 127.33, 128.71, 127.87, 128.58, 128.6, 127.93,
  128.11, 127.6, 127.6, 128.69, 128.27,
];
const ST_K14 = [
  70.44, 67.61, 89.2, 65.81, 81.75, 64.52, 74.53, 98.58, 70.1, 73.06, 73.42, 61.23, 60.96, 40.39,
  40.39, 66.83, 56.73,
];

// StockCharts, "Average True Range (ATR)", cs-atr.xls.
const ATR_HIGH = [
  48.7, 48.72, 48.9, 48.87, 48.82, 49.05, 49.2, 49.35, 49.92, 50.19, 50.12, 49.66, 49.88, 50.19,
  50.36, 50.57, 50.65, 50.43, 49.63, 50.33, 50.29, 50.17, 49.32, 48.5, 48.32, 46.8, 47.8, 48.39,
  48.66, 48.79,
];
const ATR_LOW = [
  47.79, 48.14, 48.39, 48.37, 48.24, 48.64, 48.94, 48.86, 49.5, 49.87, 49.2, 48.9, 49.43, 49.73,
  49.26, 50.09, 50.3, 49.21, 48.98, 49.61, 49.2, 49.43, 48.08, 47.64, 41.55, 44.28, 47.31, 47.2,
  47.9, 47.73,
];
const ATR_CLOSE = [
  48.16, 48.61, 48.75, 48.63, 48.74, 49.03, 49.07, 49.32, 49.91, 50.13, 49.53, 49.5, 49.75, 50.03,
  50.31, 50.52, 50.41, 49.34, 49.37, 50.23, 49.24, 49.93, 48.43, 48.18, 46.57, 45.41, 47.77, 47.72,
  48.62, 47.85,
];
const ATR_14 = [
  0.56, 0.59, 0.59, 0.57, 0.62, 0.62, 0.64, 0.67, 0.69, 0.78, 0.78, 1.21, 1.3, 1.38, 1.37, 1.34,
  1.32,
];

const ohlc = (high: number[], low: number[], close: number[]) =>
  high.map((h, i) => ({ open: close[i], high: h, low: low[i], close: close[i] }));

describe("moving averages (StockCharts' 10-day example)", () => {
  it("SMA", () => {
    const s = sma(MA_CLOSES, 10);
    expect(s.slice(0, 9)).toEqual(Array(9).fill(null));
    near(defined(s), MA_SMA10, 0.01);
  });

  it("EMA, seeded with the first SMA", () => {
    const e = ema(MA_CLOSES, 10);
    expect(e.slice(0, 9)).toEqual(Array(9).fill(null));
    near(defined(e), MA_EMA10, 0.01);
  });

  it("Wilder's smoothing is the EMA of 2n - 1", () => {
    const w = wilder(MA_CLOSES, 10);
    const e = ema(MA_CLOSES, 19);
    // Seeds differ (10 and 19 values); the recurrence is the same: k = 1/10 = 2/(19 + 1).
    const k = 0.1;
    for (let i = 10; i < MA_CLOSES.length; i++)
      expect(w[i]!).toBeCloseTo(w[i - 1]! + k * (MA_CLOSES[i] - w[i - 1]!), 12);
    expect(e.filter((v) => v !== null)).toHaveLength(MA_CLOSES.length - 18);
  });

  it("skips leading nulls (an average of an indicator)", () => {
    expect(sma([null, null, 1, 2, 3, 4], 2)).toEqual([null, null, null, 1.5, 2.5, 3.5]);
    expect(ema([null, 2, 4, 6], 2)).toEqual([null, null, 3, 5]);
  });
});

describe("RSI (StockCharts' 14-day example, Wilder's smoothing)", () => {
  it("matches the worked example", () => {
    const r = rsi(RSI_CLOSES, 14);
    expect(r.slice(0, 14)).toEqual(Array(14).fill(null));
    near(defined(r), RSI_14, 0.08);
  });

  it("is 100 when nothing was lost and 50 when nothing moved", () => {
    expect(rsi([1, 2, 3, 4], 3)[3]).toBe(100);
    expect(rsi([5, 5, 5, 5], 3)[3]).toBe(50);
  });
});

describe("stochastic (StockCharts' 14-day example)", () => {
  const closes = ST_HIGH.map((_, i) => (i < 13 ? ST_LOW[i] : ST_CLOSE_FROM_14[i - 13]));
  const candles = ohlc(ST_HIGH, ST_LOW, closes);

  it("%K over 14 days (slowing 1) matches the example within its erratum", () => {
    const { k } = stochastic(candles, 14, 1, 3);
    expect(k.slice(0, 13)).toEqual(Array(13).fill(null));
    near(defined(k), ST_K14, 0.25);
  });

  it("full 14/3/3: %K is the 3-SMA of the fast %K and %D the 3-SMA of that", () => {
    const fast = stochastic(candles, 14, 1, 1).k;
    const full = stochastic(candles, 14, 3, 3);
    same(full.k, sma(fast, 3));
    same(full.d, sma(sma(fast, 3), 3));
    expect(defined(full.d)).toHaveLength(ST_K14.length - 4);
  });
});

describe("ATR (StockCharts' 14-day example, Wilder's smoothing)", () => {
  it("matches the worked example", () => {
    const candles = ohlc(ATR_HIGH, ATR_LOW, ATR_CLOSE);
    const a = atr(candles, 14);
    expect(a.slice(0, 13)).toEqual(Array(13).fill(null));
    near(defined(a), ATR_14, 0.006);
  });

  it("the true range reaches to the previous close", () => {
    const tr = trueRange([
      { open: 10, high: 11, low: 9, close: 10 },
      { open: 12, high: 13, low: 12, close: 12.5 }, // gap up: 13 - 10
      { open: 11, high: 11.5, low: 10, close: 10.5 }, // gap down: 12.5 - 10
    ]);
    expect(tr).toEqual([2, 3, 2.5]);
  });
});

describe("Bollinger bands (20, 2)", () => {
  it("are the 20-SMA plus and minus two population standard deviations", () => {
    const b = bollinger(MA_CLOSES, 10, 2);
    same(b.middle, sma(MA_CLOSES, 10));
    near(defined(b.middle), MA_SMA10, 0.01);
    for (let i = 9; i < MA_CLOSES.length; i++) {
      const w = MA_CLOSES.slice(i - 9, i + 1);
      const m = w.reduce((a, x) => a + x, 0) / 10;
      const sd = Math.sqrt(w.reduce((a, x) => a + (x - m) ** 2, 0) / 10);
      expect(b.upper[i]!).toBeCloseTo(m + 2 * sd, 10);
      expect(b.lower[i]!).toBeCloseTo(m - 2 * sd, 10);
    }
  });

  it("of 1..20 with width 1: 10.5 and the standard deviation sqrt(33.25)", () => {
    const xs = Array.from({ length: 20 }, (_, i) => i + 1);
    const b = bollinger(xs, 20, 1);
    expect(b.middle[19]).toBe(10.5);
    expect(b.upper[19]!).toBeCloseTo(10.5 + Math.sqrt(33.25), 12);
    expect(b.lower[19]!).toBeCloseTo(10.5 - Math.sqrt(33.25), 12);
  });
});

describe("MACD (12, 26, 9)", () => {
  it("is EMA(12) - EMA(26), its signal the 9-EMA of it, the histogram their difference", () => {
    const closes = [...RSI_CLOSES, ...MA_CLOSES.map((c) => c * 2)];
    const m = macd(closes, 12, 26, 9);
    const e12 = ema(closes, 12);
    const e26 = ema(closes, 26);
    expect(m.macd.slice(0, 25)).toEqual(Array(25).fill(null));
    for (let i = 25; i < closes.length; i++) expect(m.macd[i]!).toBeCloseTo(e12[i]! - e26[i]!, 12);
    same(m.signal, ema(m.macd, 9));
    expect(m.signal.findIndex((v) => v !== null)).toBe(25 + 8);
    for (let i = 33; i < closes.length; i++)
      expect(m.histogram[i]!).toBeCloseTo(m.macd[i]! - m.signal[i]!, 12);
  });

  it("of a straight line is constant once both averages run", () => {
    const line = Array.from({ length: 60 }, (_, i) => 100 + i);
    const m = macd(line, 12, 26, 9);
    // On a line rising by 1, an EMA of n lags by (n - 1) / 2: MACD = (26 - 12) / 2 = 7.
    expect(m.macd[59]!).toBeCloseTo(7, 10);
    expect(m.histogram[59]!).toBeCloseTo(0, 10);
  });
});

describe("Heikin Ashi", () => {
  it("averages each candle and opens at the middle of the one before", () => {
    const ha = heikinAshi([
      { time: 1, open: 10, high: 12, low: 9, close: 11 },
      { time: 2, open: 11, high: 14, low: 10, close: 13 },
    ]);
    expect(ha[0]).toEqual({ time: 1, open: 10.5, high: 12, low: 9, close: 10.5 });
    expect(ha[1]).toEqual({ time: 2, open: 10.5, high: 14, low: 10, close: 12 });
  });
});
