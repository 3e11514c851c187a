import { DEFAULT_PERIOD } from "@contract/constants";

/** The trade screen's address for an instrument and a chart period (the default one left out). */
export function tradeHref(code: string, period: string): string {
  return (
    `/trade?code=${encodeURIComponent(code)}` +
    (period && period !== DEFAULT_PERIOD ? `&period=${encodeURIComponent(period)}` : "")
  );
}
