/**
 * The deposit forms (POST /mine/charge, multipart): a coin deposit to a channel and a bank wire to a
 * wire account, each with an amount in USD, one proof image (`proof`, checked in the action: the
 * upstream recognises images by their bytes) and the form's idempotency key.
 */
import { z } from "zod";
import { idempotencyKey } from "./fields";
import { parseAmount } from "~/utils/charge";

const CHARGE_MSG = {
  amount: "charge:errors.amount",
  proof: "charge:errors.proof",
  expired: "charge:errors.expired",
} as const;

const amount = z
  .string({ required_error: CHARGE_MSG.amount, invalid_type_error: CHARGE_MSG.amount })
  .transform((v, ctx) => {
    const a = parseAmount(v);
    if (a === null || !(Number(a) > 0)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: CHARGE_MSG.amount });
      return z.NEVER;
    }
    return a;
  });

const idOf = z
  .number({ invalid_type_error: CHARGE_MSG.expired, required_error: CHARGE_MSG.expired })
  .int()
  .positive(CHARGE_MSG.expired);

export const coinChargeSchema = z.object({
  intent: z.literal("coin"),
  charge_id: idOf,
  address: z.string().trim().max(128).optional(),
  number: amount,
  idempotency_key: idempotencyKey(CHARGE_MSG.expired),
});

export const bankChargeSchema = z.object({
  intent: z.literal("bank"),
  wire_id: idOf,
  number: amount,
  idempotency_key: idempotencyKey(CHARGE_MSG.expired),
});
