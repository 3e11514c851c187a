/**
 * The candlestick chart of /trade. The server renders it as SVG (CandleSvg); after hydration
 * chart.js with chartjs-chart-financial is loaded by dynamic import (only on this screen) and draws
 * on a canvas over it, then the SVG is hidden. Live: the forming candle of the shown period from
 * KLINE.{code} replaces the last candle or starts a new one (in both forms).
 */
import { useEffect, useRef, useState } from "react";
import type { Chart as ChartType } from "chart.js";
import { useLive } from "~/live/useLive";
import { formatChartTime, formatPrice } from "~/utils/format";
import { CandleSvg } from "./CandleSvg";
import { CANDLES_SHOWN as SHOWN, type Candle } from "./candle-geometry";
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

type FinPoint = { x: number; o: number; h: number; l: number; c: number };
const toPoint = (c: Candle): FinPoint => ({
  x: c.time,
  o: c.open,
  h: c.high,
  l: c.low,
  c: c.close,
});

export function LiveCandleChart({
  candles: initial,
  code,
  period,
  precision,
  lang,
  title,
  onCandle,
}: {
  candles: Candle[];
  code: string;
  period: string;
  precision: number;
  lang: string;
  title: string;
  /** Called with each live forming candle of the shown period (for the price header). */
  onCandle?: (c: Candle) => void;
}) {
  const [candles, setCandles] = useState<Candle[]>(initial);
  const [ready, setReady] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<ChartType<"candlestick", FinPoint[]> | null>(null);
  const candlesRef = useRef(candles);
  candlesRef.current = candles;

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

  // Load chart.js and the financial plugin on the client only, once per mount.
  useEffect(() => {
    let cancelled = false;
    let chart: ChartType<"candlestick", FinPoint[]> | null = null;
    (async () => {
      try {
        const [chartjs, financial] = await Promise.all([
          import("chart.js"),
          import("chartjs-chart-financial"),
          import("chartjs-adapter-date-fns"),
        ]);
        if (cancelled || !canvasRef.current) return;
        const { Chart, TimeSeriesScale, LinearScale, Tooltip } = chartjs;
        Chart.register(
          financial.CandlestickController,
          financial.CandlestickElement,
          TimeSeriesScale,
          LinearScale,
          Tooltip,
        );
        chart = new Chart(canvasRef.current, {
          type: "candlestick",
          data: {
            datasets: [
              {
                label: title,
                data: candlesRef.current.slice(-SHOWN).map(toPoint),
                borderColors: { up: "#16a34a", down: "#dc2626", unchanged: "#6b7280" },
                backgroundColors: { up: "#16a34a", down: "#dc2626", unchanged: "#6b7280" },
              },
            ],
          },
          options: {
            animation: false,
            responsive: true,
            maintainAspectRatio: false,
            locale: lang,
            plugins: {
              legend: { display: false },
              tooltip: {
                callbacks: {
                  title: (items) =>
                    items.length
                      ? formatChartTime((items[0].raw as FinPoint).x, period, lang, true)
                      : "",
                },
              },
            },
            scales: {
              x: {
                type: "timeseries",
                time: { unit: period === "1day" ? "day" : period === "60min" ? "hour" : "minute" },
                ticks: {
                  maxTicksLimit: 5,
                  maxRotation: 0,
                  source: "auto",
                  callback: (v) => formatChartTime(Number(v), period, lang),
                },
                grid: { display: false },
              },
              y: {
                position: "right",
                ticks: {
                  callback: (v) => formatPrice(Number(v), precision, lang),
                  maxTicksLimit: 6,
                },
              },
            },
          },
        }) as unknown as ChartType<"candlestick", FinPoint[]>;
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
    // The chart is rebuilt for a new period or instrument (key on the component does that too).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, period, precision, lang]);

  // Push candle changes into chart.js without re-creating it.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.data.datasets[0].data = candles.slice(-SHOWN).map(toPoint);
    chart.update("none");
  }, [candles, ready]);

  const last = candles[candles.length - 1];
  return (
    <div
      className={ready ? "candle-chart ready" : "candle-chart"}
      data-testid="candle-chart"
      data-chart={ready ? "chartjs" : "svg"}
    >
      <div className="candle-canvas-wrap" aria-hidden={!ready}>
        <canvas ref={canvasRef} role="img" aria-label={title} data-testid="candle-canvas" />
      </div>
      {!ready ? (
        <CandleSvg
          candles={candles}
          period={period}
          precision={precision}
          lang={lang}
          title={title}
          maxCandles={SHOWN}
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
