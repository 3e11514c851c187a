/**
 * A provider's page's server side (public): GET /api/follow/provider?id=. A missing, hidden or
 * unknown provider answers 404 with the translated not-found text.
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { CODE } from "@contract/envelope";
import { callerFor } from "~/upstream/client.server";
import { followProvider } from "~/upstream/follow.server";
import { getT } from "~/i18n.server";

/** The positive whole `?id=` of a request, or null. */
export function idOf(request: Request): number | null {
  const v = new URL(request.url).searchParams.get("id") ?? "";
  return /^[1-9]\d{0,11}$/.test(v) ? Number(v) : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["copy"]);
  const id = idOf(request);
  const headers = { "Cache-Control": "private, max-age=5" };
  const r = id === null ? null : await followProvider(caller, id);
  if (!r || !r.ok) {
    const missing = !r || r.code === CODE.NOT_FOUND;
    return data(
      {
        lang: caller.lang,
        title: t("copy:provider.not_found_title"),
        provider: null,
        notice: missing ? t("copy:provider.not_found") : r.msg,
      },
      { status: missing ? 404 : 200, headers },
    );
  }
  return data(
    { lang: caller.lang, title: r.data.name, provider: r.data, notice: null as string | null },
    { headers },
  );
}
