/**
 * Admission of a browser event stream (GET /live, served by the plain Node handler of
 * app/live/node.server.ts): the topics and the confirmed user of the request, and a slot within
 * LIVE_MAX_PER_SESSION / LIVE_MAX_PER_IP.
 */
import type { LiveBridge, LiveUser } from "./bridge.server";
import { getStreamLimits } from "./limits.server";
import { liveRefusal, readLiveRequest } from "./request.server";

/** Seconds a refused browser is asked to wait before opening another stream. */
const LIMITED_RETRY_S = 30;

/** Headers of an accepted event stream. */
export const LIVE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  "X-Content-Type-Options": "nosniff",
  Connection: "keep-alive",
};

type Admission =
  | { ok: false; response: Response }
  | { ok: true; topics: string[]; user: LiveUser | null; release: () => void };

export async function admitLive(
  request: Request,
  clientIp: string,
  bridge: LiveBridge,
): Promise<Admission> {
  const req = await readLiveRequest(request, bridge);
  if (!req.ok) return { ok: false, response: req.response };
  const slot = getStreamLimits().admit(clientIp || "unknown", req.sessionKey);
  if (!slot.ok)
    return {
      ok: false,
      response: await liveRefusal(
        request,
        429,
        slot.reason === "session" ? "too_many_streams_session" : "too_many_streams_ip",
        { max: slot.limit },
        { "Retry-After": String(LIMITED_RETRY_S) },
      ),
    };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    slot.release();
  };
  return { ok: true, topics: req.topics, user: req.user, release };
}
