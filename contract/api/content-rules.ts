/**
 * Content's values pages read in the browser: the all-languages mark, the longest article, where
 * news pictures are served.
 * Kept apart from the endpoints so that a page's JavaScript that needs them does not carry the
 * endpoints' request and answer schemas (contract/README.md).
 */
/** An item's `lang` for every language; otherwise one of the 15 language codes (LANGS). */
export const LANG_ALL = "";

/** Longest stored HTML of an article or announcement, in characters. */
export const CONTENT_MAX_CHARS = 60_000;

/** Where the upstream serves the pictures of news items: NEWS_IMAGE_PATH + file name. */
export const NEWS_IMAGE_PATH = "/static/news/";
