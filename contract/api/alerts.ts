/**
 * Price alerts (upstream/API.md "Price alerts"): the account's alerts on instruments' prices,
 * which live on the server and fire while the user is away (a notification of kind price_alert),
 * made and removed here. At most the setting `alerts.max_active` active alerts (default 50).
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { decimalField, ID_DIGITS, optionalWholeField, PRICE_RULE, wholeField } from "../fields";
import { ALERT_CONDITIONS, ALERT_REPEATS } from "./alerts-rules";

export {
  ALERT_CONDITIONS,
  ALERT_COOLDOWN_MIN,
  ALERT_PERCENT,
  ALERT_REPEATS,
  type AlertCondition,
  type AlertRepeat,
} from "./alerts-rules";

export const AlertSchema = z.object({
  id: z.number().int(),
  forex_id: z.number().int(),
  code: z.string().describe("the instrument's code"),
  condition: z.enum(ALERT_CONDITIONS),
  target: z.number().describe("the price (above, below) or the percentage (change)"),
  repeat: z.enum(ALERT_REPEATS),
  cooldown_min: z.number().int(),
  expires_at: z.string().describe("UTC; empty: good until cancelled"),
  active: z.boolean(),
  fired_at: z.string().describe("when it last fired, UTC; empty: never"),
  created_at: z.string(),
});
export type PriceAlert = z.infer<typeof AlertSchema>;

export const alertList = endpoint({
  data: z.array(AlertSchema),
  method: "GET",
  path: "/api/alerts",
  auth: true,
  tag: "alerts",
  summary: "The account's price alerts, active first, newest first",
  query: z.object({ ...cacheBuster }),
});

export const alertCreate = endpoint({
  data: AlertSchema,
  method: "POST",
  path: "/api/alerts/create",
  auth: true,
  tag: "alerts",
  summary: "Make a price alert",
  body: z.object({
    forex_id: wholeField(ID_DIGITS),
    condition: z.enum(ALERT_CONDITIONS, { message: "alerts.condition_invalid" }),
    /** The price for above and below; the percentage (0.01 to 100) for change. */
    target: decimalField(PRICE_RULE, "alerts.target_invalid"),
    repeat: z.enum(ALERT_REPEATS, { message: "alerts.repeat_invalid" }).default("once"),
    /** Minutes between two firings of an `every` alert (1 to 1440; 60 when absent). */
    cooldown_min: optionalWholeField(4, "alerts.cooldown_invalid"),
    /** The last day it may fire (YYYY-MM-DD, UTC, through its end); absent: until cancelled. */
    until: z
      .preprocess(
        (v) => (v === "" || v === null ? undefined : v),
        z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "alerts.until_invalid" })
          .optional(),
      )
      .optional(),
  }),
});

export const alertDelete = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/alerts/delete",
  auth: true,
  tag: "alerts",
  summary: "Remove one of the account's price alerts",
  body: z.object({ id: wholeField(ID_DIGITS) }),
});
