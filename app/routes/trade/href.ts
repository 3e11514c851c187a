/** The trade screen's address for an instrument and a chart period (1min, the default, left out). */
export function tradeHref(code: string, period: string): string {
  return `/trade?code=${encodeURIComponent(code)}` + (period && period !== "1min" ? `&period=${encodeURIComponent(period)}` : "");
}
