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

export interface OutboxCode {
  to: string;
  code: string;
  /** CODE_PURPOSE. */
  type: number;
  sent_at: number;
}

export const outbox = endpoint<OutboxCode>()({
  method: "GET",
  path: "/dev/outbox",
  auth: false,
  tag: "dev",
  summary: "The latest code sent to an address (DEV_OUTBOX only)",
  query: z.object({ to: filled(128) }),
});

export const captchaAnswer = endpoint<{ id: string; text: string }>()({
  method: "GET",
  path: "/dev/captcha",
  auth: false,
  tag: "dev",
  summary: "The answer of an unused captcha (DEV_OUTBOX only)",
  query: z.object({ id: filled(64) }),
});

export interface SetPrice {
  code: string;
  price: number;
  /** Time of the tick, ms. */
  time: number;
}

export const marketPrice = endpoint<SetPrice>()({
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
export interface DevProvider {
  id: number;
  name: string;
}

export const providerCreate = endpoint<DevProvider>()({
  method: "POST",
  path: "/dev/provider",
  auth: true,
  operator: "admin",
  tag: "dev",
  summary:
    "Creates a provider that trades only when told (MARKET_FEED=manual only; operator token)",
  body: z.object({ name: filled(40) }),
});

export const providerTrade = endpoint<{ id: number }>()({
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

export const providerClose = endpoint<{ closed: number[] }>()({
  method: "POST",
  path: "/dev/provider/close",
  auth: true,
  operator: "admin",
  tag: "dev",
  summary: "A hand-driven provider closes every open position (MARKET_FEED=manual only)",
  body: z.object({ id: wholeField(ID_DIGITS) }),
});
