/**
 * The account screens' forms: the password change (/mine/password) with its send-code step to the
 * account's own address, and binding an e-mail (/mine/email) with its send-code step to that e-mail.
 */
import { z } from "zod";
import { MSG, checkNewPassword, isEmail, issue, loose, loosePassword, need } from "./fields";

/** The send-code step of /mine/password: no recipient, the upstream uses the account's own. */
export const ownCodeSchema = z.object({ intent: z.literal("send_code") });

export const passwordChangeSchema = z
  .object({
    auth_code: loose(16),
    new_password: loosePassword(),
    re_password: loosePassword(),
  })
  .superRefine((v, ctx) => {
    need(ctx, v.auth_code, "auth_code", MSG.code);
    checkNewPassword(ctx, v.new_password, v.re_password, {
      password: "new_password",
      confirm: "re_password",
    });
  })
  .transform((v) => v as { auth_code: string; new_password: string; re_password: string });

function checkEmail(ctx: z.RefinementCtx, email: string | undefined): void {
  if (need(ctx, email, "email", MSG.complete) && !isEmail(email))
    issue(ctx, "email", MSG.invalidEmail);
}

/** The send-code step of /mine/email: the code goes to the e-mail being bound. */
export const bindEmailCodeSchema = z
  .object({ intent: z.literal("send_code"), email: loose(128) })
  .superRefine((v, ctx) => checkEmail(ctx, v.email))
  .transform((v) => v as { email: string });

export const bindEmailSchema = z
  .object({ email: loose(128), auth_code: loose(16) })
  .superRefine((v, ctx) => {
    checkEmail(ctx, v.email);
    need(ctx, v.auth_code, "auth_code", MSG.code);
  })
  .transform((v) => v as { email: string; auth_code: string });
