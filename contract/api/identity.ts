/** Accounts: codes, captcha, sign-up, sign-in, demo accounts, passwords (upstream/API.md "Accounts"). */
import { z } from "zod";
import { endpoint, cacheBuster, id, text } from "./endpoint";
import { LOGIN_TYPES } from "../enums";

export interface User {
  id: number;
  /** 8-digit public user number. */
  uid: string;
  email: string | null;
  mobile: string | null;
  area_id?: number | null;
  /** 1 a demo account. */
  is_demo: number;
  invite_code: string | null;
}

export interface LoginData {
  token: string;
  user: User;
}

export interface Balance {
  balance: number;
  lock_balance: number;
}

export interface CodeSent {
  /** Seconds until the same recipient may be sent a code again. */
  resend_in: number;
  /** Seconds the code stays valid. */
  expires_in: number;
}

export interface Captcha {
  id: string;
  /** An `<img src>`-ready data URL. */
  b64s: string;
}

const areaId = id.optional();
const loginType = z.enum(LOGIN_TYPES);

const sendCodeBody = z.object({
  to: text(128),
  /** 1 sign-up, 2 password reset. */
  type: id,
  area_id: areaId,
  captcha_id: text(64).optional(),
  captcha_code: text(16).optional(),
});

export const captcha = endpoint<Captcha>()({
  method: "GET",
  path: "/api/captcha",
  auth: false,
  tag: "identity",
  summary: "A new image captcha",
  query: z.object({ ...cacheBuster }),
});

export const sendEmail = endpoint<CodeSent>()({
  method: "POST",
  path: "/api/notify/send_email",
  auth: false,
  tag: "identity",
  summary: "Send a verification code by e-mail",
  body: sendCodeBody,
});

export const sendSms = endpoint<CodeSent>()({
  method: "POST",
  path: "/api/notify/send_sms",
  auth: false,
  tag: "identity",
  summary: "Send a verification code by text message",
  body: sendCodeBody,
});

export const register = endpoint<null>()({
  method: "POST",
  path: "/api/user/register",
  auth: false,
  tag: "identity",
  summary: "Create an account (does not sign in)",
  body: z.object({
    type: loginType.optional(),
    area_id: areaId,
    account: text(128).optional(),
    password: text(),
    re_password: text(),
    invite_code: text(32).optional(),
    sms_code: text(16).optional(),
    key: text().optional(),
    mobile: text(32).optional(),
  }),
});

export const loginForU = endpoint<LoginData>()({
  method: "POST",
  path: "/api/user/loginForU",
  auth: false,
  tag: "identity",
  summary: "Sign in with account and password, or with a demo_id",
  body: z.object({
    account: text(128).optional(),
    password: text().optional(),
    login_type: loginType.optional(),
    area_id: areaId,
    demo_id: text(64).optional(),
  }),
});

export const createAccountDemoForU = endpoint<{ demo_id: string }>()({
  method: "POST",
  path: "/api/user/createAccountDemoForU",
  auth: false,
  tag: "identity",
  summary: "Create a demo account",
  body: z.object({}),
});

export const userInfo = endpoint<User>()({
  method: "GET",
  path: "/api/user/info",
  auth: true,
  tag: "identity",
  summary: "The signed-in user",
  query: z.object({ ...cacheBuster }),
});

export const getBalance = endpoint<Balance>()({
  method: "GET",
  path: "/v1/api/main/wallet/getBalance",
  auth: true,
  tag: "identity",
  summary: "Cash balance and locked balance",
  query: z.object({ ...cacheBuster }),
});

export const amendPassword = endpoint<null>()({
  method: "POST",
  path: "/api/user/amend_password",
  auth: true,
  tag: "identity",
  summary: "Change the password with a reset code sent to the user's own address",
  body: z.object({
    new_password: text(),
    re_password: text().optional(),
    auth_code: text(16).optional(),
    type: text(16).optional(),
  }),
});

export const forgetPassword = endpoint<null>()({
  method: "POST",
  path: "/api/user/forget_password",
  auth: false,
  tag: "identity",
  summary: "Reset a forgotten password with a reset code",
  body: z.object({
    type: loginType.optional(),
    account: text(128),
    new_password: text(),
    secondary_password: text(),
    auth_code: text(16).optional(),
    area_id: areaId,
  }),
});

export const logout = endpoint<null>()({
  method: "POST",
  path: "/api/user/logout",
  auth: true,
  tag: "identity",
  summary: "Revoke the session token",
  body: z.object({}),
});
