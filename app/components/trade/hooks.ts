/** Small hooks shared by the trading screens. */
import { useFetchers, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useEffect, useRef, useState, type MutableRefObject } from "react";

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

/**
 * While a form post from the page (a navigation or a fetcher submission) is under way, a live close
 * must only mark the page for a refresh once it is done: acting at once would abort the post's
 * redirect load (losing its toast), and the post's form may be gone already (a fetcher removed
 * mid-flight skips its redirect, so that refresh is what shows the toast then).
 * `busy.current` tells whether a post is in flight now; put what to do into `pending.current` and
 * `refresh(pending)` runs once nothing is in flight any more.
 */
export function useRefreshAfterPosts<T>(refresh: (what: T) => void): {
  busy: MutableRefObject<boolean>;
  pending: MutableRefObject<T | null>;
} {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busyNow = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle" && f.formMethod !== undefined);
  const busy = useRef(busyNow);
  busy.current = busyNow;
  const pending = useRef<T | null>(null);
  useEffect(() => {
    const what = pending.current;
    if (busyNow || what === null) return;
    pending.current = null;
    refresh(what);
  }, [busyNow, refresh]);
  return { busy, pending };
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

/** The live rows after a FOREX_TRADE push: each pushed position's current price and open profit. */
export function mergeLiveRows(
  prev: Record<number, { UpdatePrice: number; FactProfits: number }>,
  pushed: NonNullable<ForexTradePush["TransOrder"]>,
): Record<number, { UpdatePrice: number; FactProfits: number }> {
  const next = { ...prev };
  for (const r of pushed) next[r.Id] = { UpdatePrice: r.UpdatePrice, FactProfits: r.FactProfits };
  return next;
}
