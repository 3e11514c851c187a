/**
 * What the /live event stream (app/live/node.server.ts) and the /live.json route share: topic
 * parsing and validation (400 with a translated message), and the signed-in user's id and upstream
 * token from the session (server-side only).
 */
import { getT } from "~/i18n.server";
import { getSignedIn } from "~/utils/session.server";
import { UNAVAILABLE_RETRY_S } from "~/upstream/retry";
import type { LiveBridge, LiveUser } from "./bridge.server";
import { klineCode } from "@contract/constants";
import { MAX_TOPICS, isPrivateTopic, parseTopics } from "./topics";

type LiveRequest =
  | {
      ok: true;
      topics: string[];
      /** The user the upstream confirmed for the session's token (private topics only). */
      user: LiveUser | null;
      /** What identifies the browser's session for the per-session stream limit (null: nothing). */
      sessionKey: string | null;
    }
  | { ok: false; response: Response };

/** A JSON refusal {code, msg} with a translated message (namespace "live"). */
export async function liveRefusal(
  request: Request,
  status: number,
  key: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  let msg = key;
  try {
    const t = await getT(request, "live");
    msg = String(t(key, params));
  } catch {
    /* keep the key */
  }
  return new Response(JSON.stringify({ code: status, msg }), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      ...headers,
    },
  });
}

const bad = (request: Request, key: string, params: Record<string, unknown>) =>
  liveRefusal(request, 400, key, params);

const unavailable = (request: Request) =>
  liveRefusal(request, 503, "unavailable", {}, { "Retry-After": String(UNAVAILABLE_RETRY_S) });

/** The anti-forgery cookie's value: it identifies a browser that has no signed-in session. */
function csrfCookieOf(request: Request): string | null {
  const header = request.headers.get("Cookie") ?? "";
  const m = /(?:^|;\s*)(?:__Host-)?tp_csrf=([^;]+)/.exec(header);
  return m ? `csrf:${m[1]}` : null;
}

export async function readLiveRequest(request: Request, bridge: LiveBridge): Promise<LiveRequest> {
  const url = new URL(request.url);
  const parsed = parseTopics(url.searchParams.getAll("topics").join(","));
  if (!parsed.ok) {
    const key =
      parsed.reason === "missing"
        ? "topics_missing"
        : parsed.reason === "too_many"
          ? "topics_too_many"
          : "topics_unknown";
    return {
      ok: false,
      response: await bad(request, key, { topic: parsed.topic ?? "", max: MAX_TOPICS }),
    };
  }
  for (const t of parsed.topics) {
    const code = klineCode(t);
    if (code === null) continue;
    if ((await bridge.knownCode(code)) === false)
      return { ok: false, response: await bad(request, "code_unknown", { code }) };
  }
  let user: LiveUser | null = null;
  let token: string | null = null;
  if (parsed.topics.some(isPrivateTopic)) {
    const s = await getSignedIn(request);
    token = s?.token ?? null;
    // The channel follows the user the upstream confirms for the token, not the cookie's summary.
    const confirmed = token ? await bridge.confirmUser(token) : null;
    if (confirmed === "unknown") return { ok: false, response: await unavailable(request) };
    user = confirmed;
  }
  return { ok: true, topics: parsed.topics, user, sessionKey: token ?? csrfCookieOf(request) };
}
