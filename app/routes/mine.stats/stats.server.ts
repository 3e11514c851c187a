/**
 * /mine/stats' server side: the signed-in account's own statistics (the upstream's, from the same
 * sums of closed positions as the ranking), for the account signed in to: the real one, or the
 * demo one, never the two mixed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { ownStats } from "~/upstream/statements.server";
import { requireSignedIn } from "~/utils/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const r = await ownStats(caller);
  return {
    lang: caller.lang,
    stats: r.ok ? r.data : null,
    notice: r.ok ? null : r.msg,
  };
}
