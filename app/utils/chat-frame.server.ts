/**
 * The origin the support chat may be framed from (the CSP's frame-src): the origin of basicSet's
 * service_link while service_link_type is "frame" and the link is an http(s) URL, else none. Read
 * by server.ts for every response through a short cache, so that a page the browser navigates to
 * without reloading (/mine/chat from the user centre) is allowed the same frame. Relative imports:
 * server.ts loads this file directly, outside the Remix build.
 */
import { getBasicInfo, type BasicInfo } from "../../contract/api/settings";
import { SERVICE_LINK_TYPE } from "../../contract/api/profile";
import { CODE } from "../../contract/envelope";
import { splitUpstreamUrls, UpstreamPool } from "../upstream/failover";

/**
 * How long an answer is reused by default (CHAT_FRAME_CACHE_MS); a stale one is served while the
 * next is fetched.
 */
export const CHAT_FRAME_CACHE_MS = 5_000;
const FETCH_TIMEOUT_MS = 2_000;

/** The framed origin of a basicSet answer, or null (link mode, no link, not an http(s) URL). */
export function chatFrameOrigin(
  info: Pick<BasicInfo, "service_link" | "service_link_type">,
): string | null {
  if (Number(info.service_link_type) !== SERVICE_LINK_TYPE.FRAME) return null;
  const link = String(info.service_link ?? "").trim();
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * A cache, for `cacheMs`, of the framed origin read from the upstream at `upstreamUrl()` (one base
 * URL or several separated by commas, tried in turn as the web's client does).
 */
export function chatFrameSource(upstreamUrl: () => string | undefined, cacheMs: number) {
  let value: string | null = null;
  let at = 0;
  let pending: Promise<void> | null = null;
  let pool: UpstreamPool | null = null;

  /** The pool over the current URL list (a new one when the list changed). */
  function poolOf(list: string): UpstreamPool | null {
    const urls = splitUpstreamUrls(list);
    if (urls.length === 0) return null;
    if (pool?.urls.join(",") !== urls.join(",")) pool = new UpstreamPool(urls);
    return pool;
  }

  async function refresh(): Promise<void> {
    const upstreams = poolOf(upstreamUrl() ?? "");
    if (!upstreams) return;
    try {
      const res = await upstreams.fetch(
        (base) => new URL(getBasicInfo.path, base),
        {},
        { replayable: true, timeoutMs: FETCH_TIMEOUT_MS },
      );
      const body = (await res.json()) as { code?: number; data?: BasicInfo };
      if (body.code === CODE.OK && body.data) value = chatFrameOrigin(body.data);
      at = Date.now();
    } catch {
      // Unreachable upstream: keep the last answer (none at first) and try again on the next request.
    }
  }

  return {
    /** The current origin; waits only for the very first answer. */
    async get(): Promise<string | null> {
      if (Date.now() - at > cacheMs && !pending)
        pending = refresh().finally(() => {
          pending = null;
        });
      if (at === 0 && pending) await pending;
      return value;
    },
  };
}
