/**
 * /mine/alerts' forms: a new price alert (instrument, condition, price or percentage, once or every
 * time with its pause, optional last day) and removing one. The upstream checks the rest (the
 * percentage's range, the number of active alerts).
 */
import { z } from "zod";
import { ALERT_CONDITIONS, ALERT_COOLDOWN_MIN, ALERT_REPEATS } from "@contract/api/alerts-rules";
import { MSG } from "./fields";

export const alertCreateSchema = z.object({
  intent: z.literal("create"),
  forex_id: z
    .number({ required_error: MSG.complete, invalid_type_error: MSG.complete })
    .int()
    .positive(),
  condition: z.enum(ALERT_CONDITIONS, { message: MSG.complete }),
  target: z
    .string({ required_error: "alerts:target_required" })
    .trim()
    .regex(/^\d{1,12}(\.\d{1,10})?$/, "alerts:target_required")
    .refine((v) => Number(v) > 0, "alerts:target_required"),
  repeat: z.enum(ALERT_REPEATS).default("once"),
  cooldown_min: z
    .number({ invalid_type_error: "alerts:cooldown_range" })
    .int("alerts:cooldown_range")
    .min(ALERT_COOLDOWN_MIN.min, "alerts:cooldown_range")
    .max(ALERT_COOLDOWN_MIN.max, "alerts:cooldown_range")
    .optional(),
  until: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "alerts:until_format")
    .optional(),
});

export const alertDeleteSchema = z.object({
  intent: z.literal("delete"),
  id: z.number().int().positive(),
});
