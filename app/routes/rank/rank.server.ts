/**
 * The ranking's server side (public): follow/list, and which view is asked for: the ranking
 * (/rank) or copy trading (/rank?view=copy, the documentary tab; decision 0010).
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { followList } from "~/upstream/follow.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const view = new URL(request.url).searchParams.get("view") === "copy" ? "copy" : "rank";
  const r = await followList(caller);
  return data(
    {
      lang: caller.lang,
      view: view as "copy" | "rank",
      traders: r.ok ? r.data : [],
      notice: r.ok ? null : r.msg,
    },
    { headers: { "Cache-Control": "private, max-age=10" } },
  );
}
