/**
 * Development helpers: the outbox and captcha answers, served only while DEV_OUTBOX is on
 * (upstream/API.md "Delivery and the outbox"), and the price setter of a hand-driven market, served
 * only with MARKET_FEED=manual (upstream/API.md "Market"), with the hand-driven providers of copy
 * trading beside it (upstream/API.md "Copy trading").
 */
import { z } from "zod";
import { endpoint } from "./endpoint";
import { choiceField, decimalField, ID_DIGITS, LOTS_RULE, PRICE_RULE, wholeField } from "../fields";
import { ORDER_TYPE } from "../enums";
import { filled, present } from "./identity";

export const OutboxCodeSchema = z.object({
  to: z.string().describe("the recipient: the e-mail address, or the mobile number's digits"),
  code: z.string(),
  type: z
    .number()
    .int()
    .describe("what the code is for: CODE_PURPOSE (1 sign-up, 2 reset), 3 binding an e-mail"),
  created_at: z.number().int().describe("when the code was written to the outbox, ms"),
});
export type OutboxCode = z.infer<typeof OutboxCodeSchema>;

export const outbox = endpoint({
  data: OutboxCodeSchema,
  method: "GET",
  path: "/dev/outbox",
  auth: false,
  tag: "dev",
  summary: "The latest code sent to an address (DEV_OUTBOX only)",
  query: z.object({ to: filled(128) }),
});

export const captchaAnswer = endpoint({
  data: z.object({ id: z.string(), text: z.string().describe("the captcha's answer") }),
  method: "GET",
  path: "/dev/captcha",
  auth: false,
  tag: "dev",
  summary: "The answer of an unused captcha (DEV_OUTBOX only)",
  query: z.object({ id: filled(64) }),
});

export const SetPriceSchema = z.object({
  code: z.string(),
  price: z.number().describe("the price set, rounded to the instrument's PricePrecision"),
  time: z.number().int().describe("time of the tick, ms"),
});
export type SetPrice = z.infer<typeof SetPriceSchema>;

export const marketPrice = endpoint({
  data: SetPriceSchema,
  method: "POST",
  path: "/dev/market/price",
  auth: true,
  operator: "admin",
  tag: "dev",
  summary:
    "Ticks an instrument at a price, as the market would (MARKET_FEED=manual only; operator token)",
  body: z.object({
    code: filled(32),
    /** A positive price; anything else is money_invalid_field ("Invalid value: price"). */
    price: present(
      decimalField(PRICE_RULE, "money_invalid_field").refine((p) => Number(p) > 0, {
        message: "money_invalid_field",
      }),
    ),
  }),
});

/** A hand-driven provider: funded as a strategy trader is, traded only through these calls. */
export const DevProviderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
});
export type DevProvider = z.infer<typeof DevProviderSchema>;

export const providerCreate = endpoint({
  data: DevProviderSchema,
  method: "POST",
  path: "/dev/provider",
  auth: true,
  operator: "admin",
  tag: "dev",
  summary:
    "Creates a provider that trades only when told (MARKET_FEED=manual only; operator token)",
  body: z.object({ name: filled(40) }),
});

export const providerTrade = endpoint({
  data: z.object({ id: z.number().int().describe("the opened position's id") }),
  method: "POST",
  path: "/dev/provider/trade",
  auth: true,
  operator: "admin",
  tag: "dev",
  summary: "A hand-driven provider opens a market position (MARKET_FEED=manual only)",
  body: z.object({
    id: wholeField(ID_DIGITS),
    code: filled(32),
    side: choiceField([ORDER_TYPE.BUY, ORDER_TYPE.SELL]),
    lots: decimalField(LOTS_RULE),
  }),
});

export const providerClose = endpoint({
  data: z.object({
    closed: z.array(z.number().int()).describe("the ids of the positions closed"),
  }),
  method: "POST",
  path: "/dev/provider/close",
  auth: true,
  operator: "admin",
  tag: "dev",
  summary: "A hand-driven provider closes every open position (MARKET_FEED=manual only)",
  body: z.object({ id: wholeField(ID_DIGITS) }),
});
