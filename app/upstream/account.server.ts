/** Account calls of the upstream (product-spec.md section 7, upstream/API.md "Accounts"). */
import * as identityApi from "@contract/api/identity";
import type { Balance, CodeSent, LoginData, SignInAnswer, User } from "@contract/api/identity";
import type { CodePurpose, LoginType } from "@contract/enums";
import { CODE } from "@contract/envelope";
import { getSession } from "~/utils/session.server";
import { type Caller, type CallOptions, type UpstreamResult, send } from "./client.server";

/** The upstream's user record (the contract's User). */
export type UpstreamUser = User;

/** A password sign-in: a session, or (two-factor on) the challenge its second step answers. */
export function loginForU(
  c: Caller,
  p: {
    account: string;
    password: string;
    login_type: LoginType;
    area_id?: number | string;
    device?: string;
  },
): Promise<UpstreamResult<SignInAnswer>> {
  return send<SignInAnswer>(c, identityApi.loginForU, p, { init: true, token: null });
}

export function loginDemo(c: Caller, demo_id: string): Promise<UpstreamResult<LoginData>> {
  return send<LoginData>(c, identityApi.loginForU, { demo_id }, { init: true, token: null });
}

/** Creates a demo account (POST here: it changes state). */
export function createAccountDemoForU(c: Caller): Promise<UpstreamResult<{ demo_id: string }>> {
  return send<{ demo_id: string }>(
    c,
    identityApi.createAccountDemoForU,
    {},
    { init: true, token: null },
  );
}

interface RegisterParams {
  type: "email" | "mobile";
  account: string;
  password: string;
  re_password: string;
  sms_code: string;
  area_id?: number | string;
  invite_code?: string;
  mobile?: string;
}

export function register(c: Caller, p: RegisterParams): Promise<UpstreamResult<unknown>> {
  return send<unknown>(c, identityApi.register, { ...p }, { init: true, token: null });
}

/** type 1 register, 2 reset; captcha fields when the register.captcha setting is on. */
interface SendCodeParams {
  to: string;
  type: CodePurpose;
  area_id?: number | string;
  captcha_id?: string;
  captcha_code?: string;
}

export function sendEmail(c: Caller, p: SendCodeParams): Promise<UpstreamResult<CodeSent>> {
  return send<CodeSent>(c, identityApi.sendEmail, { ...p }, { init: true });
}

export function sendSms(c: Caller, p: SendCodeParams): Promise<UpstreamResult<CodeSent>> {
  return send<CodeSent>(c, identityApi.sendSms, { ...p }, { init: true });
}

interface ForgetPasswordParams {
  type: "email" | "mobile";
  account: string;
  new_password: string;
  secondary_password: string;
  auth_code: string;
  area_id?: number | string;
}

export function forgetPassword(
  c: Caller,
  p: ForgetPasswordParams,
): Promise<UpstreamResult<unknown>> {
  return send<unknown>(c, identityApi.forgetPassword, { ...p }, { init: true, token: null });
}

export function amendPassword(
  c: Caller,
  p: { new_password: string; auth_code: string; type: "email" | "mobile"; re_password?: string },
  opts: CallOptions = {},
): Promise<UpstreamResult<unknown>> {
  return send<unknown>(c, identityApi.amendPassword, p, opts);
}

export function userInfo(c: Caller, opts: CallOptions = {}): Promise<UpstreamResult<UpstreamUser>> {
  return send<UpstreamUser>(c, identityApi.userInfo, {}, opts);
}

export function getBalance(c: Caller, opts: CallOptions = {}): Promise<UpstreamResult<Balance>> {
  return send<Balance>(c, identityApi.getBalance, {}, opts);
}

/** Revokes the token upstream (an already invalid token is fine: the session ends anyway). */
export function logout(c: Caller): Promise<UpstreamResult<unknown>> {
  return send<unknown>(c, identityApi.logout, {}, { init: true, soft: true });
}

/**
 * Whom the upstream says `token` belongs to: its user id, "revoked" when the upstream refuses it
 * (signed out, password reset, expired), "unknown" when the upstream cannot be asked right now.
 * For background work that has no page request (the live bridge).
 */
export async function confirmToken(token: string): Promise<{ id: number } | "revoked" | "unknown"> {
  const request = new Request("http://tradepost.invalid/live");
  const c: Caller = { request, lang: "en", token, session: await getSession(request) };
  const r = await send<UpstreamUser>(c, identityApi.userInfo, {}, { init: true, soft: true });
  if (r.ok) {
    const id = Number(r.data.id);
    return Number.isSafeInteger(id) && id > 0 ? { id } : "unknown";
  }
  return r.code === CODE.SESSION_INVALID ? "revoked" : "unknown";
}
