/**
 * The operator console's forms. Amounts are checked by the contract's field rules
 * (contract/fields.ts USD_RULE, MAX_MONEY_USD), as the upstream reads them; other fields loosely
 * here (present, bounded), the upstream checking their values (remarks, settings) and its refusal
 * shown on the form with 400.
 */
import { z } from "zod";
import { isPlainDecimal, MAX_MONEY_USD, USD_RULE } from "@contract/fields";
import { idempotencyKey, MSG, text } from "./fields";

const id = z
  .number({ invalid_type_error: MSG.complete, required_error: MSG.complete })
  .int()
  .positive();
const remark = text().pipe(z.string().max(500));
/** An approval's optional note, read by a second operator when the approval waits for one. */
const approvalNote = z.string().trim().max(500).optional();

export const operatorLoginSchema = z.object({
  name: text().pipe(z.string().max(40)),
  password: z.string({ required_error: MSG.password }).min(1, MSG.password).max(128),
  code: z
    .string({ required_error: "operator:code_required" })
    .trim()
    .regex(/^\d{6}$/, "operator:code_required"),
});

export const operatorLogoutSchema = z.object({});

/** An amount an operator enters: under the contract's USD_RULE and MAX_MONEY_USD, as the upstream reads it. */
const AMOUNT_INVALID = "operator:amount_invalid";
const usdAmount = (v: string, signed: boolean) => {
  const magnitude = signed && v.startsWith("-") ? v.slice(1) : v;
  const n = Number(v);
  return (
    isPlainDecimal(magnitude, USD_RULE) &&
    n !== 0 &&
    (signed || n > 0) &&
    Math.abs(n) <= MAX_MONEY_USD
  );
};

export const approveChargeSchema = z.object({
  intent: z.literal("approve"),
  id,
  /** The amount received, when it differs from the declared one. */
  amount: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || v === "" || usdAmount(v, false), AMOUNT_INVALID),
  remark: approvalNote,
});

export const rejectChargeSchema = z.object({ intent: z.literal("reject"), id, remark });
export const invalidChargeSchema = z.object({ intent: z.literal("invalid"), id, remark });

export const approveDrawSchema = z.object({
  intent: z.literal("approve"),
  id,
  remark: approvalNote,
});
export const rejectDrawSchema = z.object({ intent: z.literal("reject"), id, remark });

/** A second operator's decision on a four-eyes request: approve or reject, each with a remark. */
export const approveRequestSchema = z.object({ intent: z.literal("approve"), id, remark });
export const rejectRequestSchema = z.object({ intent: z.literal("reject"), id, remark });

/** An operator's stop of a copy, with a remark its owner sees. */
export const stopCopySchema = z.object({ intent: z.literal("stop"), id, remark });

/** Hiding a provider from copiers, or showing it again, each with a remark. */
export const hideProviderSchema = z.object({ intent: z.literal("hide"), id, remark });
export const showProviderSchema = z.object({ intent: z.literal("show"), id, remark });

export const adjustSchema = z.object({
  intent: z.literal("adjust"),
  uid: text().pipe(z.string().max(64)),
  amount: text().pipe(z.string().refine((v) => usdAmount(v, true), AMOUNT_INVALID)),
  remark,
  // Made when the form was rendered: a double click or a resubmit books the adjustment once.
  idempotency_key: idempotencyKey(),
});

/** A user's two-factor reset: who, and how their identity was checked. */
export const twoFactorResetSchema = z.object({
  intent: z.literal("reset_two_factor"),
  uid: text().pipe(z.string().max(64)),
  remark,
});

export const settingSchema = z.object({
  key: text().pipe(z.string().max(64)),
  value: z.string().trim().max(500).default(""),
});

/**
 * The money catalogue's forms (deposit channels, wire accounts, withdrawal currencies): "add" makes
 * a new entry, "save" changes entry `id`. Each field is bounded text here; the upstream checks the
 * whole entry (an address for its network, a SWIFT code, min not above max ...).
 */
const catalogText = z.string().trim().max(200).optional();
export function catalogSchemas(names: readonly string[]) {
  const fields = Object.fromEntries(names.map((n) => [n, catalogText]));
  return {
    add: z.object({ intent: z.literal("add") }).extend(fields),
    save: z.object({ intent: z.literal("save"), id }).extend(fields),
  };
}
