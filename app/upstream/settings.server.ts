/** Settings and reference-data calls of the upstream. */
import { get, type Caller, type UpstreamResult } from "./client.server";

export interface BasicInfo {
  service_link: string;
  service_link_type: number | string;
  verify_reg_type: number | string;
  trade_fee_type: number | string;
  [key: string]: unknown;
}

export interface AreaCode {
  id: number;
  code: string;
  global_code: string;
  name?: string;
}

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

export interface Captcha {
  id: string;
  b64s: string;
}

export function captcha(c: Caller): Promise<UpstreamResult<Captcha>> {
  return get<Captcha>(c, "/api/captcha", {}, { init: true });
}

/** True when a settings value means "on". */
export function isOn(v: unknown): boolean {
  return v === true || v === 1 || v === "1" || v === "true" || v === "on";
}
