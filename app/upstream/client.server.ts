/**
 * The one server-side client of the upstream API (product-spec.md section 7).
 *
 * - headers `lang` and `authorization` (the session's token);
 * - GET and DELETE carry the timestamp parameter `t`; POST sends a form-urlencoded body;
 * - the envelope {code, msg, data} becomes a typed UpstreamResult;
 * - code 999 (session invalid) destroys the session and redirects to /login?from=PATH, unless the
 *   call is flagged `init` (an initialisation call, whose 999 is simply returned);
 * - an unreachable upstream (no connection, a time-out, or a proxy's 502/503/504 without an
 *   envelope) throws a 503 response that the root ErrorBoundary renders as the translated
 *   "temporarily unavailable" page, with Retry-After. Calls flagged `soft` get a result with
 *   `network: true` and the error code (ECONNREFUSED ...) as its message instead (background work
 *   such as the live bridge's revalidation and the logout retry).
 * - with several upstream nodes (UPSTREAM_URL a comma-separated list), a call goes to the one that
 *   last answered and moves on to the next when its connection fails (app/upstream/failover.ts); a
 *   call that may have reached an upstream is sent again only when replayable: a GET, or a call
 *   carrying an idempotency key (`idempotencyKey`, sent as the Idempotency-Key header).
 */
import type { ZodTypeAny } from "zod";
import type { EndpointDef } from "@contract/api/endpoint";
import { AnswerDriftError, checkAnswer, fieldUnder } from "@contract/check";
import { IDEMPOTENCY_HEADER } from "@contract/constants";
import { redirect } from "@remix-run/node";
import { env, upstreamPool, upstreamTimeoutMs } from "~/utils/env.server";
import { CODE } from "@contract/envelope";
import { UNAVAILABLE_RETRY_S } from "./retry";
import { GATEWAY_STATUSES } from "./failover";
import { detectLang } from "../i18n.server";
import { markUncacheable } from "~/utils/visitor-page-cache.server";
import {
  getSession,
  commitSession,
  loginUrl,
  pathOf,
  type AppSession,
} from "~/utils/session.server";

import type { Envelope } from "@contract/envelope";

export type UpstreamResult<T> =
  | { ok: true; code: 1; msg: string; data: T }
  | { ok: false; code: number; msg: string; data: null; network?: boolean };

export type Params = Record<string, string | number | boolean | null | undefined>;

/** Who calls: the request being served (for its session, language and path). */
export interface Caller {
  request: Request;
  lang: string;
  token: string | null;
  session: AppSession;
}

export async function callerFor(request: Request): Promise<Caller> {
  const session = await getSession(request);
  return { request, lang: await detectLang(request), token: session.get("token") ?? null, session };
}

export interface CallOptions {
  /** An initialisation call: code 999 is returned instead of redirecting to /login. */
  init?: boolean;
  /** Sent as the Idempotency-Key header. */
  idempotencyKey?: string;
  /** Overrides the caller's token (e.g. right after login). */
  token?: string | null;
  /** A multipart body (uploads); otherwise POST bodies are form-urlencoded. */
  body?: FormData;
  /** Abort each attempt after this many milliseconds (default UPSTREAM_TIMEOUT_MS or 15 s). */
  timeoutMs?: number;
  /** An unreachable upstream is returned as a `network` result instead of thrown as a 503. */
  soft?: boolean;
  /**
   * The contract's schema of a successful answer's data (`send` passes the endpoint's): with
   * CHECK_ANSWERS on, an answer that does not match it is refused as the upstream being
   * unavailable (the 503 page) and logged with the endpoint and the field, instead of a page
   * drawn from data it does not understand.
   */
  answer?: ZodTypeAny;
}

/** What a page's loader or action throws while the upstream cannot be reached. */
function upstreamUnavailable(code: string): Response {
  // The cause stays in the server's log: the page and its hydration data name no internal error.
  console.warn(JSON.stringify({ svc: "web", msg: "upstream unavailable", code }));
  return new Response(JSON.stringify({ unavailable: true }), {
    status: 503,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(UNAVAILABLE_RETRY_S),
    },
  });
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

function clean(params: Params): [string, string][] {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => [k, String(v)]);
}

/** The error code of a failed fetch (undici puts the system code on `cause`). */
export function networkErrorCode(err: unknown): string {
  const e = err as {
    name?: string;
    code?: string;
    cause?: { code?: string; name?: string; errors?: { code?: string }[] };
  };
  if (e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError") return "ETIMEDOUT";
  if (e?.name === "AbortError") return "ERR_CANCELED";
  return e?.cause?.code || e?.cause?.errors?.[0]?.code || e?.code || "ERR_NETWORK";
}

/** Checks the shape of a decoded body and turns it into a result. */
export function toResult<T>(body: unknown, httpStatus = 200): UpstreamResult<T> {
  if (
    body &&
    typeof body === "object" &&
    "code" in body &&
    typeof (body as Envelope).code === "number"
  ) {
    const env = body as Envelope<T>;
    const msg = typeof env.msg === "string" ? env.msg : "";
    if (env.code === CODE.OK) return { ok: true, code: 1, msg, data: env.data as T };
    return { ok: false, code: env.code, msg: msg || `HTTP ${httpStatus}`, data: null };
  }
  return {
    ok: false,
    code: httpStatus >= 400 ? httpStatus : 500,
    msg: `HTTP ${httpStatus}`,
    data: null,
  };
}

/** The redirect that ends an invalid session: fresh session (token dropped) with a toast. */
async function sessionEndedRedirect(caller: Caller, msg: string): Promise<Response> {
  const fresh = await getSession(new Request("http://x/"));
  fresh.flash("toast", { type: "error", text: msg });
  return redirect(loginUrl(pathOf(caller.request)), {
    headers: { "Set-Cookie": await commitSession(fresh) },
  });
}

export async function call<T>(
  caller: Caller,
  method: Method,
  path: string,
  params: Params = {},
  opts: CallOptions = {},
): Promise<UpstreamResult<T>> {
  const result = await callOnce<T>(caller, method, path, params, opts);
  // A page made with a failed or refused answer is not kept for other visitors.
  if (!result.ok) markUncacheable();
  return result;
}

async function callOnce<T>(
  caller: Caller,
  method: Method,
  path: string,
  params: Params,
  opts: CallOptions,
): Promise<UpstreamResult<T>> {
  const headers: Record<string, string> = { lang: caller.lang, accept: "application/json" };
  const token = opts.token !== undefined ? opts.token : caller.token;
  if (token) headers.authorization = token;
  if (opts.idempotencyKey) headers[IDEMPOTENCY_HEADER] = opts.idempotencyKey;
  // Set by server.ts from the connection (never from the browser): the upstream limits per client.
  const clientIp = caller.request.headers.get("x-tradepost-client-ip");
  if (clientIp) headers["X-Forwarded-For"] = clientIp;
  // The browser's own User-Agent: the upstream names a session's device by it (the session list).
  const agent = caller.request.headers.get("user-agent");
  if (agent) headers["user-agent"] = agent;
  const query = method === "GET" || method === "DELETE";
  let body: string | FormData | undefined;
  if (!query && opts.body) body = opts.body;
  else if (!query) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(clean(params)).toString();
  }
  // Each attempt's own URL: the base of the node tried, the parameters and the timestamp `t`.
  const target = (base: string) => {
    const url = new URL(base + path);
    if (query) {
      for (const [k, v] of clean(params)) url.searchParams.set(k, v);
      url.searchParams.set("t", String(Date.now()));
    }
    return url;
  };

  let res: Response;
  try {
    res = await upstreamPool().fetch(
      target,
      { method, headers, body },
      {
        replayable: method === "GET" || Boolean(opts.idempotencyKey),
        timeoutMs: opts.timeoutMs ?? upstreamTimeoutMs(),
      },
    );
  } catch (err) {
    const code = networkErrorCode(err);
    if (!opts.soft) throw upstreamUnavailable(code);
    return { ok: false, code: 0, msg: code, data: null, network: true };
  }
  let decoded: unknown = null;
  try {
    decoded = await res.json();
  } catch {
    decoded = null;
  }
  const result = toResult<T>(decoded, res.status);
  if (!result.ok && decoded === null && GATEWAY_STATUSES.has(res.status)) {
    const code = `HTTP ${res.status}`;
    if (!opts.soft) throw upstreamUnavailable(code);
    return { ok: false, code: 0, msg: code, data: null, network: true };
  }
  if (!result.ok && result.code === CODE.SESSION_INVALID && !opts.init) {
    throw await sessionEndedRedirect(caller, result.msg);
  }
  if (result.ok && opts.answer && env().checkAnswers) {
    const drift = answerDrift(opts.answer, result.data);
    if (drift) {
      console.error(
        JSON.stringify({
          svc: "web",
          msg: "upstream answer drifts from the contract",
          endpoint: `${method} ${path}`,
          ...drift,
        }),
      );
      if (!opts.soft) throw upstreamUnavailable("contract");
      return { ok: false, code: 0, msg: "contract", data: null, network: true };
    }
  }
  return result;
}

/** Where `data` does not match `schema`, read tolerantly: the first field and why; null if none. */
function answerDrift(schema: ZodTypeAny, data: unknown): { field: string; detail: string } | null {
  try {
    checkAnswer("", schema, data, { strict: false });
    return null;
  } catch (err) {
    if (!(err instanceof AnswerDriftError)) throw err;
    return { field: fieldUnder("data", err.field), detail: err.detail };
  }
}

/** Calls a contract endpoint: method and path come from its definition (contract/api/). */
export const send = <T>(
  c: Caller,
  def: Pick<EndpointDef, "method" | "path" | "data">,
  params?: Params,
  opts?: CallOptions,
) => call<T>(c, def.method, def.path, params, def.data ? { ...opts, answer: def.data } : opts);
export const get = <T>(c: Caller, path: string, params?: Params, opts?: CallOptions) =>
  call<T>(c, "GET", path, params, opts);

/** The data of a result, or a fallback when it failed (for lists a page can render empty). */
export function dataOr<T>(r: UpstreamResult<T>, fallback: T): T {
  return r.ok ? r.data : fallback;
}

/** The toast a page shows for a failed load (the upstream's message, or the network error code). */
export function failureToast(
  ...results: UpstreamResult<unknown>[]
): { type: "error"; text: string } | null {
  const bad = results.find((r) => !r.ok);
  return bad ? { type: "error", text: bad.msg } : null;
}
