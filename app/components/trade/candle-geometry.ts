/**
 * Pure geometry of the server-rendered candlestick chart: given candles (ascending by time), the
 * drawing size and the price precision, where every body, wick, volume bar and axis label goes.
 * Used by CandleSvg (server HTML) and tested on its own.
 */
import type { CandleView } from "~/upstream/views";

/** A candle as the chart draws it (volume optional: the SVG draws no volume bars without it). */
export type Candle = Omit<CandleView, "volume"> & { volume?: number };

export interface ChartBox {
  width: number;
  height: number;
  /** Space right of the plot for the price axis labels. */
  axisRight: number;
  /** Space under the plot for the time axis labels. */
  axisBottom: number;
  /** Height reserved for volume bars at the bottom of the plot (0 for none). */
  volumeHeight: number;
  padTop: number;
}

/** Candles the chart shows (the server's SVG and chart.js): a page sends no more than these. */
export const CANDLES_SHOWN = 80;

export const DEFAULT_BOX: ChartBox = {
  width: 360,
  height: 220,
  axisRight: 56,
  axisBottom: 18,
  volumeHeight: 28,
  padTop: 8,
};

/** One candle as the chart draws it (SVG user units). */
export interface CandleShape {
  time: number;
  up: boolean;
  /** Body rectangle. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Wick from high to low, at the body's centre; the open and close (OHLC bars, the line). */
  cx: number;
  yHigh: number;
  yLow: number;
  yOpen: number;
  yClose: number;
  /** Volume bar (y and h; same x and w as the body). */
  vy: number;
  vh: number;
}

interface AxisLabel {
  pos: number;
  value: number;
}

interface CandleGeometry {
  box: ChartBox;
  min: number;
  max: number;
  /** Top and bottom of the price plot in px (the volume band is below it). */
  plotTop: number;
  plotBottom: number;
  plotRight: number;
  candles: CandleShape[];
  priceLabels: AxisLabel[];
  timeLabels: AxisLabel[];
  /** The last close and its y, for the "current price" line. */
  last: { value: number; y: number } | null;
}

/** Round "nice" tick values between min and max, about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return Number.isFinite(min) ? [min] : [];
  const raw = (max - min) / Math.max(1, count);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const norm = raw / mag;
  const step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    out.push(Number(v.toPrecision(12)));
  }
  return out;
}

/**
 * Lays out candles in a box. The highest high touches the top of the plot and the lowest low its
 * bottom (with a small margin), so high/low are scaled linearly to y.
 */
export function candleGeometry(
  input: Candle[],
  box: ChartBox = DEFAULT_BOX,
  maxCandles = 60,
  /** More values the price scale must hold (the overlays drawn over the candles). */
  alsoShown: readonly (number | null)[] = [],
): CandleGeometry {
  const candles = input
    .filter(
      (c) =>
        [c.open, c.high, c.low, c.close].every((v) => Number.isFinite(v)) &&
        Number.isFinite(c.time),
    )
    .slice(-maxCandles);
  const plotRight = box.width - box.axisRight;
  const plotBottom = box.height - box.axisBottom - box.volumeHeight;
  const plotTop = box.padTop;
  if (candles.length === 0) {
    return {
      box,
      min: 0,
      max: 0,
      plotTop,
      plotBottom,
      plotRight,
      candles: [],
      priceLabels: [],
      timeLabels: [],
      last: null,
    };
  }
  let min = Infinity;
  let max = -Infinity;
  let maxVol = 0;
  for (const c of candles) {
    min = Math.min(min, c.low, c.open, c.close);
    max = Math.max(max, c.high, c.open, c.close);
    maxVol = Math.max(maxVol, c.volume ?? 0);
  }
  for (const v of alsoShown) {
    if (v === null || !Number.isFinite(v)) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  if (max === min) {
    const pad = Math.abs(max) * 0.001 || 1;
    max += pad;
    min -= pad;
  }
  const y = (v: number) => plotTop + ((max - v) / (max - min)) * (plotBottom - plotTop);
  const slot = plotRight / Math.max(candles.length, 1);
  const bodyW = Math.max(1, slot * 0.7);
  const volTop = plotBottom + 2;
  const volBottom = box.height - box.axisBottom;
  const shapes: CandleShape[] = candles.map((c, i) => {
    const cx = slot * i + slot / 2;
    const top = y(Math.max(c.open, c.close));
    const bottom = y(Math.min(c.open, c.close));
    const vh = maxVol > 0 ? ((c.volume ?? 0) / maxVol) * (volBottom - volTop) : 0;
    return {
      time: c.time,
      up: c.close >= c.open,
      x: round(cx - bodyW / 2),
      y: round(top),
      w: round(bodyW),
      h: round(Math.max(1, bottom - top)),
      cx: round(cx),
      yHigh: round(y(c.high)),
      yLow: round(y(c.low)),
      yOpen: round(y(c.open)),
      yClose: round(y(c.close)),
      vy: round(volBottom - vh),
      vh: round(vh),
    };
  });
  const priceLabels = niceTicks(min, max, 4).map((v) => ({ value: v, pos: round(y(v)) }));
  const timeLabels: AxisLabel[] = [];
  const every = Math.max(1, Math.ceil(candles.length / 4));
  for (let i = 0; i < candles.length; i += every)
    timeLabels.push({ value: candles[i].time, pos: shapes[i].cx });
  const lastC = candles[candles.length - 1];
  return {
    box,
    min,
    max,
    plotTop,
    plotBottom,
    plotRight,
    candles: shapes,
    priceLabels,
    timeLabels,
    last: { value: lastC.close, y: round(y(lastC.close)) },
  };
}

/** The y of a value on a scale from `min` (at `bottom`) to `max` (at `top`). */
export function yOnScale(
  v: number,
  s: { min: number; max: number; top: number; bottom: number },
): number {
  return round(s.top + ((s.max - v) / (s.max - s.min || 1)) * (s.bottom - s.top));
}

export function round(v: number): number {
  return Math.round(v * 100) / 100;
}
