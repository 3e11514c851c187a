/**
 * Real-name verification's limits and patterns, and the operators' queue states, as pages read them.
 * Kept apart from the endpoints so that a page's JavaScript that needs them does not carry the
 * endpoints' request and answer schemas (contract/README.md).
 */
/** Longest name accepted, in characters (after trimming). */
export const REAL_NAME_MAX = 64;
/** Shortest and longest id number accepted, in characters (after trimming). */
export const CARD_ID_MIN = 4;
export const CARD_ID_MAX = 32;
/** A name: letters and marks, spaces and the punctuation names use (. ' ’ · -), starting with a letter. */
export const REAL_NAME_RE = /^[\p{L}\p{M}][\p{L}\p{M} .'’·-]*$/u;
/** An id number: letters, digits and the separators ids are written with ("A123456(7)", "12-3456"). */
export const CARD_ID_RE = /^[A-Za-z0-9][A-Za-z0-9()\-/ ]*$/;
/** Longest operator remark kept. */
export const REVIEW_REMARK_MAX = 500;

/** Status of a verification request in the operators' queue. */
export const REAL_NAME_REQUEST = { WAITING: 1, APPROVED: 2, REJECTED: 3 } as const;
export type RealNameRequestStatus = (typeof REAL_NAME_REQUEST)[keyof typeof REAL_NAME_REQUEST];
/** The queue's tabs in the order the console shows them (waiting first). */
export const REAL_NAME_REQUEST_TABS: readonly RealNameRequestStatus[] = [
  REAL_NAME_REQUEST.WAITING,
  REAL_NAME_REQUEST.APPROVED,
  REAL_NAME_REQUEST.REJECTED,
];
