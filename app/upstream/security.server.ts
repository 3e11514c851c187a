/** Security calls of the upstream (upstream/API.md "Security"): two-factor sign-in and sessions. */
import * as securityApi from "@contract/api/security";
import type { AccountSession, BackupCodes, TwoFactorStatus } from "@contract/api/security";
import type { LoginData } from "@contract/api/identity";
import { type Caller, type UpstreamResult, send } from "./client.server";

export function twoFactorStatus(c: Caller): Promise<UpstreamResult<TwoFactorStatus>> {
  return send<TwoFactorStatus>(c, securityApi.twoFactorStatus, {});
}

export function twoFactorSetup(c: Caller): Promise<UpstreamResult<TwoFactorStatus>> {
  return send<TwoFactorStatus>(c, securityApi.twoFactorSetup, {});
}

export function twoFactorEnable(c: Caller, code: string): Promise<UpstreamResult<BackupCodes>> {
  return send<BackupCodes>(c, securityApi.twoFactorEnable, { code });
}

export function twoFactorDisable(
  c: Caller,
  p: { code: string; password: string },
): Promise<UpstreamResult<null>> {
  return send<null>(c, securityApi.twoFactorDisable, p);
}

export function renewBackupCodes(c: Caller, code: string): Promise<UpstreamResult<BackupCodes>> {
  return send<BackupCodes>(c, securityApi.twoFactorBackupCodes, { code });
}

/** The second step of a sign-in (no session yet: its 999 would mean nothing here). */
export function loginSecondFactor(
  c: Caller,
  p: { challenge: string; code: string; device?: string },
): Promise<UpstreamResult<LoginData>> {
  return send<LoginData>(c, securityApi.loginSecondFactor, p, { init: true, token: null });
}

export function sessionList(c: Caller): Promise<UpstreamResult<AccountSession[]>> {
  return send<AccountSession[]>(c, securityApi.sessionList, {});
}

export function sessionEnd(c: Caller, id: string): Promise<UpstreamResult<null>> {
  return send<null>(c, securityApi.sessionEnd, { id });
}

export function sessionEndOthers(c: Caller): Promise<UpstreamResult<{ ended: number }>> {
  return send<{ ended: number }>(c, securityApi.sessionEndOthers, {});
}
