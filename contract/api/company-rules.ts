/**
 * Companies' and feedback's limits, as pages read them.
 * Kept apart from the endpoints so that a page's JavaScript that needs them does not carry the
 * endpoints' request and answer schemas (contract/README.md).
 */
/** Longest company name the search reads (longer is refused). */
export const COMPANY_SEARCH_MAX = 64;
/** Longest feedback message and contact text. */
export const FEEDBACK_MESSAGE_MAX = 2000;
export const FEEDBACK_CONTACT_MAX = 120;
