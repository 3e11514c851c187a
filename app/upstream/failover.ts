/**
 * The upstream nodes a web node may call (UPSTREAM_URL: one base URL, or several separated by
 * commas) and how one HTTP call picks among them.
 *
 * - Every call goes first to the URL that last answered (`current`); at first, the list's first.
 * - A call that fails before any answer moves `current` on to the next URL in the list (one move
 *   per failure of the current URL, however many calls saw it fail at once), and is itself sent to
 *   the next URL when that cannot repeat its effect:
 *   - the connection never opened (refused, no route, unknown name, connect time-out): the request
 *     was never sent, so any request moves on;
 *   - anything else (reset or closed while waiting, the answer's time-out, a proxy's 502/503/504
 *     page): the request may have reached an upstream; it moves on only when it is replayable (a
 *     GET, which changes nothing, or a call carrying an Idempotency-Key, whose repeat the upstream
 *     answers with its first answer).
 * - Each URL is tried at most once per call, each attempt with its own time-out.
 *
 * Invariant: a request that may have reached an upstream is never sent again unless replayable.
 *
 * No import from the app: server.ts loads this file directly (chat-frame.server.ts), outside the
 * Remix build.
 */

/** Failures of a connection that never opened: the request was not sent. */
const NEVER_SENT_CODES = new Set([
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** HTTP statuses a proxy in front of the upstream answers while the upstream is away. */
export const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** The base URLs of a UPSTREAM_URL value: trimmed, without trailing slashes, empty parts dropped. */
export function splitUpstreamUrls(value: string): string[] {
  return value
    .split(",")
    .map((v) => v.trim().replace(/\/+$/, ""))
    .filter(Boolean);
}

/** The system codes of a failed fetch (undici puts them on `cause`, or on its `errors`). */
function codesOf(err: unknown): string[] {
  const e = err as { code?: string; cause?: { code?: string; errors?: { code?: string }[] } };
  return [e?.cause?.code, ...(e?.cause?.errors ?? []).map((x) => x?.code), e?.code].filter(
    (c): c is string => typeof c === "string",
  );
}

/** True when a fetch failed before its connection opened (its request was never sent). */
export function neverSent(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  if (name === "TimeoutError" || name === "AbortError") return false;
  const codes = codesOf(err);
  return codes.length > 0 && codes.every((c) => NEVER_SENT_CODES.has(c));
}

/** A proxy's own answer for an absent upstream (the upstream itself always answers JSON). */
function isGatewayPage(res: Response): boolean {
  return (
    GATEWAY_STATUSES.has(res.status) &&
    !(res.headers.get("content-type") ?? "").includes("application/json")
  );
}

export interface PoolFetchOptions {
  /** A GET or a call with an Idempotency-Key: may be sent again after reaching an upstream. */
  replayable: boolean;
  /** Time-out of each attempt, ms. */
  timeoutMs: number;
}

export class UpstreamPool {
  private current = 0;

  constructor(readonly urls: readonly string[]) {
    if (urls.length === 0) throw new Error("an upstream pool needs at least one URL");
  }

  /** The URL calls go to now (the last that answered). */
  get url(): string {
    return this.urls[this.current];
  }

  /** Marks `i` as the URL that answered last. */
  private answered(i: number): void {
    this.current = i;
  }

  /** Moves on from `i` once: calls that saw the same URL fail together move one step only. */
  private failed(i: number): void {
    if (this.current === i) this.current = (i + 1) % this.urls.length;
  }

  /**
   * Fetches `target(base)` from the current URL, then, as the header says, from the next ones.
   * Resolves with the first answer (a proxy's 502/503/504 page included when no URL is left or the
   * request is not replayable); rejects with the last failure when no URL answered.
   */
  async fetch(
    target: (base: string) => string | URL,
    init: RequestInit,
    o: PoolFetchOptions,
  ): Promise<Response> {
    const start = this.current;
    const n = this.urls.length;
    let lastError: unknown = null;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const last = k === n - 1;
      let res: Response;
      try {
        res = await fetch(target(this.urls[i]), {
          ...init,
          signal: AbortSignal.timeout(o.timeoutMs),
        });
      } catch (err) {
        this.failed(i);
        lastError = err;
        if (last || !(o.replayable || neverSent(err))) throw err;
        continue;
      }
      if (isGatewayPage(res)) {
        this.failed(i);
        if (last || !o.replayable) return res;
        await res.body?.cancel().catch(() => undefined);
        continue;
      }
      this.answered(i);
      return res;
    }
    throw lastError;
  }
}
