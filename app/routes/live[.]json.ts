/**
 * GET /live.json?topics=... — {topic: latestData} for the browser's polling fallback (the same
 * topics and validation as /live; private topics need a session and are left out without one).
 * FOREX_CLOSED answers the ids closed in the last minute.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getBridge } from "~/live/bridge.server";
import { readLiveRequest } from "~/live/request.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const bridge = getBridge();
  const req = await readLiveRequest(request, bridge);
  if (!req.ok) return req.response;
  const data = await bridge.snapshot(req.topics, req.user);
  return new Response(JSON.stringify(data), {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
