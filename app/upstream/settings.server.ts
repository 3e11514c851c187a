/** Settings and reference-data calls of the upstream. */
import type { Captcha } from "@contract/api/identity";
import { isOn, type AreaCode, type BasicInfo } from "@contract/api/settings";
import { get, type Caller, type UpstreamResult } from "./client.server";

export type { AreaCode, BasicInfo, Captcha };
export { isOn };

export function getBasicInfo(c: Caller): Promise<UpstreamResult<BasicInfo>> {
  return get<BasicInfo>(c, "/api/basicSet/getBasicInfo", {}, { init: true });
}

export function areaList(c: Caller): Promise<UpstreamResult<AreaCode[]>> {
  return get<AreaCode[]>(c, "/api/default/area_list", {}, { init: true });
}

/** GET /api/default/setting?key=KEY: the raw value of a public setting (a string, or null). */
export function setting(c: Caller, key: string): Promise<UpstreamResult<string | null>> {
  return get<string | null>(c, "/api/default/setting", { key }, { init: true });
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
  return get<Captcha>(c, "/api/captcha", {}, { init: true });
}
