/**
 * Accounts: codes, captcha, sign-up, sign-in, demo accounts, passwords (upstream/API.md "Accounts").
 * Each field's rule is here and is the one check of its request: a missing required field asks to
 * complete it (invalid_input), a malformed one answers its own accounts.* message. What needs the
 * store or another field (an area that exists, the address a type needs, a common password, equal
 * passwords, the code) is the identity service's.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { PASSWORD_MAX, PASSWORD_MIN } from "../constants";
import { CODE_PURPOSE, LOGIN_TYPES, type LoginType } from "../enums";
import { choiceField, ID_DIGITS, optionalWholeField, wholeField } from "../fields";

export const UserSchema = z.object({
  id: z.number().int(),
  uid: z.string().describe("8-digit public user number"),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  area_id: z
    .number()
    .int()
    .nullable()
    .describe("the mobile number's dialling area (settings' area_list id), or null"),
  is_demo: z.number().int().describe("1 a demo account"),
  invite_code: z.string().describe("the account's own invite code"),
});
export type User = z.infer<typeof UserSchema>;

export const LoginDataSchema = z.object({
  token: z.string(),
  user: UserSchema,
});
export type LoginData = z.infer<typeof LoginDataSchema>;

/** What a password sign-in answers when the account has two-factor on: no token yet. */
export const SecondFactorNeededSchema = z.object({
  second_factor: z.object({
    challenge: z.string().describe("sent back with the code to loginSecondFactor"),
    expires_in: z.number().int().describe("seconds the challenge waits for its code"),
  }),
});
export type SecondFactorNeeded = z.infer<typeof SecondFactorNeededSchema>;

/** A password sign-in's answer: signed in, or (two-factor on) the second step's challenge. */
export const SignInAnswerSchema = z.union([LoginDataSchema, SecondFactorNeededSchema]);
export type SignInAnswer = z.infer<typeof SignInAnswerSchema>;

export const BalanceSchema = z.object({
  balance: z.number(),
  lock_balance: z.number().describe("money held by withdrawals under review"),
});
export type Balance = z.infer<typeof BalanceSchema>;

export const CodeSentSchema = z.object({
  resend_in: z.number().int().describe("seconds until the same recipient may be sent a code again"),
  expires_in: z.number().int().describe("seconds the code stays valid"),
});
export type CodeSent = z.infer<typeof CodeSentSchema>;

export const CaptchaSchema = z.object({
  id: z.string(),
  b64s: z.string().describe("an `<img src>`-ready data URL"),
});
export type Captcha = z.infer<typeof CaptchaSchema>;

export const DemoCreatedSchema = z.object({
  demo_id: z.string().describe("signs the demo account in (loginForU demo_id)"),
});

/** A form's field as the schemas read it: a JSON number as its text. */
const wireText = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v);
/** Blank text (nothing, or spaces only) as absent. */
const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** What no form field holds (an object) as absent. */
const nonScalarAsAbsent = (v: unknown) => (v !== null && typeof v === "object" ? undefined : v);

/**
 * A required field read by `rule`: absent, blank or not a form value (an object) is refused with
 * the common invalid_input ("Please complete: FIELD"); a value `rule` refuses answers `rule`'s own
 * message.
 */
export function present<T extends z.ZodTypeAny>(rule: T) {
  return z.preprocess(
    (v) => blankAsAbsent(nonScalarAsAbsent(v)),
    z
      .unknown()
      .refine((v) => v !== undefined)
      .pipe(rule),
  );
}

/** Required text of at most `max` characters, trimmed. */
export const filled = (max: number) => present(text(max).transform((s) => s.trim()));

/** Optional text of at most `max` characters, trimmed; blank is absent. */
export const optionalText = (max: number) =>
  z.preprocess(
    blankAsAbsent,
    text(max)
      .transform((s) => s.trim())
      .optional(),
  );

/** A secret as typed (spaces are part of it): required, at most `max` characters. */
export const secret = (max = 256) =>
  z.preprocess(
    wireText,
    z
      .string()
      .min(1)
      .refine((s) => [...s].length <= max, { params: { max } }),
  );

/** An optional secret as typed; empty is absent. */
const optionalSecret = (max = 256) =>
  z.preprocess(
    (v) => (v === "" ? undefined : wireText(v)),
    z
      .string()
      .refine((s) => [...s].length <= max, { params: { max } })
      .optional(),
  );

/**
 * A new password as typed: PASSWORD_MIN to PASSWORD_MAX characters (accounts.password_length).
 * Whether it is too common is the identity service's rule: it needs the server's list.
 */
export const newPassword = () =>
  z.preprocess(
    wireText,
    z
      .string()
      .min(1)
      .refine((s) => [...s].length >= PASSWORD_MIN && [...s].length <= PASSWORD_MAX, {
        message: "accounts.password_length",
      }),
  );

/** The legacy numbers a type field may carry: the account's text tells e-mail from mobile. */
const AUTO_TYPES = ["", "1", "2"];

/**
 * Which address an account call means: "email" or "mobile" (any case); absent, blank, "1" or "2"
 * (older clients' numbers) leave it to the account's text (undefined). Anything else is refused
 * with accounts.type_invalid.
 */
export const loginTypeField = () =>
  z.preprocess(
    (v) => {
      const t = wireText(v);
      return typeof t === "string" ? t.trim().toLowerCase() : t;
    },
    z
      .string({ message: "accounts.type_invalid" })
      .refine((t) => AUTO_TYPES.includes(t) || (LOGIN_TYPES as readonly string[]).includes(t), {
        message: "accounts.type_invalid",
      })
      .transform((t): LoginType | undefined => (t === "email" || t === "mobile" ? t : undefined))
      .optional(),
  );

/** An optional dialling area (settings' area_list id); a malformed one is accounts.invalid_area. */
const areaId = optionalWholeField(ID_DIGITS, "accounts.invalid_area");

/** What a code is for: 1 sign-up, 2 password reset (CODE_PURPOSE). */
const purpose = present(
  choiceField([CODE_PURPOSE.REGISTER, CODE_PURPOSE.RESET], "accounts.type_invalid"),
);

const captchaFields = {
  captcha_id: optionalText(64),
  captcha_code: optionalText(16),
};

export const captcha = endpoint({
  data: CaptchaSchema,
  method: "GET",
  path: "/api/captcha",
  auth: false,
  tag: "identity",
  summary: "A new image captcha",
  query: z.object({ ...cacheBuster }),
});

export const sendEmail = endpoint({
  data: CodeSentSchema,
  method: "POST",
  path: "/api/notify/send_email",
  auth: false,
  tag: "identity",
  summary: "Send a verification code by e-mail",
  body: z.object({ to: filled(128), type: purpose, ...captchaFields }),
});

export const sendSms = endpoint({
  data: CodeSentSchema,
  method: "POST",
  path: "/api/notify/send_sms",
  auth: false,
  tag: "identity",
  summary: "Send a verification code by text message",
  body: z.object({
    to: filled(128),
    area_id: present(wholeField(ID_DIGITS, "accounts.invalid_area")),
    type: purpose,
    ...captchaFields,
  }),
});

export const register = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/user/register",
  auth: false,
  tag: "identity",
  summary: "Create an account (does not sign in)",
  body: z.object({
    type: loginTypeField(),
    /** The e-mail address, or the mobile number when `mobile` is not sent. */
    account: optionalText(128),
    mobile: optionalText(32),
    /** Required for a mobile number. */
    area_id: areaId,
    password: newPassword(),
    re_password: secret(),
    /** The sign-up code sent to the address (any channel). */
    sms_code: optionalText(16),
    invite_code: optionalText(32),
    key: optionalText(256),
  }),
});

export const loginForU = endpoint({
  data: SignInAnswerSchema,
  method: "POST",
  path: "/api/user/loginForU",
  auth: false,
  tag: "identity",
  summary: "Sign in with account and password, or with a demo_id",
  body: z.object({
    /** Signs in the demo account; the other fields are not read. */
    demo_id: optionalText(64),
    login_type: loginTypeField(),
    /** Required without demo_id. */
    account: optionalText(128),
    /** Required without demo_id. */
    password: optionalSecret(),
    area_id: areaId,
    /**
     * The device's own opaque id (the web keeps one in a long-lived cookie): a sign-in from a
     * device the account has not used before is announced to the user. Without it the
     * User-Agent stands for the device.
     */
    device: optionalText(64),
  }),
});

export const createAccountDemoForU = endpoint({
  data: DemoCreatedSchema,
  method: "POST",
  path: "/api/user/createAccountDemoForU",
  auth: false,
  tag: "identity",
  summary: "Create a demo account",
  body: z.object({}),
});

export const userInfo = endpoint({
  data: UserSchema,
  method: "GET",
  path: "/api/user/info",
  auth: true,
  tag: "identity",
  summary: "The signed-in user",
  query: z.object({ ...cacheBuster }),
});

export const getBalance = endpoint({
  data: BalanceSchema,
  method: "GET",
  path: "/v1/api/main/wallet/getBalance",
  auth: true,
  tag: "identity",
  summary: "Cash balance and locked balance",
  query: z.object({ ...cacheBuster }),
});

export const amendPassword = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/user/amend_password",
  auth: true,
  tag: "identity",
  realAccount: true,
  summary: "Change the password with a reset code sent to the user's own address",
  body: z.object({
    new_password: newPassword(),
    /** Checked against new_password when sent. */
    re_password: optionalSecret(),
    auth_code: optionalText(16),
    /** Which of the account's addresses got the code; when absent, its e-mail if it has one. */
    type: loginTypeField(),
  }),
});

export const forgetPassword = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/user/forget_password",
  auth: false,
  tag: "identity",
  summary: "Reset a forgotten password with a reset code",
  body: z.object({
    type: loginTypeField(),
    account: filled(128),
    new_password: newPassword(),
    secondary_password: secret(),
    auth_code: optionalText(16),
    area_id: areaId,
  }),
});

export const logout = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/user/logout",
  auth: true,
  tag: "identity",
  summary: "Revoke the session token",
  body: z.object({}),
});
