/**
 * The price chart as server-rendered SVG: the form every visitor gets (also without JavaScript);
 * after hydration LiveCandleChart draws chart.js on top and hides it. It draws the series of
 * chart-series.ts (candles, OHLC bars, the closes' line or Heikin Ashi, the overlays, a pane per
 * oscillator), the same the live chart draws.
 */
import { DEFAULT_BOX, type CandleShape, type ChartBox } from "./candle-geometry";
import { chartGeometry, type ChartSeries, type PlotLine } from "./chart-series";
import { formatChartTime, formatPrice } from "~/utils/format";

interface CandleSvgProps {
  series: ChartSeries;
  period: string;
  precision: number;
  lang: string;
  /** Accessible name, e.g. "EUR/USD 1M candlestick chart". */
  title: string;
  /** Each pane's name by its indicator ("RSI (14)"). */
  paneLabels?: Record<string, string>;
  box?: ChartBox;
}

const UP = "#16a34a";
const DOWN = "#dc2626";

/**
 * The chart draws each kind of mark as one path per direction (rising, falling): the bodies, the
 * wicks, the OHLC bars, the volumes and a pane's histogram. A path of N subpaths draws what N
 * rects or lines would, in a few elements instead of four per candle: the page's HTML, the
 * server's rendering and the phone's hydration of /trade scale with the number of elements, and
 * the chart was 345 of the screen's 787.
 */
const DIRECTIONS = [
  { up: true, name: "up", color: UP },
  { up: false, name: "down", color: DOWN },
] as const;

/** A w × h box at (x, y) as a closed subpath: what <rect x y width height> draws. */
function boxPath(x: number, y: number, w: number, h: number): string {
  return `M${x} ${y}h${w}v${h}h${-w}Z`;
}

/** A candle's wick, from its high to its low: what a <line> at its centre draws. */
function wickPath(c: CandleShape): string {
  return `M${c.cx} ${c.yHigh}V${c.yLow}`;
}

/** An OHLC bar: the high-low line, the open's tick to the left and the close's to the right. */
function barPath(c: CandleShape): string {
  return `M${c.cx} ${c.yHigh}V${c.yLow}M${c.x} ${c.yOpen}H${c.cx}M${c.cx} ${c.yClose}H${c.x + c.w}`;
}

function Polyline({ line, width = 1.2 }: { line: PlotLine; width?: number }) {
  if (line.points.length < 2) return null;
  return (
    <polyline
      className="chart-line"
      data-line={line.id}
      points={line.points.map((p) => `${p.x},${p.y}`).join(" ")}
      fill="none"
      stroke={line.color}
      strokeWidth={width}
    />
  );
}

export function CandleSvg({
  series,
  period,
  precision,
  lang,
  title,
  paneLabels = {},
  box = DEFAULT_BOX,
}: CandleSvgProps) {
  const geo = chartGeometry(series, box);
  const g = geo.price;
  const { width, height } = g.box;
  return (
    <svg
      className="candle-svg"
      viewBox={`0 0 ${width} ${geo.height}`}
      width="100%"
      role="img"
      aria-label={title}
      data-testid="candle-svg"
      data-type={series.type}
      preserveAspectRatio="none"
    >
      <title>{title}</title>
      <g className="candle-grid">
        {g.priceLabels.map((l) => (
          <g key={`p${l.value}`}>
            <line
              x1={0}
              x2={g.plotRight}
              y1={l.pos}
              y2={l.pos}
              stroke="currentColor"
              strokeOpacity={0.12}
            />
            <text
              x={g.plotRight + 4}
              y={l.pos + 3}
              fontSize={9}
              fill="currentColor"
              fillOpacity={0.7}
            >
              {formatPrice(l.value, precision, lang)}
            </text>
          </g>
        ))}
        {g.timeLabels.map((l) => (
          <text
            key={`t${l.value}`}
            x={l.pos}
            y={height - 5}
            fontSize={9}
            textAnchor={l.pos < 16 ? "start" : l.pos > g.plotRight - 16 ? "end" : "middle"}
            fill="currentColor"
            fillOpacity={0.7}
          >
            {formatChartTime(l.value, period, lang)}
          </text>
        ))}
      </g>
      <g className="candles" data-times={g.candles.map((c) => c.time).join(" ")}>
        {series.type === "line" ? (
          <polyline
            className="chart-line"
            data-line="close"
            points={g.candles.map((c) => `${c.cx},${c.yClose}`).join(" ")}
            fill="none"
            stroke="#2563eb"
            strokeWidth={1.4}
          />
        ) : null}
        {DIRECTIONS.map(({ up, name, color }) => {
          const candles = g.candles.filter((c) => c.up === up);
          if (candles.length === 0) return null;
          const volumes = candles.filter((c) => c.vh > 0);
          return (
            <g key={name} className={`candle ${name}`}>
              {series.type === "bars" ? (
                <path
                  className="candle-bars"
                  d={candles.map(barPath).join("")}
                  stroke={color}
                  strokeWidth={1}
                  fill="none"
                />
              ) : series.type !== "line" ? (
                <>
                  <path
                    className="candle-wicks"
                    d={candles.map(wickPath).join("")}
                    stroke={color}
                    strokeWidth={1}
                  />
                  <path
                    className="candle-bodies"
                    d={candles.map((c) => boxPath(c.x, c.y, c.w, c.h)).join("")}
                    fill={color}
                  />
                </>
              ) : null}
              {volumes.length > 0 ? (
                <path
                  className="candle-volumes"
                  d={volumes.map((c) => boxPath(c.x, c.vy, c.w, c.vh)).join("")}
                  fill={color}
                  fillOpacity={0.35}
                />
              ) : null}
            </g>
          );
        })}
      </g>
      <g className="chart-overlays">
        {geo.overlays.map((l) => (
          <Polyline key={l.id} line={l} />
        ))}
      </g>
      {geo.panes.map((p) => (
        <g key={p.key} className="chart-pane" data-pane={p.key}>
          <line
            x1={0}
            x2={g.plotRight}
            y1={p.top - 4}
            y2={p.top - 4}
            stroke="currentColor"
            strokeOpacity={0.2}
          />
          <text x={2} y={p.top + 6} fontSize={9} fill="currentColor" fillOpacity={0.8}>
            {paneLabels[p.key] ?? p.key}
          </text>
          {p.levels.map((l) => (
            <g key={l.value}>
              <line
                x1={0}
                x2={g.plotRight}
                y1={l.y}
                y2={l.y}
                stroke="currentColor"
                strokeOpacity={0.15}
                strokeDasharray="2 3"
              />
              <text
                x={g.plotRight + 4}
                y={l.y + 3}
                fontSize={9}
                fill="currentColor"
                fillOpacity={0.7}
              >
                {formatPrice(l.value, 0, lang)}
              </text>
            </g>
          ))}
          {DIRECTIONS.map(({ up, name, color }) => {
            const bars = p.bars.filter((b) => b.value >= 0 === up);
            if (bars.length === 0) return null;
            return (
              <path
                key={name}
                className={`chart-histogram ${name}`}
                d={bars.map((b) => boxPath(b.x, b.y, b.w, b.h)).join("")}
                fill={color}
                fillOpacity={0.5}
              />
            );
          })}
          {p.lines.map((l) => (
            <Polyline key={l.id} line={l} />
          ))}
        </g>
      ))}
      {g.last ? (
        <g className="candle-last">
          <line
            x1={0}
            x2={g.plotRight}
            y1={g.last.y}
            y2={g.last.y}
            stroke="#2563eb"
            strokeDasharray="3 3"
            strokeWidth={0.8}
          />
          <rect
            x={g.plotRight}
            y={g.last.y - 7}
            width={g.box.axisRight}
            height={14}
            fill="#2563eb"
          />
          <text x={g.plotRight + 4} y={g.last.y + 3} fontSize={9} fill="#fff">
            {formatPrice(g.last.value, precision, lang)}
          </text>
        </g>
      ) : null}
    </svg>
  );
}
