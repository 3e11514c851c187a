/**
 * The security forms: the second step of a sign-in (/login/code), and /mine/security's forms (turn
 * two-factor on with a first code, turn it off with a code and the password, new backup codes, end
 * a session, end every other session). A code is the app's 6 digits or a backup code.
 */
import { z } from "zod";
import { BACKUP_CODE_RE, normaliseSecurityCode, TOTP_CODE_RE } from "@contract/api/security-rules";
import { MSG } from "./fields";

const CODE_MSG = "security:code_format";

/** A second-factor code as typed: spaces dropped, any case. */
const securityCode = z
  .string({ required_error: MSG.code, invalid_type_error: MSG.code })
  .transform(normaliseSecurityCode)
  .refine((s) => s !== "", MSG.code)
  .refine((s) => s === "" || TOTP_CODE_RE.test(s) || BACKUP_CODE_RE.test(s), CODE_MSG);

export const secondFactorSchema = z.object({ code: securityCode });
export const secondFactorRestartSchema = z.object({ intent: z.literal("restart") });

export const twoFactorSetupSchema = z.object({ intent: z.literal("setup") });
export const twoFactorEnableSchema = z.object({ code: securityCode });
export const twoFactorDisableSchema = z.object({
  code: securityCode,
  password: z.string({ required_error: MSG.password }).min(1, MSG.password),
});
export const backupCodesSchema = z.object({ code: securityCode });
export const sessionEndSchema = z.object({
  id: z.string({ required_error: MSG.complete }).trim().min(1, MSG.complete).max(32),
});
export const sessionEndOthersSchema = z.object({ intent: z.literal("end_others") });

/** The code field a withdrawal and a new withdrawal address carry while two-factor is on. */
export const optionalSecurityCode = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
  securityCode.optional(),
);
