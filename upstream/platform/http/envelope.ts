/** The API envelope {code, msg, data} of product-spec.md section 7. Codes: platform/errors.ts. */
export {
  CODE_FAIL,
  CODE_INTERNAL,
  CODE_NOT_FOUND,
  CODE_OK,
  CODE_RATE_LIMITED,
  CODE_SESSION_INVALID,
} from "../errors.js";

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
