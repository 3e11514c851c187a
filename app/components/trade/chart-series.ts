/**
 * What the chart draws, computed once from the candles and the user's chart choice, for both forms
 * of the chart: the server's SVG (chartGeometry) and the live chart.js chart (chartjsDatasets).
 * The indicators are contract/indicators.ts's, computed over every candle received (the shown
 * ones and those before them that warm the indicators up), then cut to the candles shown. They
 * are computed from the market's own prices whatever the chart type: Heikin Ashi changes how the
 * candles are drawn, not what the indicators read.
 */
import {
  atr,
  bollinger,
  ema,
  heikinAshi,
  macd,
  rsi,
  sma,
  stochastic,
  type Series,
} from "@contract/indicators";
import {
  INDICATOR_KEYS,
  INDICATORS,
  type ChartSettings,
  type ChartType,
  type IndicatorKey,
} from "@contract/api/chart-rules";
import {
  CANDLES_SHOWN,
  DEFAULT_BOX,
  candleGeometry,
  round,
  yOnScale,
  type Candle,
  type ChartBox,
} from "./candle-geometry";

/** A line of an indicator, one value per shown candle (null before it has enough candles). */
export interface SeriesLine {
  /** `sma`, `bollinger.upper`, `macd.signal`, ...: the chart's label key is `line.<id>`. */
  id: string;
  color: string;
  values: Series;
}

/** A pane below the prices: one oscillator's lines, its histogram, its fixed range and levels. */
export interface SeriesPane {
  key: IndicatorKey;
  lines: SeriesLine[];
  histogram: Series | null;
  /** A fixed scale (RSI and stochastic: 0 to 100); otherwise the values' own range. */
  range: [number, number] | null;
  /** Guide lines (RSI 30 and 70, stochastic 20 and 80, MACD 0). */
  levels: number[];
}

export interface ChartSeries {
  type: ChartType;
  /** The candles drawn (Heikin Ashi's when chosen), the last `shown` of those received. */
  candles: Candle[];
  overlays: SeriesLine[];
  panes: SeriesPane[];
}

const COLORS = {
  sma: "#f59e0b",
  ema: "#8b5cf6",
  bollinger: "#0ea5e9",
  main: "#2563eb",
  signal: "#f97316",
} as const;

/** Candles before the shown ones that an indicator needs to start (and to settle, if smoothed). */
function warmUpOf(s: ChartSettings, key: IndicatorKey): number {
  const i = s.indicators;
  switch (key) {
    case "sma":
      return i.sma.period;
    case "ema":
      return 3 * i.ema.period;
    case "bollinger":
      return i.bollinger.period;
    case "rsi":
      return 3 * i.rsi.period;
    case "macd":
      return 3 * i.macd.slow + i.macd.signal;
    case "stochastic":
      return i.stochastic.k + i.stochastic.slowing + i.stochastic.d;
    case "atr":
      return 3 * i.atr.period;
  }
}

/** How many candles before the shown ones the chosen indicators need (0 with none shown). */
export function warmUp(s: ChartSettings): number {
  return Math.max(
    0,
    ...INDICATOR_KEYS.filter((k) => s.indicators[k].on).map((k) => warmUpOf(s, k)),
  );
}

type Cut = (values: Series) => Series;

function overlaysOf(s: ChartSettings, closes: number[], cut: Cut): SeriesLine[] {
  const i = s.indicators;
  const out: SeriesLine[] = [];
  if (i.sma.on) out.push({ id: "sma", color: COLORS.sma, values: cut(sma(closes, i.sma.period)) });
  if (i.ema.on) out.push({ id: "ema", color: COLORS.ema, values: cut(ema(closes, i.ema.period)) });
  if (i.bollinger.on) {
    const b = bollinger(closes, i.bollinger.period, i.bollinger.width);
    for (const part of ["upper", "middle", "lower"] as const)
      out.push({ id: `bollinger.${part}`, color: COLORS.bollinger, values: cut(b[part]) });
  }
  return out;
}

function paneOf(
  s: ChartSettings,
  key: IndicatorKey,
  candles: Candle[],
  closes: number[],
  cut: Cut,
): SeriesPane {
  const i = s.indicators;
  const line = (id: string, values: Series, color: string = COLORS.main): SeriesLine => ({
    id,
    color,
    values: cut(values),
  });
  switch (key) {
    case "rsi":
      return {
        key,
        lines: [line("rsi", rsi(closes, i.rsi.period))],
        histogram: null,
        range: [0, 100],
        levels: [30, 70],
      };
    case "macd": {
      const m = macd(closes, i.macd.fast, i.macd.slow, i.macd.signal);
      return {
        key,
        lines: [line("macd", m.macd), line("macd.signal", m.signal, COLORS.signal)],
        histogram: cut(m.histogram),
        range: null,
        levels: [0],
      };
    }
    case "stochastic": {
      const st = stochastic(candles, i.stochastic.k, i.stochastic.slowing, i.stochastic.d);
      return {
        key,
        lines: [line("stochastic.k", st.k), line("stochastic.d", st.d, COLORS.signal)],
        histogram: null,
        range: [0, 100],
        levels: [20, 80],
      };
    }
    default:
      return {
        key,
        lines: [line("atr", atr(candles, i.atr.period))],
        histogram: null,
        range: null,
        levels: [],
      };
  }
}

/** The series of the chart: candles (as drawn), overlays and panes for the last `shown` candles. */
export function chartSeries(
  candles: Candle[],
  s: ChartSettings,
  shown: number = CANDLES_SHOWN,
): ChartSeries {
  const from = Math.max(0, candles.length - shown);
  const cut: Cut = (values) => values.slice(from);
  const closes = candles.map((c) => c.close);
  const drawn = s.type === "heikin_ashi" ? heikinAshi(candles) : candles;
  return {
    type: s.type,
    candles: drawn.slice(from),
    overlays: overlaysOf(s, closes, cut),
    panes: INDICATOR_KEYS.filter((k) => INDICATORS[k].pane === "lower" && s.indicators[k].on).map(
      (k) => paneOf(s, k, candles, closes, cut),
    ),
  };
}

// ---- the server's SVG ---------------------------------------------------------------------------

/** A point of a line as the SVG draws it, with the value it stands for. */
export interface PlotPoint {
  time: number;
  value: number;
  x: number;
  y: number;
}

export interface PlotLine {
  id: string;
  color: string;
  points: PlotPoint[];
}

export interface PanePlot {
  key: IndicatorKey;
  top: number;
  bottom: number;
  min: number;
  max: number;
  lines: PlotLine[];
  bars: { time: number; value: number; x: number; y: number; w: number; h: number }[];
  levels: { value: number; y: number }[];
}

/** Height of one pane below the prices, in the SVG's units. */
export const PANE_HEIGHT = 64;

/** The SVG's layout: the price pane's candles and overlays, then each pane below it. */
export function chartGeometry(series: ChartSeries, box: ChartBox = DEFAULT_BOX) {
  const price = candleGeometry(
    series.candles,
    box,
    series.candles.length,
    series.overlays.flatMap((l) => l.values),
  );
  const slotX = (i: number) => price.candles[i]?.cx ?? 0;
  const times = series.candles.map((c) => c.time);
  const priceScale = {
    min: price.min,
    max: price.max,
    top: price.plotTop,
    bottom: price.plotBottom,
  };
  const plot = (l: SeriesLine, scale: typeof priceScale): PlotLine => ({
    id: l.id,
    color: l.color,
    points: l.values.flatMap((v, i) =>
      v === null ? [] : [{ time: times[i], value: v, x: slotX(i), y: yOnScale(v, scale) }],
    ),
  });
  const slot = series.candles.length ? price.plotRight / series.candles.length : 0;
  const panes: PanePlot[] = series.panes.map((p, n) => {
    const top = box.height + n * PANE_HEIGHT + 6;
    const bottom = top + PANE_HEIGHT - 10;
    const values = [...p.lines.flatMap((l) => l.values), ...(p.histogram ?? []), ...p.levels];
    const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
    const [min, max] = p.range ?? [Math.min(0, ...finite), Math.max(0, ...finite)];
    const scale = { min, max, top, bottom };
    const zero = yOnScale(Math.max(min, Math.min(max, 0)), scale);
    return {
      key: p.key,
      top,
      bottom,
      min,
      max,
      lines: p.lines.map((l) => plot(l, scale)),
      bars: (p.histogram ?? []).flatMap((v, i) => {
        if (v === null) return [];
        const y = yOnScale(v, scale);
        return [
          {
            time: times[i],
            value: v,
            x: round(slotX(i) - slot * 0.3),
            y: Math.min(y, zero),
            w: round(Math.max(1, slot * 0.6)),
            h: round(Math.abs(zero - y)),
          },
        ];
      }),
      levels: p.levels.map((value) => ({ value, y: yOnScale(value, scale) })),
    };
  });
  return {
    price,
    overlays: series.overlays.map((l) => plot(l, priceScale)),
    panes,
    height: box.height + series.panes.length * PANE_HEIGHT,
  };
}

// ---- the live chart (chart.js) ------------------------------------------------------------------

/** A chart.js dataset as the live chart builds it (without its styling). */
export interface LiveDataset {
  id: string;
  kind: "candlestick" | "ohlc" | "line" | "bar";
  /** "y" for the prices, `y_<key>` for a pane. */
  axis: string;
  color: string;
  data: { x: number; y?: number; o?: number; h?: number; l?: number; c?: number }[];
}

/** The points of a line (null values left out: chart.js draws nothing there either). */
function livePoints(times: number[], values: Series) {
  return values.flatMap((v, i) => (v === null ? [] : [{ x: times[i], y: v }]));
}

/** The live chart's datasets, from the same series the SVG draws. */
export function chartjsDatasets(series: ChartSeries): LiveDataset[] {
  const times = series.candles.map((c) => c.time);
  const main: LiveDataset =
    series.type === "line"
      ? {
          id: "close",
          kind: "line",
          axis: "y",
          color: COLORS.main,
          data: series.candles.map((c) => ({ x: c.time, y: c.close })),
        }
      : {
          id: "price",
          kind: series.type === "bars" ? "ohlc" : "candlestick",
          axis: "y",
          color: COLORS.main,
          data: series.candles.map((c) => ({
            x: c.time,
            o: c.open,
            h: c.high,
            l: c.low,
            c: c.close,
          })),
        };
  const lines = (l: SeriesLine, axis: string): LiveDataset => ({
    id: l.id,
    kind: "line",
    axis,
    color: l.color,
    data: livePoints(times, l.values),
  });
  return [
    main,
    ...series.overlays.map((l) => lines(l, "y")),
    ...series.panes.flatMap((p) => [
      ...p.lines.map((l) => lines(l, `y_${p.key}`)),
      ...(p.histogram
        ? [
            {
              id: `${p.key}.histogram`,
              kind: "bar" as const,
              axis: `y_${p.key}`,
              color: COLORS.signal,
              data: livePoints(times, p.histogram),
            },
          ]
        : []),
    ]),
  ];
}
