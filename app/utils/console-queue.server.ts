/** The server side the deposit and withdrawal queues share: the tab and page asked for, one page. */
import { data } from "@remix-run/node";
import { PAGE_SIZE } from "@contract/constants";
import type { AdminPage } from "@contract/api/admin";
import type { UpstreamResult } from "~/upstream/client.server";
import type { Ctx } from "~/upstream/operator.server";
import { requireOperator } from "~/utils/operator-session.server";
import { pageParam, statusParam } from "~/utils/console";
import { detectLang } from "~/i18n.server";

/** Loads one page of a queue's status tab (`tabs`: the statuses in order, the first the default). */
export async function loadQueue<T, V, E extends Record<string, unknown> = Record<never, never>>(
  request: Request,
  tabs: readonly (readonly [number, string])[],
  fetchPage: (ctx: Ctx, status: number, page: number) => Promise<UpstreamResult<AdminPage<T>>>,
  view: (item: T) => V,
  /** More of the page's data, given the signed-in operator. */
  extra?: (op: { name: string }) => E,
) {
  const op = await requireOperator(request);
  const url = new URL(request.url);
  const status = statusParam(
    url,
    tabs.map(([s]) => s),
  );
  const page = pageParam(url);
  const r = await fetchPage({ request, op }, status, page);
  const list = r.ok ? r.data : { data: [], total: 0 };
  return data(
    {
      lang: await detectLang(request),
      status,
      page,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      total: list.total,
      items: list.data.map(view),
      notice: r.ok ? null : r.msg,
      ...((extra?.(op) ?? {}) as E),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
