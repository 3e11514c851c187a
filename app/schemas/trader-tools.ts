/**
 * Zod schemas of the trader's tools' forms on /order (one per form): the trailing stop and
 * break-even of a position or pending order (intent=trail, POST /v1/api/forex/set_trailing) and a
 * partial close (intent=close_part, POST /v1/api/forex/close with lots); and the pips fields the
 * order form of /trade shares. Distances are typed in pips and sent as prices, converted exactly
 * with the contract's pipsToPrice. Messages are i18n keys of the "trade" namespace.
 */
import { z } from "zod";
import { idempotencyKey } from "./fields";
import { EXPIRES_AT_PATTERN, EXPIRIES } from "@contract/api/trading-rules";
import { LOTS_RULE, numberFits } from "@contract/fields";

/** The most pips a distance may be typed with (a hundred thousand: far beyond any instrument's range). */
export const PIPS_MAX = 100_000;

/** A distance in pips: 0 (not set) to PIPS_MAX, at most one decimal. */
export const optionalPips = z
  .number({ invalid_type_error: "errors.pips" })
  .min(0, "errors.min_zero")
  .max(PIPS_MAX, "errors.pips")
  .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, "errors.pips")
  .optional();

const orderId = z
  .number({ required_error: "errors.order_id", invalid_type_error: "errors.order_id" })
  .int()
  .positive("errors.order_id");

/** The trailing stop form (intent=trail): distances in pips; an activation needs a distance. */
export const trailingSchema = z
  .object({
    intent: z.literal("trail"),
    id: orderId,
    trailing_pips: optionalPips,
    activation_pips: optionalPips,
    break_even_pips: optionalPips,
    idempotency_key: idempotencyKey("errors.expired").optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.activation_pips ?? 0) > 0 && !((v.trailing_pips ?? 0) > 0))
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["activation_pips"],
        message: "errors.activation_alone",
      });
  });

/** The partial close form (intent=close_part): the lots to close (the upstream checks the step). */
export const partCloseSchema = z.object({
  intent: z.literal("close_part"),
  id: orderId,
  lots: z
    .number({ required_error: "errors.cont_required", invalid_type_error: "errors.number" })
    .positive("errors.part_lots")
    .refine((v) => numberFits(v, LOTS_RULE), "errors.part_lots"),
  idempotency_key: idempotencyKey("errors.expired").optional(),
});

/** The order form's own extra fields: TP/SL unit, trailing stop, break-even and expiry. */
export const orderToolFields = {
  /** price (default) or pips: how take-profit and stop-loss are typed. */
  stop_unit: z.enum(["price", "pips"], { message: "errors.stop_unit" }).default("price"),
  trailing_pips: optionalPips,
  break_even_pips: optionalPips,
  expiry: z.enum(EXPIRIES, { message: "errors.expiry" }).default("gtc"),
  /** A datetime-local input's value ("YYYY-MM-DDTHH:mm"), read as UTC. */
  expires_at: z.string().regex(EXPIRES_AT_PATTERN, "errors.expiry_date").optional(),
};
