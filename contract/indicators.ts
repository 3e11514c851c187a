/**
 * The chart's indicators and price transforms, computed once for both programs and both forms of
 * the chart (the server's SVG and the live chart.js chart): pure functions of candles (oldest
 * first) and their parameters, no state, no imports.
 *
 * Every series has one value per input candle, `null` where the indicator has not enough candles
 * yet (its look-back). The definitions are the classic ones (J. Welles Wilder, "New Concepts in
 * Technical Trading Systems", 1978; John Bollinger; Gerald Appel; George Lane), as StockCharts'
 * ChartSchool states them:
 * - SMA: the mean of the last n values.
 * - EMA: seeded with the SMA of the first n values, then k = 2 / (n + 1).
 * - Wilder's smoothing (RSI, ATR): seeded with the SMA of the first n values, then
 *   (previous * (n - 1) + value) / n.
 * - Bollinger bands: the SMA of n closes, plus and minus `width` population standard deviations.
 * - RSI: 100 - 100 / (1 + average gain / average loss), both averages Wilder-smoothed over the
 *   changes of the close; 100 when nothing was lost (50 when nothing moved).
 * - MACD: EMA(fast) - EMA(slow) of the close; signal the EMA of the MACD line; histogram the
 *   difference.
 * - Stochastic (full): %K = 100 * (close - lowest low) / (highest high - lowest low) over k
 *   candles (50 when the range is nil), smoothed by an SMA of `slowing`; %D an SMA of `d` of it.
 * - ATR: Wilder's smoothing of the true range (the first candle's is its high - low).
 * - Heikin Ashi: close = (O + H + L + C) / 4, open = (previous open + previous close) / 2 (the
 *   first (O + C) / 2), high and low the extremes of the candle's high and low and those two.
 */

export type Series = (number | null)[];

export interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The index of the first value of a series (its length when it has none). */
function firstValue(values: Series): number {
  let i = 0;
  while (i < values.length && values[i] === null) i++;
  return i;
}

/**
 * An average that starts with the SMA of the first `period` values (after any leading nulls) and
 * goes on with `next(previous, value)`.
 */
function seeded(
  values: Series,
  period: number,
  next: (previous: number, value: number) => number,
): Series {
  const out: Series = values.map(() => null);
  const start = firstValue(values);
  if (values.length - start < period) return out;
  let sum = 0;
  for (let i = start; i < start + period; i++) sum += values[i] as number;
  let prev = sum / period;
  out[start + period - 1] = prev;
  for (let i = start + period; i < values.length; i++) {
    prev = next(prev, values[i] as number);
    out[i] = prev;
  }
  return out;
}

/** Simple moving average of `period` values (leading nulls are skipped). */
export function sma(values: Series, period: number): Series {
  const out: Series = values.map(() => null);
  const start = firstValue(values);
  let sum = 0;
  for (let i = start; i < values.length; i++) {
    sum += values[i] as number;
    if (i - start >= period) sum -= values[i - period] as number;
    if (i - start >= period - 1) out[i] = sum / period;
  }
  return out;
}

/** Exponential moving average (k = 2 / (period + 1)), seeded with the SMA of its first values. */
export function ema(values: Series, period: number): Series {
  const k = 2 / (period + 1);
  return seeded(values, period, (prev, v) => prev + k * (v - prev));
}

/** Wilder's smoothing (an EMA with k = 1 / period), seeded with the SMA of its first values. */
export function wilder(values: Series, period: number): Series {
  return seeded(values, period, (prev, v) => (prev * (period - 1) + v) / period);
}

/** Bollinger bands: the SMA of `period` closes and `width` population standard deviations. */
export function bollinger(
  closes: readonly number[],
  period: number,
  width: number,
): { middle: Series; upper: Series; lower: Series } {
  const middle = sma(closes as Series, period);
  const upper: Series = closes.map(() => null);
  const lower: Series = closes.map(() => null);
  middle.forEach((m, i) => {
    if (m === null) return;
    let sq = 0;
    for (let j = i - period + 1; j <= i; j++) sq += (closes[j] - m) ** 2;
    const sd = Math.sqrt(sq / period);
    upper[i] = m + width * sd;
    lower[i] = m - width * sd;
  });
  return { middle, upper, lower };
}

/** Relative strength index of the closes, Wilder-smoothed over `period` changes. */
export function rsi(closes: readonly number[], period: number): Series {
  const gains: Series = closes.map((c, i) => (i === 0 ? null : Math.max(0, c - closes[i - 1])));
  const losses: Series = closes.map((c, i) => (i === 0 ? null : Math.max(0, closes[i - 1] - c)));
  const g = wilder(gains, period);
  const l = wilder(losses, period);
  return g.map((gain, i) => {
    const loss = l[i];
    if (gain === null || loss === null) return null;
    if (loss === 0) return gain === 0 ? 50 : 100;
    return 100 - 100 / (1 + gain / loss);
  });
}

/** MACD of the closes: the line, its signal and the histogram. */
export function macd(
  closes: readonly number[],
  fast: number,
  slow: number,
  signal: number,
): { macd: Series; signal: Series; histogram: Series } {
  const f = ema(closes as Series, fast);
  const s = ema(closes as Series, slow);
  const line: Series = f.map((v, i) => (v === null || s[i] === null ? null : v - s[i]!));
  const sig = ema(line, signal);
  const histogram: Series = line.map((v, i) =>
    v === null || sig[i] === null ? null : v - sig[i]!,
  );
  return { macd: line, signal: sig, histogram };
}

/** Full stochastic: %K over `k` candles smoothed by `slowing`, %D the SMA of `d` of it. */
export function stochastic(
  candles: readonly Ohlc[],
  k: number,
  slowing: number,
  d: number,
): { k: Series; d: Series } {
  const raw: Series = candles.map((c, i) => {
    if (i < k - 1) return null;
    let hh = -Infinity;
    let ll = Infinity;
    for (let j = i - k + 1; j <= i; j++) {
      hh = Math.max(hh, candles[j].high);
      ll = Math.min(ll, candles[j].low);
    }
    return hh === ll ? 50 : (100 * (c.close - ll)) / (hh - ll);
  });
  const slowK = sma(raw, slowing);
  return { k: slowK, d: sma(slowK, d) };
}

/** True range of each candle (the first candle's is its high - low). */
export function trueRange(candles: readonly Ohlc[]): number[] {
  return candles.map((c, i) => {
    if (i === 0) return c.high - c.low;
    const prev = candles[i - 1].close;
    return Math.max(c.high - c.low, Math.abs(c.high - prev), Math.abs(c.low - prev));
  });
}

/** Average true range, Wilder-smoothed over `period` candles. */
export function atr(candles: readonly Ohlc[], period: number): Series {
  return wilder(trueRange(candles), period);
}

/** Heikin Ashi candles of the same times (the fields other than OHLC are kept). */
export function heikinAshi<C extends Ohlc>(candles: readonly C[]): C[] {
  const out: C[] = [];
  candles.forEach((c, i) => {
    const close = (c.open + c.high + c.low + c.close) / 4;
    const prev = out[i - 1];
    const open = prev ? (prev.open + prev.close) / 2 : (c.open + c.close) / 2;
    out.push({
      ...c,
      open,
      close,
      high: Math.max(c.high, open, close),
      low: Math.min(c.low, open, close),
    });
  });
  return out;
}
