/** The checks of a company's addresses, shared with the settings registry (complaint_email). */

/** An http(s) address of at most 300 characters. */
export function isWebAddress(v: string): boolean {
  return v.length <= 300 && /^https?:\/\//i.test(v) && URL.canParse(v);
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;
/** An e-mail address of the usual shape, at most 254 characters. */
export const isEmail = (v: string) => v.length <= 254 && EMAIL.test(v);
