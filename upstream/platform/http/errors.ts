/**
 * The one place where failures become envelopes: a DomainError is answered with its code and its
 * message translated into the request's language; a schema validation failure with the refusal of
 * the invalid field with HTTP 400 (its own message key, else the route's `invalidFieldKey`,
 * `invalid_input` by default), never a 500; a
 * refusal by an abuse limit also carries Retry-After; other client errors and unexpected failures with their common messages.
 */
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type pino from "pino";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import type { ZodIssue } from "zod";
import { CODE, DomainError, RateLimitedError } from "../errors.js";
import { hasMessage, translate } from "../i18n.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Message key of a field that fails its schema, with {{field}} (default invalid_input). */
    invalidFieldKey?: string;
    /** The contract's `readsEngine`: a standby forwards the route to the leader (app.ts). */
    readsEngine?: boolean;
  }
}

/** What a field's message may name of its rule: its bound ({{max}}, {{min}}). */
function refusalParams(issue: ZodIssue): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  const custom = (issue as { params?: Record<string, unknown> }).params ?? {};
  for (const [k, v] of Object.entries(custom))
    if (typeof v === "string" || typeof v === "number") out[k] = v;
  if (issue.code === "too_big") out.max = Number(issue.maximum);
  if (issue.code === "too_small") out.min = Number(issue.minimum);
  return out;
}

/** The refused field's value as sent, as short text (a message may quote it, e.g. a period). */
function sentText(sent: unknown, field: string): string {
  const v = sent && typeof sent === "object" ? (sent as Record<string, unknown>)[field] : undefined;
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === "string" || typeof one === "number" ? String(one).slice(0, 32) : "";
}

export function registerErrorHandling(app: FastifyInstance, log: pino.Logger): void {
  app.setErrorHandler((err, req, reply) => {
    const lang = req.lang ?? "en";
    if (err instanceof DomainError) {
      if (err instanceof RateLimitedError) reply.header("retry-after", String(err.retryAfterS));
      reply
        .status(err.status)
        .send({ code: err.code, msg: translate(lang, err.key, err.params), data: null });
      return;
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field = first.instancePath.replace(/^\//, "").split("/")[0] || "input";
      // A field's own message key (an upstream locale key), else the route's field refusal.
      const issue = first.params.issue;
      const key = hasMessage(issue.message)
        ? issue.message
        : (req.routeOptions.config?.invalidFieldKey ?? "invalid_input");
      const sent = err.validationContext === "body" ? req.body : req.query;
      const params = { field, ...refusalParams(issue), [field]: sentText(sent, field) };
      reply.status(400).send({ code: CODE.FAIL, msg: translate(lang, key, params), data: null });
      return;
    }
    const e = err as { statusCode?: number; message?: string };
    if (e.statusCode === 429) {
      reply
        .status(429)
        .send({ code: CODE.RATE_LIMITED, msg: translate(lang, "rate_limited"), data: null });
      return;
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      const key = e.statusCode === 413 ? "request_too_large" : "fail";
      reply.status(e.statusCode).send({ code: CODE.FAIL, msg: translate(lang, key), data: null });
      return;
    }
    log.error({ err, url: req.url }, "unhandled error");
    reply.status(500).send({ code: CODE.INTERNAL, msg: translate(lang, "internal"), data: null });
  });
  app.setNotFoundHandler((req, reply) => {
    reply
      .status(404)
      .send({ code: CODE.NOT_FOUND, msg: translate(req.lang ?? "en", "not_found"), data: null });
  });
}

/**
 * Answers a request that Node's HTTP parser refused before it reached a route (headers or URL
 * beyond the size limit, malformed HTTP) with the API envelope, as every other refusal; in English,
 * as its headers, and so its language, could not be read.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, text, key] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "request_too_large"]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "fail"]
        : [400, "Bad Request", "fail"];
  const body = JSON.stringify({ code: CODE.FAIL, msg: translate("en", key), data: null });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}
