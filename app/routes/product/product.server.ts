/** Search page's server side: the instruments whose code or name matches. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { callerFor, failureToast } from "~/upstream/client.server";
import { abbreviatedCacheKline, instrumentRows, tradeList } from "~/upstream/market.server";
import { searchSchema } from "~/schemas/search";

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const url = new URL(request.url);
  const parsed = searchSchema.safeParse({
    searchCurrency: url.searchParams.get("searchCurrency") ?? undefined,
  });
  const q = parsed.success ? (parsed.data.searchCurrency ?? "") : "";
  const error = parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
  if (!q)
    return {
      lang: caller.lang,
      q: url.searchParams.get("searchCurrency") ?? "",
      searched: false,
      rows: [],
      error,
      toast: null,
    };
  const [list, sparks] = await Promise.all([
    tradeList(caller, { searchCurrency: q }),
    abbreviatedCacheKline(caller),
  ]);
  const rows = instrumentRows(list.ok ? list.data : [], sparks);
  return { lang: caller.lang, q, searched: true, rows, error, toast: failureToast(list) };
}
