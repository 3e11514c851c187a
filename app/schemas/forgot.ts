/** Password reset form (POST /forgot): the fields of /api/user/forget_password. */
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
} from "./fields";

export const forgotSchema = z
  .object({
    type: identityType,
    area_id: areaId.optional(),
    account: loose(),
    auth_code: loose(16),
    new_password: loosePassword(),
    secondary_password: loosePassword(),
    captcha_id: z.string().trim().max(64).optional(),
    captcha_code: z.string().trim().max(16).optional(),
  })
  .superRefine((v, ctx) => {
    need(ctx, v.account, "account", MSG.account);
    checkIdentity(v, ctx, { requireArea: true });
    need(ctx, v.auth_code, "auth_code", MSG.code);
    checkNewPassword(ctx, v.new_password, v.secondary_password, {
      password: "new_password",
      confirm: "secondary_password",
    });
  })
  .transform(
    (v) =>
      v as typeof v & {
        account: string;
        auth_code: string;
        new_password: string;
        secondary_password: string;
      },
  );
