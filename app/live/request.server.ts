/**
 * What the /live and /live.json routes share: topic parsing and validation (400 with a translated
 * message), and the signed-in user's id and upstream token from the session (server-side only).
 */
import { getT } from "~/i18n.server";
import { getSignedIn } from "~/utils/session.server";
import type { LiveBridge, LiveUser } from "./bridge.server";
import { klineCode } from "@contract/constants";
import { MAX_TOPICS, isPrivateTopic, parseTopics } from "./topics";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /**
     * Set by server.ts for GET /live: aborted when the browser's connection closes. Needed because
     * the request.signal a loader gets follows the adapter's through intermediate Request objects
     * that can be garbage-collected, after which it never aborts.
     */
    liveSignal?: AbortSignal;
  }
}

export type LiveRequest =
  { ok: true; topics: string[]; user: LiveUser | null } | { ok: false; response: Response };

async function bad(
  request: Request,
  key: string,
  params: Record<string, unknown>,
): Promise<Response> {
  let msg = key;
  try {
    const t = await getT(request, "live");
    msg = String(t(key, params));
  } catch {
    /* keep the key */
  }
  return new Response(JSON.stringify({ code: 400, msg }), {
    status: 400,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
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
  if (parsed.topics.some(isPrivateTopic)) {
    const s = await getSignedIn(request);
    if (s) user = { id: s.user.id, token: s.token };
  }
  return { ok: true, topics: parsed.topics, user };
}
