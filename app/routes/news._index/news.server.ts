/** The news list's server side: one page of news/list, of every category or of one. */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { PAGE_SIZE } from "@contract/constants";
import { CODE } from "@contract/envelope";
import { callerFor } from "~/upstream/client.server";
import { newsList } from "~/upstream/content.server";
import { newsPictureSrc, pageParamOf } from "~/utils/content.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const raw = new URL(request.url).searchParams.get("category_id") ?? "";
  const categoryId = /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  const page = pageParamOf(request);
  const r = await newsList(caller, { category_id: categoryId ?? undefined, page });
  const headers = { "Cache-Control": "private, max-age=30" };
  if (!r.ok)
    return data(
      { lang: caller.lang, categoryId, page, pages: 0, categories: [], items: [], notice: r.msg },
      { status: r.code === CODE.NOT_FOUND ? 404 : 200, headers },
    );
  return data(
    {
      lang: caller.lang,
      categoryId,
      page,
      pages: Math.max(1, Math.ceil(r.data.total / PAGE_SIZE)),
      categories: r.data.categories,
      items: r.data.list.map((n) => ({ ...n, picture: newsPictureSrc(n.logo) })),
      notice: null as string | null,
    },
    { headers },
  );
}
