/** Sign-up form (POST /register): the fields of /api/user/register. */
import { z } from "zod";
import {
  MSG,
  areaId,
  checkIdentity,
  checkNewPassword,
  identityType,
  loose,
  loosePassword,
  need,
  optionalText,
} from "./fields";

export const registerSchema = z
  .object({
    type: identityType,
    area_id: areaId.optional(),
    account: loose(),
    password: loosePassword(),
    re_password: loosePassword(),
    sms_code: loose(16),
    invite_code: optionalText(32),
    captcha_id: z.string().trim().max(64).optional(),
    captcha_code: z.string().trim().max(16).optional(),
  })
  .superRefine((v, ctx) => {
    need(ctx, v.account, "account", MSG.account);
    checkIdentity(v, ctx, { requireArea: true });
    checkNewPassword(ctx, v.password, v.re_password, {
      password: "password",
      confirm: "re_password",
    });
    need(ctx, v.sms_code, "sms_code", MSG.code);
  })
  .transform(
    (v) =>
      v as typeof v & { account: string; password: string; re_password: string; sms_code: string },
  );
