/**
 * Profit by month as bars, drawn on the server as SVG (complete without JavaScript): one bar per
 * month, up from the zero line for a gain, down for a loss, in the order of the months from the
 * reading side (the oldest at the start: left, or right in a right-to-left language). The SVG is
 * an image with a short name; the figures themselves are the table the page shows with it
 * (`describedBy`), which screen readers and people who want the numbers read.
 */
const W = 320;
const H = 150;
const TOP = 8;
const BOTTOM = 22;
const SIDE = 4;

export interface MonthBar {
  month: string;
  /** The month's net, USD (display only). */
  net: number;
}

/** Where each bar goes in a W×H box: x, width, y, height, and the zero line's y. Pure. */
export function barLayout(
  bars: readonly MonthBar[],
  rtl = false,
): { zeroY: number; rects: { x: number; y: number; w: number; h: number; up: boolean }[] } {
  const max = Math.max(0, ...bars.map((b) => b.net));
  const min = Math.min(0, ...bars.map((b) => b.net));
  const span = max - min || 1;
  const plot = H - TOP - BOTTOM;
  // Nothing won or lost: the zero line in the middle.
  const zeroY = max === min ? TOP + plot / 2 : TOP + (max / span) * plot;
  const slot = (W - 2 * SIDE) / Math.max(1, bars.length);
  const w = Math.max(2, slot * 0.62);
  const rects = bars.map((b, i) => {
    const at = rtl ? bars.length - 1 - i : i;
    const x = SIDE + at * slot + (slot - w) / 2;
    const h = (Math.abs(b.net) / span) * plot;
    return { x, y: b.net >= 0 ? zeroY - h : zeroY, w, h, up: b.net >= 0 };
  });
  return { zeroY, rects };
}

export function MonthlyBars({
  bars,
  labels,
  title,
  describedBy,
  rtl,
}: {
  bars: readonly MonthBar[];
  /** Each month's short name, in the reader's language. */
  labels: readonly string[];
  title: string;
  describedBy: string;
  rtl: boolean;
}) {
  const { zeroY, rects } = barLayout(bars, rtl);
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="stats-bars"
      role="img"
      aria-label={title}
      aria-describedby={describedBy}
      data-testid="stats-bars"
    >
      <title>{title}</title>
      <line className="axis" x1={SIDE} x2={W - SIDE} y1={zeroY} y2={zeroY} />
      {rects.map((r, i) => (
        <g key={bars[i].month} data-month={bars[i].month}>
          <rect
            x={r.x.toFixed(1)}
            y={r.y.toFixed(1)}
            width={r.w.toFixed(1)}
            height={Math.max(r.h, bars[i].net === 0 ? 0 : 1).toFixed(1)}
            className={r.up ? "bar-up" : "bar-down"}
          />
          {/* Every other month is named, so the names never overlap on a phone. */}
          {i % 2 === bars.length % 2 ? null : (
            <text x={(r.x + r.w / 2).toFixed(1)} y={H - 6} textAnchor="middle">
              {labels[i]}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}
