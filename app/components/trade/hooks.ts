/** Small hooks shared by the trading screens. */
import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
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
