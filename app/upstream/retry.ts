/** Seconds a browser (or a proxy) is asked to wait before retrying while the upstream is away. */
export const UNAVAILABLE_RETRY_S = 10;
