/**
 * Sending a verification code (the send-code button of the register and forgot forms, intent
 * send_code): the recipient is the form's account, with its area for a phone number; the captcha
 * when the register.captcha setting is on.
 */
import { z } from "zod";
import { MSG, areaId, checkIdentity, identityType, issue, loose, need } from "./fields";

const base = z.object({
  intent: z.literal("send_code"),
  type: identityType,
  account: loose(),
  area_id: areaId.optional(),
  captcha_id: z.string().trim().max(64).optional(),
  captcha_code: z.string().trim().max(16).optional(),
});

type Value = z.infer<typeof base> & { account: string };

export const sendCodeSchema = base
  .superRefine((v, ctx) => {
    need(ctx, v.account, "account", MSG.account);
    checkIdentity(v, ctx, { requireArea: true });
  })
  .transform((v) => v as Value);

/** The same with the captcha required (when the setting is on). */
export const sendCodeWithCaptchaSchema = base
  .superRefine((v, ctx) => {
    need(ctx, v.account, "account", MSG.account);
    checkIdentity(v, ctx, { requireArea: true });
    if (!v.captcha_code) issue(ctx, "captcha_code", MSG.captcha);
  })
  .transform((v) => v as Value);

export type SendCodeForm = Value;
