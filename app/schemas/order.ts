/**
 * Zod schemas of the trading forms (one per form), used by the actions (parseWithZod) and by the
 * browser (useForm's onValidate). Field names are the upstream's (product-spec.md section 7).
 * Error messages are i18n keys in the "trade" namespace; the form translates them with the
 * instrument's figures ({{min}}, {{max}}, {{step}}).
 */
import { z } from "zod";
import { idempotencyKey } from "./fields";
import { orderToolFields } from "./trader-tools";
import { ORDER_MODE } from "@contract/enums";
import { boundOf, LOTS_RULE, numberFits, PRICE_RULE } from "@contract/fields";

/** trading-rules.md: at most `trade.max_lots` lots (default 100). */
export const DEFAULT_MAX_LOTS = 100;

interface LotRules {
  /** Lot step (Pip). */
  pip: number;
  /** Minimum lots (ForexMinCont). */
  minLots: number;
  /** Maximum lots. */
  maxLots?: number;
  /** Leverage options (HasForexMultiple values); empty means ordering is not possible. */
  multiples: number[];
}

/** True when `lots` is a whole multiple of `step` (tolerant to binary floating-point noise). */
export function isMultipleOf(lots: number, step: number): boolean {
  if (!(step > 0)) return true;
  const q = lots / step;
  return Math.abs(q - Math.round(q)) < 1e-7;
}

/** Lots one step up or down from `lots`, kept on the step grid and within [min, max]. */
export function stepLots(
  lots: number,
  dir: 1 | -1,
  rules: Pick<LotRules, "pip" | "minLots" | "maxLots">,
): number {
  const step = rules.pip > 0 ? rules.pip : 0.01;
  const min = Math.max(rules.minLots || 0, step);
  const max = rules.maxLots ?? DEFAULT_MAX_LOTS;
  const base = Number.isFinite(lots) ? lots : min;
  // move to the next grid point in the direction (a value on the grid moves one whole step)
  const q = base / step;
  const onGrid = Math.abs(q - Math.round(q)) < 1e-7;
  let next = onGrid
    ? (Math.round(q) + dir) * step
    : (dir === 1 ? Math.floor(q) + 1 : Math.ceil(q) - 1) * step;
  next = Math.min(max, Math.max(min, next));
  const decimals = Math.max(decimalsOfStep(step), 0);
  return Number(next.toFixed(Math.min(20, decimals + 2)));
}

function decimalsOfStep(step: number): number {
  const s = String(step);
  if (s.includes("e-")) return Number(s.split("e-")[1]);
  const i = s.indexOf(".");
  return i < 0 ? 0 : s.length - i - 1;
}

/** Whether the lots decrement button is disabled: at or below the lot step (Pip) or the minimum. */
export function decrementDisabled(lots: number, rules: Pick<LotRules, "pip" | "minLots">): boolean {
  if (!Number.isFinite(lots)) return false;
  return lots <= rules.pip + 1e-12 || lots <= rules.minLots + 1e-12;
}

/** No instrument trades near this; larger input is a typo and gets a clear message here. */
const MAX_PRICE = boundOf(PRICE_RULE);

/** A price field: under the contract's price rule (PRICE_RULE), as the upstream reads it. */
export const optionalPrice = z
  .number({ invalid_type_error: "errors.number" })
  .min(0, "errors.min_zero")
  .max(MAX_PRICE, "errors.price_too_large")
  .refine((v) => v >= MAX_PRICE || numberFits(v, PRICE_RULE), "errors.number")
  .optional();

/** The order form (intent=submit) of /trade: POST /v1/api/forex/submit. */
export function orderSchema(rules: LotRules) {
  const max = rules.maxLots ?? DEFAULT_MAX_LOTS;
  return z
    .object({
      intent: z.literal("submit"),
      idempotency_key: idempotencyKey("errors.expired"),
      forex_id: z
        .number({ required_error: "errors.instrument", invalid_type_error: "errors.instrument" })
        .int()
        .positive("errors.instrument"),
      /** 1 buy, 2 sell: the value of the pressed submit button. */
      type: z
        .number({ required_error: "errors.type", invalid_type_error: "errors.type" })
        .int()
        .refine((v) => v === 1 || v === 2, "errors.type"),
      /** 1 market, 0 pending. */
      status: z
        .number({ invalid_type_error: "errors.status" })
        .int()
        .refine((v) => v === 0 || v === 1, "errors.status")
        .default(1),
      target_price: z
        .number({ invalid_type_error: "errors.number" })
        .positive("errors.target_price")
        .max(MAX_PRICE, "errors.price_too_large")
        .refine((v) => v >= MAX_PRICE || numberFits(v, PRICE_RULE), "errors.number")
        .optional(),
      cont: z
        .number({ required_error: "errors.cont_required", invalid_type_error: "errors.number" })
        .positive("errors.cont_min")
        .refine((v) => v >= rules.minLots - 1e-12, "errors.cont_min")
        .refine((v) => v <= max + 1e-12, "errors.cont_max")
        .refine((v) => isMultipleOf(v, rules.pip), "errors.cont_step")
        .refine((v) => numberFits(v, LOTS_RULE), "errors.cont_step"),
      multiple: z
        .number({
          required_error: "errors.multiple_required",
          invalid_type_error: "errors.multiple_required",
        })
        .refine(() => rules.multiples.length > 0, "no_mult_config")
        .refine(
          (v) => rules.multiples.length === 0 || rules.multiples.includes(v),
          "errors.multiple_invalid",
        ),
      target_profit_price: optionalPrice,
      stop_loss_price: optionalPrice,
      ...orderToolFields,
    })
    .superRefine((v, ctx) => {
      if (v.status === ORDER_MODE.PENDING && v.expiry === "date" && !v.expires_at)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["expires_at"],
          message: "errors.expiry_date",
        });
      if (v.stop_unit === "pips")
        for (const k of ["target_profit_price", "stop_loss_price"] as const)
          if (v[k] !== undefined && Math.abs(v[k] * 10 - Math.round(v[k] * 10)) > 1e-9)
            ctx.addIssue({ code: z.ZodIssueCode.custom, path: [k], message: "errors.pips" });
      if (v.status === ORDER_MODE.PENDING && !(v.target_price && v.target_price > 0)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["target_price"],
          message: "errors.target_price",
        });
      }
    });
}

/** Close a holding position (intent=close): POST /v1/api/forex/close. */
export const closeSchema = z.object({
  intent: z.literal("close"),
  id: z
    .number({ required_error: "errors.order_id", invalid_type_error: "errors.order_id" })
    .int()
    .positive("errors.order_id"),
  idempotency_key: idempotencyKey("errors.expired").optional(),
});

/** Cancel a pending order (intent=cancel): POST /v1/api/forex/cancel_trade. */
export const cancelSchema = z.object({
  intent: z.literal("cancel"),
  id: z
    .number({ required_error: "errors.order_id", invalid_type_error: "errors.order_id" })
    .int()
    .positive("errors.order_id"),
  idempotency_key: idempotencyKey("errors.expired").optional(),
});
