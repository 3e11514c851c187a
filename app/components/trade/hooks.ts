/** Small hooks shared by the trading screens. */
import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useEffect, useState } from "react";

/** The interface language (our code: en, hk, jp ...), for number formatting. */
export function useLang(): string {
  const root = useRouteLoaderData<{ lang?: string }>("root");
  const { i18n } = useTranslation();
  return root?.lang ?? i18n.language ?? "en";
}

/** False during server rendering and the first client render, true once hydrated. */
export function useHydrated(): boolean {
  const [h, setH] = useState(false);
  useEffect(() => setH(true), []);
  return h;
}

/** The FOREX_TRADE push (trade-wide account values and per-position profit). */
export interface ForexTradePush {
  ProfitsTotal?: number;
  HazardRate?: number | null;
  CautionMoneyAll?: number;
  Balance?: number;
  Total?: number;
  CanUse?: number;
  MarginCall?: boolean;
  TransOrder?: { Id: number; UpdatePrice: number; FactProfits: number }[];
}

/** Quote fields of a DAY_MARKET item. */
export interface DayMarketItem {
  Id: number;
  Code: string;
  Close: number;
  Open: number;
  High: number;
  Low: number;
  Volume: number;
  Change: number;
  Time: number;
  MarketStatus: number;
}
