/** Home page's server side: the categories, and the instrument rows of one (or all). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { callerFor, failureToast } from "~/upstream/client.server";
import {
  abbreviatedCacheKline,
  getCategories,
  instrumentRows,
  tradeList,
} from "~/upstream/market.server";
import { categoryView } from "~/upstream/views";
import { companyGate } from "~/utils/company.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  // A remembered company that is not open sends its visitors to its loss_url.
  await companyGate(request, caller);
  const url = new URL(request.url);
  const categoryParam = url.searchParams.get("category");
  const category = categoryParam && /^\d{1,9}$/.test(categoryParam) ? Number(categoryParam) : null;
  const [cats, list, sparks] = await Promise.all([
    getCategories(caller),
    tradeList(caller),
    abbreviatedCacheKline(caller),
  ]);
  const instruments = list.ok ? list.data : [];
  const { rows, sparkHref } = instrumentRows(
    instruments.filter((i) => category === null || i.CategoryId === category),
    sparks,
  );
  return {
    lang: caller.lang,
    category,
    categories: cats.ok ? cats.data.map(categoryView) : [],
    rows,
    sparkHref,
    toast: failureToast(cats, list, sparks),
  };
}
