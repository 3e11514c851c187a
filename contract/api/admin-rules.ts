/**
 * The four-eyes requests' states and kinds, as the console's pages read them.
 * Kept apart from the endpoints so that a page's JavaScript that needs them does not carry the
 * endpoints' request and answer schemas (contract/README.md).
 */
/** A four-eyes request's state. */
export const REQUEST_STATUS = { PENDING: 0, APPROVED: 1, REJECTED: 2 } as const;
export const REQUEST_TABS = [0, 1, 2] as const;

/** What a request does when approved. */
export const REQUEST_KINDS = [
  "catalog",
  "setting",
  "adjustment",
  "charge.approve",
  "draw.approve",
  "two_factor.reset",
] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
