/**
 * One copy's page's server side (login required): GET /api/follow/copy?id= with its positions and
 * skipped trades; the instruments' precisions for the prices; the copy's commands and closing one
 * copied position. An unknown copy (or another user's) is a 404 page.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { CODE } from "@contract/envelope";
import { callerFor } from "~/upstream/client.server";
import { copyDetail } from "~/upstream/follow.server";
import { tradeList } from "~/upstream/market.server";
import { instrumentView, orderView } from "~/upstream/views";
import { requireSignedIn } from "~/utils/session.server";
import { getT } from "~/i18n.server";
import { newIdempotencyKey } from "~/utils/forms.server";
import { copyAction } from "~/utils/copy-actions.server";
import { copyHref } from "~/utils/copy-href";
import { copyKeys } from "../mine.copies/copies.server";

function idOf(params: { id?: string }): number | null {
  const v = params.id ?? "";
  return /^[1-9]\d{0,11}$/.test(v) ? Number(v) : null;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["copy"]);
  const id = idOf(params);
  const headers = { "Cache-Control": "private, no-store" };
  const [r, list] = await Promise.all([
    id === null ? null : copyDetail(caller, id),
    tradeList(caller),
  ]);
  if (!r || !r.ok) {
    const missing = !r || r.code === CODE.NOT_FOUND;
    return data(
      {
        lang: caller.lang,
        title: t("copy:copy.not_found_title"),
        copy: null,
        positions: [],
        closed: [],
        precision: {} as Record<string, number>,
        keys: copyKeys(),
        closeKeys: {} as Record<number, string>,
        notice: missing ? t("copy:copy.not_found") : r.msg,
      },
      { status: missing ? 404 : 200, headers },
    );
  }
  const { positions, closed, ...rest } = r.data;
  const precision: Record<string, number> = {};
  if (list.ok) for (const i of list.data.map(instrumentView)) precision[String(i.id)] = i.precision;
  return data(
    {
      lang: caller.lang,
      title: t("copy:copy.title", { name: rest.provider_name }),
      copy: rest,
      positions: positions.map(orderView),
      closed: closed.map(orderView),
      precision,
      keys: copyKeys(),
      closeKeys: Object.fromEntries(positions.map((o) => [o.Id, newIdempotencyKey()])),
      notice: null as string | null,
    },
    { headers },
  );
}

export function action({ request, params }: ActionFunctionArgs) {
  const id = idOf(params);
  return copyAction(request, id === null ? "/mine/copies" : copyHref(id));
}
