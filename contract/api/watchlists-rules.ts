/**
 * Watchlists' rules that pages read too (contract/api/watchlists.ts holds the endpoints).
 *
 * A user has at most WATCHLIST_MAX_LISTS lists, "Favourites" included, each of at most
 * WATCHLIST_MAX_ITEMS instruments. "Favourites" (kind `favourites`) is made by the first star and
 * stays first; it has no stored name (the app names it in the reader's language) and cannot be
 * renamed or removed. The other lists (kind `custom`) carry the name their owner gave them.
 */
export const WATCHLIST_KINDS = ["favourites", "custom"] as const;
export type WatchlistKind = (typeof WATCHLIST_KINDS)[number];

/** Lists per user, Favourites included. */
export const WATCHLIST_MAX_LISTS = 10;
/** Instruments per list. */
export const WATCHLIST_MAX_ITEMS = 50;
/** A list's name, in characters as people count them, after trimming (at least one). */
export const WATCHLIST_NAME_MAX = 30;

/** Which way a list or an instrument moves by one place. */
export const WATCHLIST_MOVES = ["up", "down"] as const;
export type WatchlistMove = (typeof WATCHLIST_MOVES)[number];

/** An instrument's code as a star posts it (EURUSD, US30, XAUUSD). */
export const INSTRUMENT_CODE = /^[A-Za-z0-9_.-]{1,32}$/;
