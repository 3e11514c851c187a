/**
 * The operator console's forms. Fields are checked loosely here (present, bounded); the upstream
 * checks their values (amounts, remarks, settings) and its refusal is shown on the form with 400.
 */
import { z } from "zod";
import { MSG, text } from "./fields";

const id = z
  .number({ invalid_type_error: MSG.complete, required_error: MSG.complete })
  .int()
  .positive();
const remark = text().pipe(z.string().max(500));

export const operatorLoginSchema = z.object({
  name: text().pipe(z.string().max(40)),
  password: z.string({ required_error: MSG.password }).min(1, MSG.password).max(128),
  code: z
    .string({ required_error: "operator:code_required" })
    .trim()
    .regex(/^\d{6}$/, "operator:code_required"),
});

export const operatorLogoutSchema = z.object({});

export const approveChargeSchema = z.object({
  intent: z.literal("approve"),
  id,
  amount: z.string().trim().max(32).optional(),
});

export const rejectChargeSchema = z.object({ intent: z.literal("reject"), id, remark });
export const invalidChargeSchema = z.object({ intent: z.literal("invalid"), id, remark });

export const approveDrawSchema = z.object({ intent: z.literal("approve"), id });
export const rejectDrawSchema = z.object({ intent: z.literal("reject"), id, remark });

export const adjustSchema = z.object({
  intent: z.literal("adjust"),
  uid: text().pipe(z.string().max(64)),
  amount: text().pipe(z.string().max(32)),
  remark,
});

export const settingSchema = z.object({
  key: text().pipe(z.string().max(64)),
  value: z.string().trim().max(500).default(""),
});
