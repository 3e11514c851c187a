/**
 * Home page's server side: the categories, and the instrument rows of one (or all). For a signed-in
 * user, also the watchlists: once Favourites holds an instrument it is the first tab and the one
 * shown at `/` (all instruments move to `/?list=all`); named lists with instruments are tabs too
 * (`/?list=ID`), each in its owner's order; every row carries its star.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { callerFor, failureToast } from "~/upstream/client.server";
import {
  abbreviatedCacheKline,
  getCategories,
  instrumentRows,
  tradeList,
} from "~/upstream/market.server";
import { watchlistList } from "~/upstream/watchlists.server";
import { categoryView } from "~/upstream/views";
import { companyGate } from "~/utils/company.server";

/** Which tab the page shows. */
export type HomeTab =
  | { kind: "all" }
  | { kind: "favourites" }
  | { kind: "list"; id: number }
  | { kind: "category"; id: number };

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  // A remembered company that is not open sends its visitors to its loss_url.
  await companyGate(request, caller);
  const url = new URL(request.url);
  const categoryParam = url.searchParams.get("category");
  const category = categoryParam && /^\d{1,9}$/.test(categoryParam) ? Number(categoryParam) : null;
  const listParam = url.searchParams.get("list");
  const [cats, list, sparks, watch] = await Promise.all([
    getCategories(caller),
    tradeList(caller),
    abbreviatedCacheKline(caller),
    // A stale session shows the visitor's home (no stars) rather than the sign-in page.
    caller.token ? watchlistList(caller, { init: true }) : null,
  ]);
  const instruments = list.ok ? list.data : [];
  const lists = watch?.ok ? watch.data : [];
  const favourites = lists.find((l) => l.kind === "favourites");
  const favouriteCodes = favourites ? favourites.items.map((i) => i.code) : [];
  const named = lists.filter((l) => l.kind === "custom" && l.items.length > 0);

  let tab: HomeTab = { kind: "all" };
  if (category !== null) tab = { kind: "category", id: category };
  else if (listParam && /^\d{1,12}$/.test(listParam)) tab = { kind: "list", id: Number(listParam) };
  else if (listParam !== "all" && favouriteCodes.length > 0) tab = { kind: "favourites" };

  let shown = instruments;
  if (tab.kind === "category") shown = instruments.filter((i) => i.CategoryId === category);
  else if (tab.kind !== "all") {
    // A list's instruments in its owner's order (one no longer traded is left out).
    const id = tab.kind === "list" ? tab.id : undefined;
    const chosen = tab.kind === "favourites" ? favourites : lists.find((l) => l.id === id);
    const byCode = new Map(instruments.map((i) => [i.Code, i]));
    shown = (chosen?.items ?? []).flatMap((i) => byCode.get(i.code) ?? []);
  }
  const { rows, sparkHref } = instrumentRows(shown, sparks);
  return {
    lang: caller.lang,
    tab,
    category,
    categories: cats.ok ? cats.data.map(categoryView) : [],
    /** Favourites comes first and is `/` once it holds an instrument. */
    favouritesFirst: favouriteCodes.length > 0,
    lists: named.map((l) => ({ id: l.id, name: l.name })),
    /** The stars (signed-in users only): what Favourites holds, and where a star comes back to. */
    star: watch?.ok ? { favourites: favouriteCodes, back: url.pathname + url.search } : null,
    rows,
    sparkHref,
    toast: failureToast(cats, list, sparks),
  };
}
