/**
 * The quote rows' sparklines as one SVG sprite (/media/sparklines.svg): a <symbol> per instrument,
 * drawn once per set of points and shared by every page and visitor. A row's HTML is then a small
 * <svg><use href="...#s{id}"/></svg> and the page's data carries no points at all.
 *
 * Holds: a drawing uses the finished candles' closes only (the upstream's last point is the live
 * price, which the row shows beside it), so it changes when a candle ends, not on every tick; the
 * version is a digest of the drawing, so a sprite URL names one drawing and browsers may keep it; a
 * set of points is drawn once (kept with the cached answer).
 */
import crypto from "node:crypto";
import type { Sparkline } from "@contract/api/market";
import { SPARK_HEIGHT_PX, SPARK_WIDTH_PX, sparklinePath } from "~/components/Sparkline";

interface SparkSprite {
  version: string;
  svg: string;
  /** Whether each instrument's last point is at or above its first (the colour of its row). */
  upById: Map<number, boolean>;
}

const drawn = new WeakMap<Sparkline[], SparkSprite>();

/** The closes a drawing shows: every point but the live last one. */
function finished(s: Sparkline): number[] {
  return Array.isArray(s.points) ? s.points.slice(0, -1) : [];
}

function symbolOf(s: Sparkline): string {
  const { line, area } = sparklinePath(finished(s), SPARK_WIDTH_PX, SPARK_HEIGHT_PX);
  if (!line)
    return `<symbol id="s${s.forex_id}" viewBox="0 0 ${SPARK_WIDTH_PX} ${SPARK_HEIGHT_PX}"/>`;
  // Presentation attributes only (no style): the row's CSS colour reaches the drawing as currentColor.
  return (
    `<symbol id="s${s.forex_id}" viewBox="0 0 ${SPARK_WIDTH_PX} ${SPARK_HEIGHT_PX}">` +
    `<path d="${area}" fill="currentColor" fill-opacity="0.1"/>` +
    `<path d="${line}" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"/>` +
    `</symbol>`
  );
}

/** The sprite of a sparkline answer (drawn on first use, then kept with that answer). */
export function spriteOf(sparks: Sparkline[]): SparkSprite {
  const known = drawn.get(sparks);
  if (known) return known;
  const symbols = sparks
    .filter((s) => Number.isInteger(s.forex_id) && Array.isArray(s.points))
    .map(symbolOf);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join("")}</svg>`;
  const upById = new Map<number, boolean>();
  for (const s of sparks) {
    const p = finished(s);
    if (p.length >= 2) upById.set(s.forex_id, p[p.length - 1] >= p[0]);
  }
  const version = crypto.createHash("sha256").update(svg).digest("base64url").slice(0, 12);
  const sprite = { version, svg, upById };
  drawn.set(sparks, sprite);
  return sprite;
}

/** The URL of a sprite version (rows add #s{forex_id}). */
export function spriteUrl(version: string): string {
  return `/media/sparklines.svg?v=${version}`;
}
