/** Constants both programs must agree on (product-spec.md section 9 and upstream/API.md). */

/** Orders and records per page of every paged list (my_deal, quick_ist, draw_list, forexChange). */
export const PAGE_SIZE = 20;

/**
 * Chart periods, in the order the period bar shows them; the default is the first. A candle starts
 * at periodStart: minutes, hours and days on their UTC boundaries (a day at 00:00 UTC, 4 hours at
 * 00:00, 04:00, ... UTC), a week on Monday 00:00 UTC, a month on its first day 00:00 UTC.
 */
export const PERIODS = [
  "1min",
  "5min",
  "15min",
  "30min",
  "60min",
  "4hour",
  "1day",
  "1week",
  "1mon",
] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = "1min";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The periods of a fixed length, in ms (weeks and months are calendar periods: periodStart). */
export const PERIOD_MS = {
  "1min": MINUTE_MS,
  "5min": 5 * MINUTE_MS,
  "15min": 15 * MINUTE_MS,
  "30min": 30 * MINUTE_MS,
  "60min": 60 * MINUTE_MS,
  "4hour": 240 * MINUTE_MS,
  "1day": DAY_MS,
} as const satisfies Partial<Record<Period, number>>;
/** The first Monday of the epoch, 1970-01-05 00:00 UTC: weeks are counted from it. */
const FIRST_MONDAY_MS = 4 * DAY_MS;
const WEEK_MS = 7 * DAY_MS;

/** The start (ms UTC) of the candle of `period` that holds time `t` (ms). */
export function periodStart(period: Period, t: number): number {
  if (period === "1week")
    return Math.floor((t - FIRST_MONDAY_MS) / WEEK_MS) * WEEK_MS + FIRST_MONDAY_MS;
  if (period === "1mon") {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const ms = PERIOD_MS[period];
  return Math.floor(t / ms) * ms;
}
/** Period of the sparklines of abbreviated_cache_kline when none is asked for. */
export const DEFAULT_SPARKLINE_PERIOD: Period = "60min";
/** Closes per sparkline (oldest first; the last is the live price). */
export const SPARKLINE_POINTS = 48;

/** True when `s` names a chart period. */
export function isPeriod(s: unknown): s is Period {
  return typeof s === "string" && (PERIODS as readonly string[]).includes(s);
}

/** Websocket topics. Private topics need a websocket login. */
export const TOPIC = {
  DAY_MARKET: "DAY_MARKET",
  FOREX_TRADE: "FOREX_TRADE",
  FOREX_CLOSED: "FOREX_CLOSED",
  /** The user's copies with their figures (copy trading), the latest replacing the previous. */
  COPY_TRADE: "COPY_TRADE",
  /** The user's unread notifications, sent when one is written or they are read. */
  NOTICE: "NOTICE",
} as const;
export const KLINE_TOPIC_PREFIX = "KLINE.";
export const PRIVATE_TOPICS: readonly string[] = [
  TOPIC.FOREX_TRADE,
  TOPIC.FOREX_CLOSED,
  TOPIC.COPY_TRADE,
  TOPIC.NOTICE,
];
/** An instrument code as it may appear in a KLINE topic. */
export const TOPIC_CODE_RE = /^[A-Za-z0-9_.-]{1,32}$/;

/** The KLINE topic of an instrument code, e.g. KLINE.EURUSD. */
export function klineTopic(code: string): string {
  return `${KLINE_TOPIC_PREFIX}${code}`;
}

/** The instrument code of a KLINE topic, or null when the topic is not one. */
export function klineCode(topic: string): string | null {
  if (!topic.startsWith(KLINE_TOPIC_PREFIX)) return null;
  const code = topic.slice(KLINE_TOPIC_PREFIX.length);
  return TOPIC_CODE_RE.test(code) ? code : null;
}

/** True when `topic` is a topic the upstream serves. */
export function isTopic(topic: string): boolean {
  return topic === TOPIC.DAY_MARKET || PRIVATE_TOPICS.includes(topic) || klineCode(topic) !== null;
}

/** Websocket liveness: ping every 5 s, reconnect after 3 unanswered pings, connect within 5 s. */
export const WS_HEARTBEAT_MS = 5_000;
export const WS_MISSED_PINGS = 3;
export const WS_CONNECT_TIMEOUT_MS = 5_000;
/** The upstream closes a connection that sent nothing for this long. */
export const WS_IDLE_CLOSE_MS = 60_000;
/** FOREX_TRADE pushes per connection are gathered for this long (at most 4 a second). */
export const TRADE_PUSH_INTERVAL_MS = 250;

/** A verification code may be sent again to the same recipient after this many seconds. */
export const CODE_RESEND_S = 60;
/** Verification codes have this many digits. */
export const CODE_DIGITS = 6;
/** Password length bounds. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Decimals shown (and rounded to in JSON) for each kind of amount (product-spec.md section 9). */
export const PRECISION = { balance: 2, profit: 6, margin: 6, fee: 6 } as const;
/**
 * Decimal places of a withdrawal's net amount in the currency's units (enough for BTC's satoshi); the
 * net is cut down to them, never rounded up (the user never receives more than the formula gives).
 */
export const WITHDRAW_NET_DP = 8;
/** Money on the wire is rounded to at most this many decimals (the ledger keeps integer micro-USD). */
export const WIRE_MONEY_DECIMALS = 6;

/** An `Idempotency-Key` (header, or form field `idempotency_key`): 1..128 visible ASCII characters. */
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,128}$/;
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_FIELD = "idempotency_key";

/** The languages of the API (`lang` header) and of the web, by their codes in both programs. */
export const LANGS = [
  "hk",
  "en",
  "jp",
  "kr",
  "th",
  "vn",
  "fr",
  "de",
  "ru",
  "spa",
  "pt",
  "ar",
  "it",
  "tr",
  "id",
] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = "en";

/** The BCP 47 tag of each language: <html lang>, and Intl formatting on both sides. */
export const LANG_TAG: Readonly<Record<Lang, string>> = {
  hk: "zh-Hant-HK",
  en: "en",
  jp: "ja",
  kr: "ko",
  th: "th",
  vn: "vi",
  fr: "fr",
  de: "de",
  ru: "ru",
  spa: "es",
  pt: "pt",
  ar: "ar",
  it: "it",
  tr: "tr",
  id: "id",
};

/**
 * Largest proof image the upstream accepts by default (its UPLOAD_MAX_BYTES); the web reads upload
 * forms up to a little more than this, so that the upstream's own translated refusal is the one shown.
 */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

/** Decimal places of a deposit's coin count (the amount in USD over the channel's usd_price, cut). */
export const COIN_DP = 8;
