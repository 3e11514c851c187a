/**
 * The envelope of every upstream answer (product-spec.md sections 7 and 8): `{code, msg, data}`,
 * HTTP 200 also for business refusals. Code 1 is success; 999 means the session is invalid and the
 * client must drop it; the other codes are refusals whose `msg` is shown to the user.
 */
export const CODE = {
  /** Refused: `msg` says why (translated with the request's `lang`). */
  FAIL: 0,
  OK: 1,
  /** The operator's role lacks the endpoint's permission (contract/operators.ts). */
  FORBIDDEN: 403,
  /** Not found (also: another account's order). */
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** Missing, unknown, revoked or expired token. */
  SESSION_INVALID: 999,
} as const;

export type Code = (typeof CODE)[keyof typeof CODE];

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** True when an envelope reports success. */
export function isOk<T>(e: Envelope<T>): boolean {
  return e.code === CODE.OK;
}
