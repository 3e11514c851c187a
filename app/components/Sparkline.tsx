/**
 * Small area chart of the last closes, drawn as SVG on the server (no JavaScript needed). Colour
 * follows the direction from the first point to the last.
 */
export const SPARK_WIDTH_PX = 84;
export const SPARK_HEIGHT_PX = 32;

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

/**
 * A quote row's sparkline: the instrument's symbol of the shared sprite (app/utils/sparklines.server.ts),
 * coloured by the row (currentColor). `href` null: no points yet, an empty frame of the same size.
 */
export function Sparkline({
  href,
  up,
  label,
}: {
  href: string | null;
  up: boolean;
  label?: string;
}) {
  return (
    <svg
      className={`spark ${up ? "up" : "down"}`}
      width={SPARK_WIDTH_PX}
      height={SPARK_HEIGHT_PX}
      viewBox={`0 0 ${SPARK_WIDTH_PX} ${SPARK_HEIGHT_PX}`}
      role="img"
      aria-label={label}
    >
      {href ? <use href={href} /> : null}
    </svg>
  );
}
