/** Profile calls of the upstream (upstream/API.md "Profile"): one typed function per call. */
import * as profileApi from "@contract/api/profile";
import type { InviteInfo } from "@contract/api/profile";
import type { CodeSent } from "@contract/api/identity";
import { type Caller, type UpstreamResult, send } from "./client.server";

/** Sends a password-change code to the account's own e-mail or mobile (chosen by `type`). */
export function sendOwnCode(
  c: Caller,
  type: "email" | "mobile",
): Promise<UpstreamResult<CodeSent>> {
  return send<CodeSent>(c, profileApi.sendOwnCode, { type });
}

/** Sends a code to the e-mail address an account without one wants to bind. */
export function sendBindEmailCode(c: Caller, email: string): Promise<UpstreamResult<CodeSent>> {
  return send<CodeSent>(c, profileApi.sendBindEmailCode, { email });
}

/** Binds the e-mail address with the code sent to it. */
export function bindEmail(
  c: Caller,
  p: { email: string; auth_code: string },
): Promise<UpstreamResult<null>> {
  return send<null>(c, profileApi.bindEmail, p);
}

/** The account's invite code and how many accounts registered with it. */
export function inviteInfo(c: Caller): Promise<UpstreamResult<InviteInfo>> {
  return send<InviteInfo>(c, profileApi.inviteInfo, {});
}
