/** Settings and reference data (upstream/API.md "Settings"). */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { filled } from "./identity";

export const BasicInfoSchema = z.object({
  service_link: z.string().describe('the support chat\'s address, or ""'),
  service_link_type: z
    .number()
    .int()
    .describe("SERVICE_LINK_TYPE: 1 the support chat opens in a frame, 2 as a link"),
  verify_reg_type: z.number().int(),
  trade_fee_type: z.number().int().describe("FEE_TYPE of enums.ts"),
});
export type BasicInfo = z.infer<typeof BasicInfoSchema>;

export const AreaCodeSchema = z.object({
  id: z.number().int(),
  code: z.string().describe("ISO country code, e.g. HK"),
  global_code: z.string().describe("dialling prefix, e.g. +852"),
});
export type AreaCode = z.infer<typeof AreaCodeSchema>;

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

export const areaList = endpoint({
  data: z.array(AreaCodeSchema),
  method: "GET",
  path: "/api/default/area_list",
  auth: false,
  tag: "settings",
  summary: "Dialling areas for mobile numbers",
  query: z.object({ ...cacheBuster }),
});

export const setting = endpoint({
  data: z.string().nullable().describe("the setting's stored text, or null when it is not set"),
  method: "GET",
  path: "/api/default/setting",
  auth: false,
  tag: "settings",
  summary: "The stored text of one public setting",
  query: z.object({ key: filled(64), ...cacheBuster }),
});

export const getBasicInfo = endpoint({
  data: BasicInfoSchema,
  method: "GET",
  path: "/api/basicSet/getBasicInfo",
  auth: false,
  tag: "settings",
  summary: "Support link, verification and fee settings",
  query: z.object({ ...cacheBuster }),
});
