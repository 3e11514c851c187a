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
  const busyNow =
    navigation.state !== "idle" ||
    fetchers.some((f) => f.state !== "idle" && f.formMethod !== undefined);
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
