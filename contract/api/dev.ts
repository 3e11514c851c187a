/** Development helpers, served only while DEV_OUTBOX is on (upstream/API.md "Delivery and the outbox"). */
import { z } from "zod";
import { endpoint, text } from "./endpoint";

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
  query: z.object({ to: text(128) }),
});

export const captchaAnswer = endpoint<{ id: string; text: string }>()({
  method: "GET",
  path: "/dev/captcha",
  auth: false,
  tag: "dev",
  summary: "The answer of an unused captcha (DEV_OUTBOX only)",
  query: z.object({ id: text(64) }),
});
