/**
 * Online support's server side: basicSet's service_link. Frame mode (service_link_type 1 and an
 * http(s) link) embeds it (server.ts allows its origin in the CSP's frame-src); link mode, or a
 * link that cannot be framed, shows a link that opens it; no link, the "not available" message.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { getBasicInfo } from "~/upstream/settings.server";
import { requireSignedIn } from "~/utils/session.server";
import { chatFrameOrigin } from "~/utils/chat-frame.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const info = await getBasicInfo(caller);
  if (!info.ok) return { mode: "none" as const, link: null, toast: null, failed: info.msg };
  const link = String(info.data.service_link ?? "").trim();
  let safe: string | null = null;
  try {
    const url = new URL(link);
    if (url.protocol === "https:" || url.protocol === "http:") safe = url.href;
  } catch {
    safe = null;
  }
  if (!safe) return { mode: "none" as const, link: null, toast: null, failed: null };
  return {
    mode: chatFrameOrigin(info.data) ? ("frame" as const) : ("link" as const),
    link: safe,
    toast: null,
    failed: null,
  };
}
