/**
 * The copy-trading forms: start a copy (/rank/provider/copy), a copy's commands (/mine/copies and
 * a copy's page: pause, resume, stop, funds, close one position) and the provider settings
 * (/mine/provider). Messages are i18n keys of the `copy` namespace; bounds come from the contract.
 */
import { z } from "zod";
import { AMOUNT_RULE, decimalPattern, LOTS_RULE, MAX_MONEY_USD } from "@contract/fields";
import {
  COPY_FUNDS_DIRECTIONS,
  COPY_MODES,
  COPY_MULTIPLE,
  COPY_STOP_LOSS_PCT,
  MULTIPLE_RULE,
  PROVIDER_DESCRIPTION_MAX,
  PROVIDER_MIN_INVESTMENT_MAX_USD,
  PROVIDER_NAME_MAX,
} from "@contract/api/copy-rules";
import { idempotencyKey } from "./fields";

export const CMSG = {
  amount: "copy:errors.amount",
  multiple: "copy:errors.multiple",
  lots: "copy:errors.lots",
  stopLoss: "copy:errors.stop_loss",
  name: "copy:errors.name",
  nameLong: "copy:errors.name_long",
  descriptionLong: "copy:errors.description_long",
  minInvestment: "copy:errors.min_investment",
  expired: "common:csrf_failed",
} as const;

/** Decimal text as typed, a decimal comma read as a point ("12,5" -> "12.5"). */
export function plainDecimal(v: string): string {
  return v.trim().replace(/^(\d*),(\d+)$/, "$1.$2");
}

const decimalText = (rule: Parameters<typeof decimalPattern>[0], message: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" ? plainDecimal(v) : v),
    z
      .string({ required_error: message, invalid_type_error: message })
      .regex(decimalPattern(rule), message)
      .refine((s) => Number(s) > 0 && Number(s) <= max, message),
  );

const amount = decimalText(AMOUNT_RULE, CMSG.amount, MAX_MONEY_USD);

/** The copy form: POST /api/follow/copy. `multiple` is the multiplier or, in fixed mode, the lots. */
export const copyFormSchema = z
  .object({
    idempotency_key: idempotencyKey(CMSG.expired),
    provider_id: z.number().int().positive(),
    amount,
    mode: z.enum(COPY_MODES).default("proportional"),
    multiple: z.preprocess(
      (v) => (typeof v === "string" ? plainDecimal(v) : v),
      z.string().optional(),
    ),
    stop_loss_pct: z
      .number({ required_error: CMSG.stopLoss, invalid_type_error: CMSG.stopLoss })
      .int(CMSG.stopLoss)
      .min(COPY_STOP_LOSS_PCT.min, CMSG.stopLoss)
      .max(COPY_STOP_LOSS_PCT.max, CMSG.stopLoss),
    copy_open: z.boolean().optional().default(false),
  })
  .superRefine((v, ctx) => {
    const m = v.multiple ?? "";
    if (v.mode === "fixed") {
      if (!decimalPattern(LOTS_RULE).test(m) || !(Number(m) > 0))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["multiple"], message: CMSG.lots });
      return;
    }
    if (m === "") return;
    const n = Number(m);
    if (
      !decimalPattern(MULTIPLE_RULE).test(m) ||
      n < Number(COPY_MULTIPLE.min) ||
      n > Number(COPY_MULTIPLE.max)
    )
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["multiple"], message: CMSG.multiple });
  });

const copyId = z.number().int().positive();

/** Pause, resume or stop a copy. */
export const copyCommandSchema = (intent: "pause" | "resume" | "stop") =>
  z.object({
    intent: z.literal(intent),
    id: copyId,
    idempotency_key: idempotencyKey(CMSG.expired),
  });

/** Add money to a copy from free margin, or take some back. */
export const copyFundsSchema = z.object({
  intent: z.literal("funds"),
  id: copyId,
  direction: z.enum(COPY_FUNDS_DIRECTIONS),
  amount,
  idempotency_key: idempotencyKey(CMSG.expired),
});

/** Close one copied position. */
export const copyCloseSchema = z.object({
  intent: z.literal("close"),
  id: copyId,
  position_id: z.number().int().positive(),
  idempotency_key: idempotencyKey(CMSG.expired),
});

/** The user's provider settings (become a provider, or change them). */
export const providerSaveSchema = z.object({
  intent: z.literal("save"),
  name: z
    .string({ required_error: CMSG.name })
    .trim()
    .min(1, CMSG.name)
    .max(PROVIDER_NAME_MAX, CMSG.nameLong),
  description: z.string().trim().max(PROVIDER_DESCRIPTION_MAX, CMSG.descriptionLong).optional(),
  min_investment: z
    .preprocess(
      (v) => (typeof v === "string" ? plainDecimal(v) : v),
      z
        .string()
        .regex(decimalPattern(AMOUNT_RULE), CMSG.minInvestment)
        .refine((s) => Number(s) <= PROVIDER_MIN_INVESTMENT_MAX_USD, CMSG.minInvestment),
    )
    .optional(),
});

/** Stop being a provider. */
export const providerStopSchema = z.object({ intent: z.literal("stop") });
