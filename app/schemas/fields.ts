/**
 * Building blocks of the form schemas. Messages are i18n keys ("auth:...") translated where shown;
 * they match product-spec.md sections 5 and 8.
 *
 * Forms with cross-field rules (passwords that must match) declare their fields loosely and check
 * everything in one superRefine, so that every problem is reported at once (zod skips an object's
 * refinements while any field fails).
 */
import { z } from "zod";
import { IDEMPOTENCY_KEY_RE, PASSWORD_MAX, PASSWORD_MIN } from "@contract/constants";

export const MSG = {
  complete: "auth:please_complete",
  account: "auth:input_account",
  invalidEmail: "auth:invalid_email",
  invalidMobile: "auth:invalid_mobile",
  password: "auth:input_password",
  passwordLength: "auth:password_length",
  inconsistency: "auth:password_inconsistency",
  code: "auth:input_code",
  area: "auth:choose_area",
  captcha: "auth:input_captcha",
} as const;

/** A required text field (conform turns an empty input into undefined). */
export const text = (message: string = MSG.complete) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message);

export const optionalText = (max = 64) => z.string().trim().max(max).optional();

/** A loosely declared field, checked by the form's superRefine. */
export const loose = (max = 256) => z.string().trim().max(max).optional();
/** A loosely declared password field (not trimmed: spaces are legal). */
export const loosePassword = () => z.string().max(256).optional();

export const identityType = z.enum(["email", "mobile"]).default("email");
type IdentityType = z.infer<typeof identityType>;

/** An area id from /api/default/area_list. */
export const areaId = z.number({ invalid_type_error: MSG.area }).int().positive(MSG.area);

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
export const isEmail = (v: string) => v.length <= 254 && EMAIL_RE.test(v);
const isMobile = (v: string) => /^\d{5,15}$/.test(v.replace(/[\s\-().]/g, ""));
const passwordLengthOk = (v: string) =>
  [...v].length >= PASSWORD_MIN && [...v].length <= PASSWORD_MAX;

/** Adds an issue on a field. */
export function issue(ctx: z.RefinementCtx, field: string, message: string): void {
  ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
}

/** Reports a missing field; true when present. */
export function need(
  ctx: z.RefinementCtx,
  value: string | undefined,
  field: string,
  message: string,
): value is string {
  if (value === undefined || value === "") {
    issue(ctx, field, message);
    return false;
  }
  return true;
}

/** Checks an account against its identity type (e-mail format or phone digits and an area). */
export function checkIdentity(
  v: { type?: IdentityType; login_type?: IdentityType; account?: string; area_id?: number },
  ctx: z.RefinementCtx,
  opts: { requireArea: boolean },
): void {
  const type = v.type ?? v.login_type ?? "email";
  if (v.account) {
    if (type === "email" && !isEmail(v.account)) issue(ctx, "account", MSG.invalidEmail);
    if (type === "mobile" && !isMobile(v.account)) issue(ctx, "account", MSG.invalidMobile);
  }
  if (type === "mobile" && opts.requireArea && !v.area_id) issue(ctx, "area_id", MSG.area);
}

/** A new password and its confirmation: present, PASSWORD_MIN to PASSWORD_MAX characters, equal. */
export function checkNewPassword(
  ctx: z.RefinementCtx,
  password: string | undefined,
  confirm: string | undefined,
  fields: { password: string; confirm: string },
): void {
  const has = need(ctx, password, fields.password, MSG.password);
  if (has && !passwordLengthOk(password)) issue(ctx, fields.password, MSG.passwordLength);
  const hasConfirm = need(ctx, confirm, fields.confirm, MSG.complete);
  if (has && hasConfirm && password !== confirm) issue(ctx, fields.confirm, MSG.inconsistency);
}

/**
 * The `idempotency_key` of a money or order form, made by newIdempotencyKey() (a UUID) when the form
 * was rendered: at least 8 characters and the contract's IDEMPOTENCY_KEY_RE (what the upstream
 * accepts). `message` is the i18n key shown when it is missing or malformed (an expired form).
 */
export const idempotencyKey = (message = "trade:errors.expired") =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .min(8, message)
    .regex(IDEMPOTENCY_KEY_RE, message);
