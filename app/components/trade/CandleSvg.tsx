/**
 * The candlestick chart as server-rendered SVG: the form every visitor gets (also without
 * JavaScript); after hydration LiveCandleChart draws chart.js on top and hides it.
 */
import { candleGeometry, DEFAULT_BOX, type Candle, type ChartBox } from "./candle-geometry";
import { formatChartTime, formatPrice } from "~/utils/format";

interface CandleSvgProps {
  candles: Candle[];
  period: string;
  precision: number;
  lang: string;
  /** Accessible name, e.g. "EUR/USD 1M candlestick chart". */
  title: string;
  box?: ChartBox;
  maxCandles?: number;
}

export function CandleSvg({
  candles,
  period,
  precision,
  lang,
  title,
  box = DEFAULT_BOX,
  maxCandles,
}: CandleSvgProps) {
  const g = candleGeometry(candles, box, maxCandles);
  const { width, height } = g.box;
  return (
    <svg
      className="candle-svg"
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      role="img"
      aria-label={title}
      data-testid="candle-svg"
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
      <g className="candles">
        {g.candles.map((c) => (
          <g key={c.time} className={c.up ? "candle up" : "candle down"} data-candle={c.time}>
            <line
              x1={c.cx}
              x2={c.cx}
              y1={c.yHigh}
              y2={c.yLow}
              stroke={c.up ? "#16a34a" : "#dc2626"}
              strokeWidth={1}
            />
            <rect
              className="candle-body"
              x={c.x}
              y={c.y}
              width={c.w}
              height={c.h}
              fill={c.up ? "#16a34a" : "#dc2626"}
            />
            {c.vh > 0 ? (
              <rect
                className="candle-volume"
                x={c.x}
                y={c.vy}
                width={c.w}
                height={c.vh}
                fill={c.up ? "#16a34a" : "#dc2626"}
                fillOpacity={0.35}
              />
            ) : null}
          </g>
        ))}
      </g>
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
