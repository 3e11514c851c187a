/**
 * Small area chart of the last closes, rendered as SVG on the server (no JavaScript needed).
 * Colour follows the direction from the first point to the last.
 */
export interface SparklineProps {
  points: number[];
  width?: number;
  height?: number;
  code?: string;
  label?: string;
}

export function sparklinePath(
  points: number[],
  width: number,
  height: number,
  pad = 2,
): { line: string; area: string } {
  const pts = points.filter((p) => Number.isFinite(p));
  if (pts.length < 2) return { line: "", area: "" };
  let min = Math.min(...pts);
  let max = Math.max(...pts);
  if (max === min) {
    max += 1;
    min -= 1;
  }
  const stepX = (width - pad * 2) / (pts.length - 1);
  const y = (v: number) => pad + (height - pad * 2) * (1 - (v - min) / (max - min));
  const coords = pts.map((v, i) => `${(pad + i * stepX).toFixed(1)},${y(v).toFixed(1)}`);
  const line = `M${coords.join("L")}`;
  const area = `${line}L${(pad + (pts.length - 1) * stepX).toFixed(1)},${height - pad}L${pad},${height - pad}Z`;
  return { line, area };
}

export function Sparkline({ points, width = 84, height = 32, code, label }: SparklineProps) {
  const { line, area } = sparklinePath(points, width, height);
  const up = points.length < 2 || points[points.length - 1] >= points[0];
  return (
    <svg
      className={`spark ${up ? "up" : "down"}`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      data-live-spark={code}
    >
      {line ? (
        <>
          <path d={area} className="spark-area" />
          <path d={line} className="spark-line" fill="none" />
        </>
      ) : null}
    </svg>
  );
}
