/** Settings and reference-data calls of the upstream. */
import * as identityApi from "@contract/api/identity";
import * as settingsApi from "@contract/api/settings";
import type { Captcha } from "@contract/api/identity";
import { isOn, type AreaCode, type BasicInfo } from "@contract/api/settings";
import { type Caller, type UpstreamResult, send } from "./client.server";

export function getBasicInfo(c: Caller): Promise<UpstreamResult<BasicInfo>> {
  return send<BasicInfo>(c, settingsApi.getBasicInfo, {}, { init: true });
}

export function areaList(c: Caller): Promise<UpstreamResult<AreaCode[]>> {
  return send<AreaCode[]>(c, settingsApi.areaList, {}, { init: true });
}

/** GET /api/default/setting?key=KEY: the raw value of a public setting (a string, or null). */
export function setting(c: Caller, key: string): Promise<UpstreamResult<string | null>> {
  return send<string | null>(c, settingsApi.setting, { key }, { init: true });
}

/** Whether mobile sign-up and sign-in are offered (setting is_show_mobile). */
export async function isShowMobile(c: Caller): Promise<UpstreamResult<boolean>> {
  const r = await setting(c, "is_show_mobile");
  return r.ok ? { ...r, data: isOn(r.data) } : r;
}

/** Whether the send-code forms must show a captcha (setting register.captcha). */
export async function captchaRequired(c: Caller): Promise<UpstreamResult<boolean>> {
  const r = await setting(c, "register.captcha");
  return r.ok ? { ...r, data: isOn(r.data) } : r;
}

export function captcha(c: Caller): Promise<UpstreamResult<Captcha>> {
  return send<Captcha>(c, identityApi.captcha, {}, { init: true });
}
