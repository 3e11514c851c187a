/** Chart choice calls of the upstream (upstream/API.md "Chart"). */
import * as api from "@contract/api/chart";
import type { ChartSettings } from "@contract/api/chart-rules";
import { type Caller, type UpstreamResult, send } from "./client.server";

/** The signed-in user's chart choice (the defaults until one is saved). */
export function chartSettingsGet(c: Caller): Promise<UpstreamResult<ChartSettings>> {
  return send<ChartSettings>(c, api.chartSettingsGet, {});
}

/** Saves the choice, as its flat fields (contract/api/chart-rules.ts fieldsOfSettings). */
export function chartSettingsSave(
  c: Caller,
  fields: Record<string, string>,
): Promise<UpstreamResult<ChartSettings>> {
  return send<ChartSettings>(c, api.chartSettingsSave, fields);
}
