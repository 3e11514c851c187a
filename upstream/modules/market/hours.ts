/**
 * Market hours of trading-rules.md, in UTC, ignoring holidays:
 * - crypto: always open;
 * - fx (forex, metals, energy, indices): open from Sunday 21:00 to Friday 21:00;
 * - us_stock: Monday to Friday 14:30 - 21:00.
 * Config MARKET_ALWAYS_OPEN=1 or setting `market.always_open` = 1 keeps every market open.
 */
import type { DB } from "../../platform/db.js";
import { getSetting } from "../../platform/settings.js";

export type Session = "crypto" | "fx" | "us_stock";
export const SESSIONS: readonly Session[] = ["crypto", "fx", "us_stock"];

const FX_EDGE_MIN = 21 * 60; // 21:00 UTC
const US_OPEN_MIN = 14 * 60 + 30; // 14:30 UTC
const US_CLOSE_MIN = 21 * 60; // 21:00 UTC

/** True while a session is open at `at` (ms since epoch). */
export function sessionOpen(session: string, at: number): boolean {
  if (session === "crypto") return true;
  // Plain arithmetic (no Date): history generation asks this for every minute of a year.
  const dayNo = Math.floor(at / 86_400_000);
  const day = (((dayNo + 4) % 7) + 7) % 7; // 0 Sunday .. 6 Saturday (1970-01-01 was a Thursday)
  const min = Math.floor((at - dayNo * 86_400_000) / 60_000);
  if (session === "us_stock")
    return day >= 1 && day <= 5 && min >= US_OPEN_MIN && min < US_CLOSE_MIN;
  // fx and anything unknown follows the forex week.
  if (day === 6) return false;
  if (day === 5) return min < FX_EDGE_MIN;
  if (day === 0) return min >= FX_EDGE_MIN;
  return true;
}

/**
 * The end of the trading day that `at` falls in (ms since epoch): the next 21:00 UTC for the fx and
 * us_stock sessions (forex's daily rollover, and the US close), the next 00:00 UTC for crypto, which
 * trades around the clock. A day's end is never `at` itself: at 21:00 sharp the next day's is given.
 */
export function tradingDayEnd(session: string, at: number): number {
  const DAY = 86_400_000;
  const dayStart = Math.floor(at / DAY) * DAY;
  if (session === "crypto") return dayStart + DAY;
  const edge = dayStart + FX_EDGE_MIN * 60_000;
  return at < edge ? edge : edge + DAY;
}

/**
 * Reads the `market.always_open` setting (a prepared primary-key read, a few microseconds, so it is
 * read fresh each time and an operator's change applies at the next tick).
 * `configAlwaysOpen` (MARKET_ALWAYS_OPEN) wins when true.
 */
export function alwaysOpenReader(db: DB, configAlwaysOpen: boolean): () => boolean {
  if (configAlwaysOpen) return () => true;
  return () => {
    const value = getSetting(db, "market.always_open");
    return value !== undefined && (value === "1" || value.toLowerCase() === "true");
  };
}
