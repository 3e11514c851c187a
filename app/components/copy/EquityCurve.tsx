/**
 * A provider's closed equity curve ([epoch ms, USD] points, oldest first). The server renders it as
 * an inline SVG line, complete without JavaScript; after hydration chart.js is loaded by dynamic
 * import (as the trade screen's chart is) and draws the same points on a canvas, then the SVG is
 * hidden. If chart.js cannot load, the SVG stays.
 */
import { useEffect, useRef, useState } from "react";
import type { Chart as ChartType } from "chart.js";
import { formatBalance, formatCurveDate, formatDateTime } from "~/utils/format";

const W = 320;
const H = 140;
const PAD = 6;

/** The SVG polyline's points for a curve in a W×H box. Pure. */
export function curvePoints(points: [number, number][]): string {
  if (points.length === 0) return "";
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  const sx = (x: number) => (x1 === x0 ? W / 2 : PAD + ((x - x0) / (x1 - x0)) * (W - 2 * PAD));
  const sy = (y: number) => (y1 === y0 ? H / 2 : H - PAD - ((y - y0) / (y1 - y0)) * (H - 2 * PAD));
  return points.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(" ");
}

function CurveSvg({ points, title }: { points: [number, number][]; title: string }) {
  const line = curvePoints(points);
  const up = points.length < 2 || points[points.length - 1][1] >= points[0][1];
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="equity-svg"
      role="img"
      aria-label={title}
      data-testid="equity-svg"
      preserveAspectRatio="none"
    >
      <title>{title}</title>
      {points.length === 1 ? (
        <circle cx={W / 2} cy={H / 2} r={3} className={up ? "eq-up" : "eq-down"} />
      ) : (
        <polyline
          points={line}
          fill="none"
          strokeWidth={2}
          vectorEffect="non-scaling-stroke"
          className={up ? "eq-up" : "eq-down"}
        />
      )}
    </svg>
  );
}

export function EquityCurve({
  points,
  lang,
  title,
}: {
  points: [number, number][];
  lang: string;
  title: string;
}) {
  const [ready, setReady] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let cancelled = false;
    let chart: ChartType<"line"> | null = null;
    (async () => {
      try {
        const chartjs = await import("chart.js");
        if (cancelled || !canvasRef.current) return;
        const { Chart, LineController, LineElement, PointElement, LinearScale, Tooltip } = chartjs;
        Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip);
        const up = points.length < 2 || points[points.length - 1][1] >= points[0][1];
        const spanMs = points.length < 2 ? 0 : points[points.length - 1][0] - points[0][0];
        const colour = up ? "#16a34a" : "#dc2626";
        chart = new Chart(canvasRef.current, {
          type: "line",
          data: {
            datasets: [
              {
                label: title,
                data: points.map(([x, y]) => ({ x, y })),
                borderColor: colour,
                backgroundColor: colour,
                pointRadius: 0,
                borderWidth: 2,
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
                    items.length ? formatDateTime((items[0].raw as { x: number }).x, lang) : "",
                  label: (item) => formatBalance((item.raw as { y: number }).y, lang),
                },
              },
            },
            scales: {
              x: {
                type: "linear",
                ticks: {
                  maxTicksLimit: 3,
                  maxRotation: 0,
                  callback: (v) => formatCurveDate(Number(v), spanMs, lang),
                },
                grid: { display: false },
              },
              y: {
                position: "right",
                ticks: { maxTicksLimit: 5, callback: (v) => formatBalance(Number(v), lang) },
              },
            },
          },
        });
        setReady(true);
      } catch (e) {
        // chart.js could not load: the SVG stays.
        console.warn("chart.js unavailable", e);
      }
    })();
    return () => {
      cancelled = true;
      chart?.destroy();
      setReady(false);
    };
  }, [points, lang, title]);

  return (
    <div
      className={ready ? "equity-chart ready" : "equity-chart"}
      data-testid="equity-chart"
      data-chart={ready ? "chartjs" : "svg"}
    >
      <div className="equity-canvas-wrap" aria-hidden={!ready}>
        <canvas ref={canvasRef} role="img" aria-label={title} />
      </div>
      {!ready ? <CurveSvg points={points} title={title} /> : null}
    </div>
  );
}
