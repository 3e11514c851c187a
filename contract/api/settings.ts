/** Settings and reference data (upstream/API.md "Settings"). */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { filled } from "./identity";

export interface BasicInfo {
  service_link: string;
  service_link_type: number;
  verify_reg_type: number;
  /** FEE_TYPE of enums.ts. */
  trade_fee_type: number;
}

export interface AreaCode {
  id: number;
  /** ISO country code, e.g. HK. */
  code: string;
  /** Dialling prefix, e.g. +852. */
  global_code: string;
}

/** Settings any client may read with GET /api/default/setting?key=KEY. */
export const PUBLIC_SETTING_KEYS = [
  "is_show_mobile",
  "register.captcha",
  "service_link",
  "service_link_type",
  "verify_reg_type",
  "trade_fee_type",
  "demo.initial_balance",
  /** 1: /product searches companies (contract/api/company.ts) instead of instruments. */
  "is_main",
  /** Where complaints about a company are sent; shown on the company search. */
  "complaint_email",
] as const;
export type PublicSettingKey = (typeof PUBLIC_SETTING_KEYS)[number];

/** True when a setting's value means "on" ("1", "true", "on"). */
export function isOn(v: unknown): boolean {
  return v === true || v === 1 || v === "1" || v === "true" || v === "on";
}

export const areaList = endpoint<AreaCode[]>()({
  method: "GET",
  path: "/api/default/area_list",
  auth: false,
  tag: "settings",
  summary: "Dialling areas for mobile numbers",
  query: z.object({ ...cacheBuster }),
});

export const setting = endpoint<string | null>()({
  method: "GET",
  path: "/api/default/setting",
  auth: false,
  tag: "settings",
  summary: "The stored text of one public setting",
  query: z.object({ key: filled(64), ...cacheBuster }),
});

export const getBasicInfo = endpoint<BasicInfo>()({
  method: "GET",
  path: "/api/basicSet/getBasicInfo",
  auth: false,
  tag: "settings",
  summary: "Support link, verification and fee settings",
  query: z.object({ ...cacheBuster }),
});
