/**
 * The account's safety (upstream/API.md "Security"): two-factor sign-in with an authenticator app
 * (TOTP, RFC 6238) and one-time backup codes, the second step of a sign-in, and the account's
 * signed-in sessions (see them, end one, end all but this one). Real accounts only: a demo account
 * has no password to protect.
 *
 * A code field takes either the app's current 6-digit code or one of the backup codes (4 + 4
 * letters and digits, with or without its dash, any case); each is accepted once.
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { filled, LoginDataSchema, optionalText, secret } from "./identity";
import { BACKUP_CODE_RE, normaliseSecurityCode, TOTP_CODE_RE } from "./security-rules";

export { SecondFactorNeededSchema, type SecondFactorNeeded } from "./identity";

export {
  BACKUP_CODE_ALPHABET,
  BACKUP_CODE_COUNT,
  BACKUP_CODE_RE,
  normaliseSecurityCode,
  SECOND_FACTOR_TTL_S,
  TOTP_CODE_RE,
} from "./security-rules";

/** A second-factor code: the app's 6 digits or a backup code; anything else is refused. */
export const securityCode = () =>
  z.preprocess(
    (v) => (typeof v === "number" ? String(v) : v),
    z
      .string({ message: "security.two_factor_code_format" })
      .transform(normaliseSecurityCode)
      .refine((s) => TOTP_CODE_RE.test(s) || BACKUP_CODE_RE.test(s), {
        message: "security.two_factor_code_format",
      }),
  );

/** The same, optional: required by the service only when the account has two-factor on. */
const optionalSecurityCode = () =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), securityCode().optional());

export const TwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** While a set-up waits for its first code: the secret to type and the otpauth URI for the QR. */
  setup: z
    .object({
      secret: z.string().describe("base32, for typing into the app by hand"),
      uri: z.string().describe("otpauth://totp/… for a QR code"),
    })
    .nullable(),
  backup_codes_left: z.number().int().describe("unused backup codes; 0 while two-factor is off"),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

export const BackupCodesSchema = z.object({
  backup_codes: z.array(z.string()).describe("shown once: only their hashes are kept"),
});
export type BackupCodes = z.infer<typeof BackupCodesSchema>;

export const SessionSchema = z.object({
  id: z.string().describe("names the session to end it"),
  device: z
    .string()
    .describe('browser and system read from the User-Agent: "Chrome 120 · Android 14"'),
  user_agent: z.string().describe("the browser's or app's User-Agent at sign-in; empty if none"),
  ip: z.string().describe("the address it signed in from; empty if unknown"),
  created_at: z.string().describe("sign-in time, UTC"),
  used_at: z.string().describe("last use, UTC, to the minute"),
  current: z.boolean().describe("the session that asks"),
});
export type AccountSession = z.infer<typeof SessionSchema>;

export const twoFactorStatus = endpoint({
  data: TwoFactorStatusSchema,
  method: "GET",
  path: "/api/user/two_factor",
  auth: true,
  realAccount: true,
  tag: "security",
  summary:
    "Whether two-factor sign-in is on, a set-up waiting for its first code, backup codes left",
  query: z.object({ ...cacheBuster }),
});

export const twoFactorSetup = endpoint({
  data: TwoFactorStatusSchema,
  method: "POST",
  path: "/api/user/two_factor_setup",
  auth: true,
  realAccount: true,
  tag: "security",
  summary: "Start turning two-factor on: a new secret for the authenticator app (not yet in force)",
  body: z.object({}),
});

export const twoFactorEnable = endpoint({
  data: BackupCodesSchema,
  method: "POST",
  path: "/api/user/two_factor_enable",
  auth: true,
  realAccount: true,
  tag: "security",
  summary: "Turn two-factor on with the app's first code; answers the 10 backup codes, once",
  body: z.object({ code: securityCode() }),
});

export const twoFactorDisable = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/user/two_factor_disable",
  auth: true,
  realAccount: true,
  tag: "security",
  summary: "Turn two-factor off with a code (or a backup code) and the password",
  body: z.object({ code: securityCode(), password: secret() }),
});

export const twoFactorBackupCodes = endpoint({
  data: BackupCodesSchema,
  method: "POST",
  path: "/api/user/two_factor_backup_codes",
  auth: true,
  realAccount: true,
  tag: "security",
  summary: "Replace the backup codes (the old ones stop working); answers the new ones, once",
  body: z.object({ code: securityCode() }),
});

export const loginSecondFactor = endpoint({
  data: LoginDataSchema,
  method: "POST",
  path: "/api/user/login_second_factor",
  auth: false,
  tag: "security",
  summary: "The second step of a sign-in with two-factor on: the challenge and a code",
  body: z.object({
    challenge: filled(128),
    code: securityCode(),
    /** The device's own opaque id, as loginForU's (a sign-in from a new device is announced). */
    device: optionalText(64),
  }),
});

export const sessionList = endpoint({
  data: z.array(SessionSchema),
  method: "GET",
  path: "/api/user/sessions",
  auth: true,
  realAccount: true,
  tag: "security",
  summary: "The account's signed-in sessions, the most recently used first",
  query: z.object({ ...cacheBuster }),
});

export const sessionEnd = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/user/session_end",
  auth: true,
  realAccount: true,
  tag: "security",
  summary: "End one of the account's sessions (its live streams end with it)",
  body: z.object({ id: filled(32) }),
});

export const sessionEndOthers = endpoint({
  data: z.object({ ended: z.number().int() }),
  method: "POST",
  path: "/api/user/session_end_others",
  auth: true,
  realAccount: true,
  tag: "security",
  summary: "End every session of the account but the one that asks",
  body: z.object({}),
});

/** The second-factor code a withdrawal or a new withdrawal address carries when two-factor is on. */
export const totpCodeField = optionalSecurityCode;
