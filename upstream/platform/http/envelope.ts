/** The API envelope {code, msg, data} of product-spec.md section 7, and the error every handler throws. */
export const CODE_OK = 1;
export const CODE_FAIL = 0;
export const CODE_NOT_FOUND = 404;
export const CODE_RATE_LIMITED = 429;
export const CODE_INTERNAL = 500;
export const CODE_SESSION_INVALID = 999;

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/**
 * A refusal that reaches the client as an envelope. `key` is a message key of upstream/locales
 * (translated with the request's `lang` header); `params` fill its {{placeholders}}.
 */
export class ApiError extends Error {
  constructor(
    public readonly key: string,
    public readonly code: number = CODE_FAIL,
    public readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}
