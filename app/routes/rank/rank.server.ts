/**
 * The ranking's server side (public): follow/list with the sort and filters of the query (read by
 * the contract's own schema of GET /api/follow/list), which view is asked for (the ranking, /rank,
 * or copy trading, /rank?view=copy, the documentary tab; decision 0010), the categories to filter
 * by, and for a signed-in user the favourite providers (`favourites=1` keeps only them). The POST
 * stars a provider or takes its star away, and goes back to the page it came from.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { followList as followListApi } from "@contract/api/follow";
import { RANK_SORT_DEFAULT, RISK_SCORE } from "@contract/api/rank-rules";
import { ID_DIGITS, wholeField } from "@contract/fields";
import { callerFor } from "~/upstream/client.server";
import { followFavourites, followFavouriteSet, followList } from "~/upstream/follow.server";
import { getCategories } from "~/upstream/market.server";
import { categoryView } from "~/upstream/views";
import { getSignedIn, requireSignedIn, safeRedirectPath } from "~/utils/session.server";
import { readForm, refused } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";

/** The ranking's sort and filters of a request's query; defaults for what is absent or wrong. */
export function rankQueryOf(params: URLSearchParams) {
  const raw = Object.fromEntries(
    ["sort", "max_risk", "min_months", "category"].map((k) => [k, params.get(k) ?? undefined]),
  );
  const q = followListApi.query.safeParse(raw);
  return q.success
    ? q.data
    : { sort: RANK_SORT_DEFAULT, max_risk: RISK_SCORE.max, min_months: 0, category: undefined };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const url = new URL(request.url);
  const view = url.searchParams.get("view") === "copy" ? "copy" : "rank";
  const q = rankQueryOf(url.searchParams);
  const signed = await getSignedIn(request);
  const [r, cats, favs] = await Promise.all([
    followList(caller, q),
    getCategories(caller),
    signed ? followFavourites(caller) : Promise.resolve(null),
  ]);
  const favourites = favs?.ok ? favs.data : null;
  const onlyFavourites = favourites !== null && url.searchParams.get("favourites") === "1";
  const traders = r.ok ? r.data : [];
  return data(
    {
      lang: caller.lang,
      view: view as "copy" | "rank",
      query: {
        sort: q.sort,
        max_risk: q.max_risk,
        min_months: q.min_months,
        category: q.category ?? null,
        favourites: onlyFavourites,
      },
      filtered:
        q.max_risk < RISK_SCORE.max ||
        q.min_months > 0 ||
        q.category !== undefined ||
        onlyFavourites,
      traders: onlyFavourites ? traders.filter((x) => favourites.includes(x.id)) : traders,
      favourites,
      categories: cats.ok ? cats.data.map(categoryView) : [],
      notice: r.ok ? null : r.msg,
    },
    { headers: { "Cache-Control": "private, max-age=10" } },
  );
}

const starSchema = z.object({
  provider_id: wholeField(ID_DIGITS),
  on: z.enum(["0", "1"]),
  back: z.string().max(1000).optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, starSchema);
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const back = safeRedirectPath(form.value.back, "/rank");
  const to = back.startsWith("/rank") ? back : "/rank";
  const r = await followFavouriteSet(caller, form.value.provider_id, form.value.on === "1");
  if (!r.ok) return redirectWithToast(request, to, { type: "error", text: r.msg });
  return redirect(to);
}
