/**
 * Domain errors and the envelope codes of product-spec.md section 7. Services and the engine raise a
 * DomainError; the HTTP layer's error handler (platform/http/errors.ts) turns it into the translated
 * envelope, so no module below the routes knows of HTTP.
 */
import { CODE } from "@contract/envelope";

export { CODE };

export const CODE_OK = CODE.OK;
export const CODE_FAIL = CODE.FAIL;
export const CODE_NOT_FOUND = CODE.NOT_FOUND;
export const CODE_RATE_LIMITED = CODE.RATE_LIMITED;
export const CODE_INTERNAL = CODE.INTERNAL;
export const CODE_SESSION_INVALID = CODE.SESSION_INVALID;

/**
 * A refusal by a rule. `key` is a message key of upstream/locales (translated with the request's
 * `lang` header); `params` fill its {{placeholders}}; `code` is the envelope code; `status` the HTTP
 * status of the answer (200 for refusals by rule, as the API always answered them; 422 for a
 * request that can never be processed, such as a reused idempotency key).
 */
/** A length of time in a message, written in the reader's language with its plural form. */
export interface Duration {
  unit: "second" | "minute" | "hour";
  value: number;
}

/** What fills a message's {{placeholder}}. */
export type MessageParam = string | number | Duration;

export class DomainError extends Error {
  constructor(
    public readonly key: string,
    public readonly code: number = CODE.FAIL,
    public readonly params: Record<string, MessageParam> = {},
    public readonly status: number = 200,
  ) {
    super(key);
    this.name = "DomainError";
  }
}

/**
 * A refusal by an abuse limit (platform/limits.ts): envelope code 429 with HTTP status 429, a
 * Retry-After header of `retryAfterS` seconds and a translated message giving the wait in seconds,
 * minutes or hours.
 */
export class RateLimitedError extends DomainError {
  /** Whole seconds until the limit lets the subject through again (at least 1). */
  readonly retryAfterS: number;

  constructor(waitMs: number) {
    const s = Math.max(1, Math.ceil(waitMs / 1000));
    const wait: Duration =
      s < 60
        ? { unit: "second", value: s }
        : s <= 120 * 60
          ? { unit: "minute", value: Math.ceil(s / 60) }
          : { unit: "hour", value: Math.ceil(s / 3600) };
    super("limits.retry", CODE.RATE_LIMITED, { wait }, 429);
    this.name = "RateLimitedError";
    this.retryAfterS = s;
  }
}
