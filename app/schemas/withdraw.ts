/**
 * The withdrawal screen's forms (POST /mine/withdraw): calculate the expected arrival, request a
 * withdrawal, cancel one under review. Messages are i18n keys of the `withdraw` namespace.
 */
import { z } from "zod";
import { optionalSecurityCode } from "./security";
import { AMOUNT_RULE, decimalPattern, MAX_MONEY_USD } from "@contract/fields";
import { idempotencyKey } from "./fields";

export const WMSG = {
  amountPositive: "withdraw:amount_positive",
  amountTooLarge: "withdraw:amount_too_large",
  selectAddress: "withdraw:select_address",
  noAccount: "withdraw:no_account",
  noChannel: "withdraw:no_channel",
} as const;

/** An amount as typed, with a decimal comma ("12,5") read as a point; the browser's live figure too. */
export function plainAmount(v: string): string {
  return v.trim().replace(/^(\d*),(\d+)$/, "$1.$2");
}

/** An amount in USD as typed: a plain positive decimal under the contract's AMOUNT_RULE. */
export const amountField = z.preprocess(
  (v) => (typeof v === "string" ? plainAmount(v) : v),
  z
    .string({ required_error: WMSG.amountPositive, invalid_type_error: WMSG.amountPositive })
    .regex(decimalPattern(AMOUNT_RULE), WMSG.amountPositive)
    .refine((s) => Number(s) > 0, WMSG.amountPositive)
    .refine((s) => Number(s) <= MAX_MONEY_USD, WMSG.amountTooLarge),
);

const currency = z
  .number({ required_error: WMSG.noChannel, invalid_type_error: WMSG.noChannel })
  .int()
  .positive(WMSG.noChannel);

export const calculateSchema = z.object({
  intent: z.literal("calculate"),
  draw_currency_id: currency,
  number: amountField,
});

export const drawSchema = z.object({
  intent: z.literal("draw"),
  draw_currency_id: currency,
  /** Missing: "select an address", or "set up a collection account" when there is none to select. */
  draw_method_id: z
    .number({ invalid_type_error: WMSG.selectAddress })
    .int()
    .positive(WMSG.selectAddress)
    .optional(),
  number: amountField,
  memo: z.string().trim().max(200).optional(),
  totp_code: optionalSecurityCode,
  idempotency_key: idempotencyKey("common:csrf_failed"),
});

export const cancelSchema = z.object({
  intent: z.literal("cancel"),
  id: z.number().int().positive(),
  idempotency_key: idempotencyKey("common:csrf_failed"),
});
