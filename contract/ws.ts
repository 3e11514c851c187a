/**
 * The websocket at /v1/ws (upstream/API.md "Websocket"): JSON text frames, each message described
 * here once as a zod schema, from which its type is inferred, the upstream's AsyncAPI document
 * (GET /asyncapi.json) is built, and the test harnesses check every frame the upstream sends
 * (CHECK_ANSWERS). Topic names and liveness constants are in constants.ts.
 */
import { z } from "zod";
import { KLINE_TOPIC_PREFIX, PERIODS, TOPIC } from "./constants";
import { CandleSchema } from "./api/market";
import { CopySchema } from "./api/copy";
import { CODE } from "./envelope";

export const WS_PATH = "/v1/ws";

const topics = z.array(z.string()).describe("topic names (TOPIC, or KLINE.{code})");
/** Any message may carry the language of the answers that follow (`lang`). */
const lang = z.string().optional().describe("the language of later answers (e.g. de)");

/** Client to server. */
export const ClientMessageSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("ping"), lang }).describe("keeps the connection open; answered pong"),
  z
    .object({ op: z.literal("login"), token: z.string(), lang })
    .describe("signs the connection in with a session token (private topics need it)"),
  z.object({ op: z.literal("logout"), lang }).describe("signs out; private topics are dropped"),
  z
    .object({ op: z.literal("subscribe"), topics, lang })
    .describe("starts pushes of 1 to 64 topics; each is answered first with its current state"),
  z.object({ op: z.literal("unsubscribe"), topics, lang }).describe("stops pushes of topics"),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

const code = z.number().int().describe("envelope code: 1 success, 0 refused, 999 session invalid");
const msg = z.string().describe("in the connection's language");

/** A DAY_MARKET item: an instrument's quote fields after a tick (`Close` is the last price). */
export const DayMarketItemSchema = z.object({
  Id: z.number().int(),
  Code: z.string(),
  Close: z.number(),
  Open: z.number(),
  High: z.number(),
  Low: z.number(),
  Volume: z.number(),
  Change: z.number(),
  Time: z.number().int().describe("ms since the epoch"),
  MarketStatus: z.number().int().describe("1 open, 0 closed"),
});
export type DayMarketItem = z.infer<typeof DayMarketItemSchema>;

/** A KLINE.{code} item: the forming candle of one period. */
export const KlineItemSchema = CandleSchema.extend({ period: z.enum(PERIODS) });
export type KlineItem = z.infer<typeof KlineItemSchema>;

/** A FOREX_TRADE push: the account's values and every open position's price and profit. */
export const ForexTradePushSchema = z.object({
  ProfitsTotal: z.number(),
  HazardRate: z.number().nullable(),
  CautionMoneyAll: z.number(),
  Balance: z.number(),
  Total: z.number(),
  CanUse: z.number(),
  MarginCall: z.boolean(),
  TransOrder: z.array(
    z.object({
      Id: z.number().int(),
      UpdatePrice: z.number(),
      FactProfits: z.number(),
      /** The stop loss now (a trailing stop moves it); 0 = not set. Optional: not every back end sends it. */
      TargetLossPrice: z.number().optional(),
    }),
  ),
});
export type ForexTradePush = z.infer<typeof ForexTradePushSchema>;

/** A FOREX_CLOSED push: ids of positions that closed. */
export const ForexClosedPushSchema = z.object({ ids: z.array(z.number().int()) });
export type ForexClosedPush = z.infer<typeof ForexClosedPushSchema>;

/** An open copied position's price and floating profit (USD, for display) at a push. */
export const CopyPositionFiguresSchema = z.object({
  id: z.number().int(),
  price: z.number(),
  profit: z.number(),
});
export type CopyPositionFigures = z.infer<typeof CopyPositionFiguresSchema>;

/**
 * A COPY_TRADE push (private): every copy of the user not stopped, with its figures now and each
 * open copied position's price and profit.
 */
export const CopyTradePushSchema = z.object({
  copies: z.array(CopySchema.extend({ positions: z.array(CopyPositionFiguresSchema) })),
});
export type CopyTradePush = z.infer<typeof CopyTradePushSchema>;

/** NOTICE: the account's unread notifications now (sent when one is written or they are read). */
export const NoticePushSchema = z.object({ unread: z.number().int() });
export type NoticePush = z.infer<typeof NoticePushSchema>;

/** What each topic's pushes carry. */
export const PUSH_DATA = {
  [TOPIC.DAY_MARKET]: z.array(DayMarketItemSchema).describe("the quotes that changed"),
  [TOPIC.FOREX_TRADE]: ForexTradePushSchema,
  [TOPIC.FOREX_CLOSED]: ForexClosedPushSchema,
  [TOPIC.COPY_TRADE]: CopyTradePushSchema,
  [TOPIC.NOTICE]: NoticePushSchema,
  [`${KLINE_TOPIC_PREFIX}{code}`]: z.array(KlineItemSchema).describe("one forming candle a period"),
} as const;

/** The schema of a push's data on `topic` (KLINE.{code} by its prefix); null for no topic. */
export function pushDataOf(topic: string): z.ZodTypeAny | null {
  if (topic.startsWith(KLINE_TOPIC_PREFIX)) return PUSH_DATA[`${KLINE_TOPIC_PREFIX}{code}`];
  return (PUSH_DATA as Record<string, z.ZodTypeAny>)[topic] ?? null;
}

/** A push of a topic whose data is `data`. */
export const pushMessage = <S extends z.ZodTypeAny>(data: S) =>
  z.object({ op: z.literal("push"), topic: z.string(), data });

const push = pushMessage(z.unknown()).describe("a topic's push; its data by topic (PUSH_DATA)");

/** Server to client. */
export const ServerMessageSchema = z.union([
  z.object({ op: z.literal("pong"), ts: z.number().int() }).describe("the answer to ping"),
  z
    .object({
      op: z.literal("login"),
      code,
      msg,
      data: z.object({ uid: z.string() }).optional().describe("the signed-in account"),
    })
    .describe("the answer to login"),
  z.object({ op: z.literal("logout"), code, msg }).describe("the answer to logout"),
  z
    .object({
      op: z.enum(["subscribe", "unsubscribe"]),
      code,
      msg,
      topics: topics.optional().describe("the topics, when accepted"),
    })
    .describe("the answer to subscribe or unsubscribe"),
  z.object({ op: z.literal("error"), code, msg }).describe("a frame that is not a message"),
  z
    .object({ op: z.literal("revoked"), code: z.literal(CODE.SESSION_INVALID), msg })
    .describe("the connection's login ended (its token was revoked); private topics are dropped"),
  push,
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
