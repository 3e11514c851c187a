/**
 * Announcements' server side (login required): one page of notice/list, or with ?id= one
 * announcement (notice/info) whose HTML is sanitised again here before it is rendered.
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { PAGE_SIZE } from "@contract/constants";
import { CODE } from "@contract/envelope";
import { callerFor } from "~/upstream/client.server";
import { noticeInfo, noticeList } from "~/upstream/content.server";
import { idParam, pageParamOf, sanitizeContent } from "~/utils/content.server";
import { requireSignedIn } from "~/utils/session.server";

const headers = { "Cache-Control": "private, no-store" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const lang = caller.lang;
  const url = new URL(request.url);
  if (url.searchParams.has("id")) {
    const id = idParam(request);
    const r = id === null ? null : await noticeInfo(caller, id);
    if (!r || !r.ok)
      return data(
        {
          lang,
          mode: "detail" as const,
          notice: r?.msg ?? "",
          detail: null,
          list: [],
          page: 1,
          pages: 0,
        },
        { status: !r || r.code === CODE.NOT_FOUND ? 404 : 200, headers },
      );
    const { content, ...rest } = r.data;
    return data(
      {
        lang,
        mode: "detail" as const,
        notice: null as string | null,
        detail: { ...rest, html: sanitizeContent(content) },
        list: [],
        page: 1,
        pages: 0,
      },
      { headers },
    );
  }
  const page = pageParamOf(request);
  const r = await noticeList(caller, page);
  if (!r.ok)
    return data(
      { lang, mode: "list" as const, notice: r.msg, detail: null, list: [], page, pages: 0 },
      { headers },
    );
  return data(
    {
      lang,
      mode: "list" as const,
      notice: null as string | null,
      detail: null,
      list: r.data.list,
      page,
      pages: Math.max(1, Math.ceil(r.data.total / PAGE_SIZE)),
    },
    { headers },
  );
}
