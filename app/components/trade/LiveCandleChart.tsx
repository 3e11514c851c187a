/**
 * The price chart of /trade (the user's chart type, overlays and panes: chart-series.ts). The
 * server renders it as SVG (CandleSvg), which React keeps drawing after hydration. Live: the forming
 * candle of the shown period from KLINE.{code} replaces the last candle or starts a new one (in
 * both forms).
 *
 * chart.js with chartjs-chart-financial (tooltips, a crosshair over the candles) is loaded by
 * dynamic import when the user first reaches for the chart (a pointer over it or a touch on it) and
 * then draws on a canvas over the SVG, which is hidden. Not before: building and redrawing
 * chart.js's canvas on every tick costs a slow phone 50-250 ms of main thread each time, which
 * the SVG's live candle does not (decision 0011), and the screen answers a tap at once.
 */
import { memo, useEffect, useMemo, useRef, useState } from "react";
import type { Chart as ChartType } from "chart.js";
import { useLive } from "~/live/useLive";
import { formatChartTime, formatPrice } from "~/utils/format";
import { CandleSvg } from "./CandleSvg";
import { CANDLES_SHOWN as SHOWN, type Candle } from "./candle-geometry";
import { chartSeries, chartjsDatasets, type ChartSeries, type LiveDataset } from "./chart-series";
import type { ChartSettings } from "@contract/api/chart-rules";
import { klineTopic } from "@contract/constants";
import { liveCandle } from "~/upstream/views";

const MAX_CANDLES = 300;

/** Merges a forming candle into a series (same time replaces, a later one appends). Pure. */
function mergeCandle(series: Candle[], c: Candle): Candle[] {
  const last = series[series.length - 1];
  if (last && last.time === c.time) return [...series.slice(0, -1), c];
  if (last && c.time < last.time) return series;
  const next = [...series, c];
  return next.length > MAX_CANDLES ? next.slice(next.length - MAX_CANDLES) : next;
}

type Point = LiveDataset["data"][number];
type AnyChart = ChartType<"candlestick", Point[]>;

/** The chart.js datasets of the series, styled (the points are chartjsDatasets'). */
function datasetsOf(series: ChartSeries, label: (id: string) => string) {
  return chartjsDatasets(series).map((d) => {
    const common = { label: label(d.id), data: d.data, yAxisID: d.axis };
    if (d.kind === "candlestick" || d.kind === "ohlc")
      return {
        ...common,
        type: d.kind,
        borderColors: { up: UP, down: DOWN, unchanged: "#6b7280" },
        backgroundColors: { up: UP, down: DOWN, unchanged: "#6b7280" },
        color: { up: UP, down: DOWN, unchanged: "#6b7280" },
      };
    if (d.kind === "bar")
      return {
        ...common,
        type: "bar" as const,
        backgroundColor: d.color + "80",
        barPercentage: 0.6,
      };
    return {
      ...common,
      type: "line" as const,
      borderColor: d.color,
      borderWidth: d.id === "close" ? 1.4 : 1.2,
      pointRadius: 0,
      spanGaps: false,
    };
  });
}

/** The price scale and one stacked scale per pane below it (chart.js stacks scales by `stack`). */
function scalesOf(series: ChartSeries, period: string, precision: number, lang: string) {
  const panes = Object.fromEntries(
    series.panes.map((p) => [
      `y_${p.key}`,
      {
        position: "right" as const,
        stack: "chart",
        stackWeight: 1,
        offset: true,
        ...(p.range ? { min: p.range[0], max: p.range[1] } : {}),
        ticks: {
          maxTicksLimit: 3,
          callback: (v: string | number) => formatPrice(Number(v), 2, lang),
        },
      },
    ]),
  );
  return {
    x: {
      type: "timeseries" as const,
      time: { unit: timeUnit(period) },
      ticks: {
        maxTicksLimit: 5,
        maxRotation: 0,
        source: "auto" as const,
        callback: (v: string | number) => formatChartTime(Number(v), period, lang),
      },
      grid: { display: false },
    },
    y: {
      position: "right" as const,
      stack: "chart",
      stackWeight: 3,
      ticks: {
        callback: (v: string | number) => formatPrice(Number(v), precision, lang),
        maxTicksLimit: 6,
      },
    },
    ...panes,
  };
}

function timeUnit(period: string): "minute" | "hour" | "day" | "week" | "month" {
  if (period === "1mon") return "month";
  if (period === "1week") return "week";
  if (period === "1day") return "day";
  return period === "60min" || period === "4hour" ? "hour" : "minute";
}

const UP = "#16a34a";
const DOWN = "#dc2626";

/**
 * Memoised: the trade screen renders again on every live price; the chart follows its own candles
 * (KLINE) and renders again only for them or a new page.
 */
export const LiveCandleChart = memo(LiveCandleChartView);

function LiveCandleChartView({
  candles: initial,
  settings,
  code,
  period,
  precision,
  lang,
  title,
  labels,
  onCandle,
}: {
  /** The candles received: the shown ones and those before them that warm the indicators up. */
  candles: Candle[];
  settings: ChartSettings;
  code: string;
  period: string;
  precision: number;
  lang: string;
  title: string;
  /** The names of the series' lines and panes (the tooltip, the SVG's pane titles). */
  labels: { line: (id: string) => string; panes: Record<string, string> };
  /** Called with each live forming candle of the shown period (for the price header). */
  onCandle?: (c: Candle) => void;
}) {
  const [candles, setCandles] = useState<Candle[]>(initial);
  const [ready, setReady] = useState(false);
  // The user reached for the chart: chart.js is loaded and drawn from then on.
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  const boxRef = useRef<HTMLDivElement>(null);
  // A pointer that came over the chart before the page was hydrated sent its pointerenter to no
  // handler: the chart is wanted as soon as the page can tell.
  useEffect(() => {
    if (boxRef.current?.matches(":hover")) setWanted(true);
  }, []);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<AnyChart | null>(null);
  const series = useMemo(() => chartSeries(candles, settings, SHOWN), [candles, settings]);
  const seriesRef = useRef(series);
  seriesRef.current = series;

  // A new instrument or period: start again from the server's candles.
  useEffect(() => {
    setCandles(initial);
  }, [initial]);

  useLive([klineTopic(code)], (_topic, data) => {
    const candle = liveCandle(data, period);
    if (!candle) return;
    setCandles((s) => mergeCandle(s, candle));
    onCandle?.(candle);
  });

  // Load chart.js and the financial plugin on the client only, once the chart is wanted.
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    let chart: AnyChart | null = null;
    (async () => {
      try {
        const [chartjs, financial] = await Promise.all([
          import("chart.js"),
          import("chartjs-chart-financial"),
          import("chartjs-adapter-date-fns"),
        ]);
        if (cancelled || !canvasRef.current) return;
        const c = chartjs;
        c.Chart.register(
          financial.CandlestickController,
          financial.CandlestickElement,
          financial.OhlcController,
          financial.OhlcElement,
          c.LineController,
          c.LineElement,
          c.PointElement,
          c.BarController,
          c.BarElement,
          c.TimeSeriesScale,
          c.LinearScale,
          c.Tooltip,
        );
        const s = seriesRef.current;
        chart = new c.Chart(canvasRef.current, {
          type: "candlestick",
          data: { datasets: datasetsOf(s, labels.line) as never },
          options: {
            animation: false,
            responsive: true,
            maintainAspectRatio: false,
            locale: lang,
            plugins: {
              legend: { display: false },
              tooltip: {
                mode: "index",
                intersect: false,
                callbacks: {
                  title: (items) =>
                    items.length
                      ? formatChartTime((items[0].raw as Point).x, period, lang, true)
                      : "",
                },
              },
            },
            scales: scalesOf(s, period, precision, lang) as never,
          },
        }) as unknown as AnyChart;
        chartRef.current = chart;
        setReady(true);
      } catch (e) {
        // chart.js could not load: the SVG stays (it is updated live too).
        console.warn("chart.js unavailable", e);
      }
    })();
    return () => {
      cancelled = true;
      chart?.destroy();
      chartRef.current = null;
      setReady(false);
    };
    // The chart is rebuilt for a new period, instrument or choice (its key does that too).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, code, period, precision, lang, settings]);

  // Push the series' changes into chart.js without re-creating it.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chartjsDatasets(series).forEach((d, i) => {
      const ds = chart.data.datasets[i];
      if (ds) ds.data = d.data;
    });
    chart.update("none");
  }, [series, ready]);

  const last = candles[candles.length - 1];
  return (
    <div
      className={ready ? "candle-chart ready" : "candle-chart"}
      data-panes={series.panes.length}
      data-testid="candle-chart"
      data-chart={ready ? "chartjs" : "svg"}
      ref={boxRef}
      onPointerEnter={wanted ? undefined : want}
      onPointerMove={wanted ? undefined : want}
      onPointerDown={wanted ? undefined : want}
    >
      <div className="candle-canvas-wrap" aria-hidden={!ready}>
        <canvas ref={canvasRef} role="img" aria-label={title} data-testid="candle-canvas" />
      </div>
      {!ready ? (
        <CandleSvg
          series={series}
          period={period}
          precision={precision}
          lang={lang}
          title={title}
          paneLabels={labels.panes}
        />
      ) : null}
      {last ? (
        <p className="sr-only" aria-live="off">
          {formatPrice(last.close, precision, lang)}
        </p>
      ) : null}
    </div>
  );
}
