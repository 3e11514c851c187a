/**
 * The security area's values that pages need too (contract/api/security.ts holds the endpoints):
 * what a second-factor code looks like, and how many backup codes a set holds.
 */

/** How many backup codes a set holds. */
export const BACKUP_CODE_COUNT = 10;
/** The characters a backup code is made of (no 0/o, 1/l/i: read aloud or copied by hand). */
export const BACKUP_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
/** A backup code as shown: two groups of four characters. */
export const BACKUP_CODE_RE = /^[2-9a-hjkmnp-z]{4}-?[2-9a-hjkmnp-z]{4}$/;
/** An authenticator app's code. */
export const TOTP_CODE_RE = /^\d{6}$/;
/** Seconds a password-checked sign-in waits for its second step. */
export const SECOND_FACTOR_TTL_S = 300;

/** A code as typed: spaces dropped, lower case (backup codes are shown in lower case). */
export const normaliseSecurityCode = (s: string) => s.replace(/\s+/g, "").toLowerCase();
