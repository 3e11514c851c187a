/**
 * A standby node's answer to what only the leader may serve: the request is sent on to the leader
 * (its URL from the `cluster_leader` row) and the leader's answer is relayed as it came. Commands
 * (every call that is not a read) and the reads of the engine's memory go this way; the leader
 * answers a command only once it is committed, so the relayed answer is an acknowledgement.
 *
 * When the leader cannot be reached (it died and the standby has not yet taken over), the answer
 * is HTTP 503 with the translated "leader_unavailable" refusal: nothing was done, or, when the
 * leader died after receiving it, a retry with the same idempotency key gets the first answer.
 *
 * The client's address travels on in X-Forwarded-For (the leader must trust the standby nodes as
 * proxies: UPSTREAM_TRUST_PROXY), so the leader's abuse limits count the client, not the standby.
 *
 * A request is forwarded at most once (FORWARDED_HEADER marks it): a standby that receives one
 * already forwarded answers 503 instead of sending it on, so a stale leader row that names a
 * standby (or this very node under a new name after a restart) can never make requests circle.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { CODE } from "@contract/envelope";
import { translate } from "../i18n.js";

/** Headers that describe one connection, never sent on. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "host",
  "content-length",
]);

/** Marks a request a standby sent on to the leader (its node's name as the value). */
export const FORWARDED_HEADER = "x-tradepost-forwarded-by";

/** How long a forwarded call may wait for the leader's answer (ms). */
export const FORWARD_TIMEOUT_MS = 30_000;

export type LeaderUrlOf = () => string | null;

/** The body to send on: the raw stream of a multipart upload, else the parsed body re-encoded. */
function bodyOf(req: FastifyRequest): { body?: BodyInit; type?: string } {
  if (req.method === "GET" || req.method === "HEAD") return {};
  const type = String(req.headers["content-type"] ?? "");
  if (type.startsWith("multipart/")) return { body: req.raw as unknown as BodyInit, type };
  if (req.body === undefined || req.body === null) return {};
  if (type.startsWith("application/json"))
    return { body: JSON.stringify(req.body), type: "application/json" };
  if (typeof req.body === "string") return { body: req.body, type };
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(req.body as Record<string, unknown>))
    for (const one of Array.isArray(v) ? v : [v]) form.append(k, String(one));
  return { body: form.toString(), type: "application/x-www-form-urlencoded" };
}

function headersOf(req: FastifyRequest, type: string | undefined): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(k) || v === undefined || k === "content-type") continue;
    h.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  if (type) h.set("content-type", type);
  const prior = req.headers["x-forwarded-for"];
  h.set(
    "x-forwarded-for",
    prior
      ? `${String(prior)}, ${req.socket.remoteAddress}`
      : String(req.socket.remoteAddress ?? ""),
  );
  return h;
}

function withHeader(h: Headers, name: string, value: string): Headers {
  h.set(name, value);
  return h;
}

/**
 * Sends the request to the leader and relays its answer (503 when it cannot be reached, or when
 * the request was forwarded to this node already). `node`: this node's name, in FORWARDED_HEADER.
 */
export async function forwardToLeader(
  leaderUrl: LeaderUrlOf,
  req: FastifyRequest,
  reply: FastifyReply,
  node = "standby",
): Promise<void> {
  const base = req.headers[FORWARDED_HEADER] === undefined ? leaderUrl() : null;
  const unavailable = () =>
    reply
      .status(503)
      .header("retry-after", "2")
      .send({ code: CODE.FAIL, msg: translate(req.lang, "leader_unavailable"), data: null });
  if (base === null) return unavailable();
  const { body, type } = bodyOf(req);
  let res: Response;
  try {
    res = await fetch(base + req.url, {
      method: req.method,
      headers: withHeader(headersOf(req, type), FORWARDED_HEADER, node),
      body,
      duplex: "half",
      redirect: "manual",
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    } as RequestInit);
  } catch {
    return unavailable();
  }
  reply.status(res.status);
  for (const [k, v] of res.headers)
    if (!HOP_BY_HOP.has(k) && k !== "content-encoding") reply.header(k, v);
  await reply.send(Buffer.from(await res.arrayBuffer()));
}
