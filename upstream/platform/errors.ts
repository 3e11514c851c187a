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
export class DomainError extends Error {
  constructor(
    public readonly key: string,
    public readonly code: number = CODE.FAIL,
    public readonly params: Record<string, string | number> = {},
    public readonly status: number = 200,
  ) {
    super(key);
    this.name = "DomainError";
  }
}
