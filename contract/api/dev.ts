/**
 * Development helpers: the outbox and captcha answers, served only while DEV_OUTBOX is on
 * (upstream/API.md "Delivery and the outbox"), and the price setter of a hand-driven market, served
 * only with MARKET_FEED=manual (upstream/API.md "Market").
 */
import { z } from "zod";
import { endpoint } from "./endpoint";
import { decimalField, PRICE_RULE } from "../fields";
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
