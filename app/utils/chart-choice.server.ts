/**
 * The chart choice of whoever looks at /trade: a signed-in user's is kept by the upstream
 * (GET/POST /api/chart/settings); a signed-out visitor's in the `tp_chart` cookie, as the choice's
 * flat fields (contract/api/chart-rules.ts), read forgivingly. The choice form posts to /trade
 * (intent `chart`) with the CSRF token, like every form, and works without JavaScript.
 */
import { rememberedCookie } from "~/utils/remembered-cookie.server";
import { z } from "zod";
import { chartFieldsSchema, macdRefusal, settingsOfFields } from "@contract/api/chart";
import {
  DEFAULT_CHART_SETTINGS,
  fieldsOfSettings,
  settingsFromFields,
  type ChartSettings,
} from "@contract/api/chart-rules";
import type { Caller } from "~/upstream/client.server";
import { chartSettingsGet, chartSettingsSave } from "~/upstream/chart.server";

export const chartCookie = rememberedCookie("tp_chart");

/** The choice form's schema: the upstream's field rules, the web's messages. */
export const chartFormSchema = chartFieldsSchema({
  range: "chart:errors.range",
  choice: "chart:errors.choice",
  macd: "chart:errors.macd",
})
  .passthrough()
  .superRefine((v, ctx) => {
    const field = macdRefusal(v);
    if (field)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "chart:errors.macd", path: [field] });
  });

/** The choice of the request's user: the upstream's, the cookie's, or the defaults. */
export async function chartChoiceOf(
  request: Request,
  caller: Caller,
  signedIn: boolean,
): Promise<ChartSettings> {
  if (signedIn) {
    const r = await chartSettingsGet(caller);
    return r.ok ? r.data : DEFAULT_CHART_SETTINGS;
  }
  const raw: unknown = await chartCookie.parse(request.headers.get("Cookie"));
  if (typeof raw !== "string") return DEFAULT_CHART_SETTINGS;
  const q = new URLSearchParams(raw);
  return settingsFromFields((name) => q.get(name));
}

/**
 * Keeps a checked choice: with the upstream (its refusal's message, or null), or in the cookie
 * (the Set-Cookie header to send).
 */
export async function keepChartChoice(
  caller: Caller,
  signedIn: boolean,
  value: Record<string, unknown>,
): Promise<{ refused: string } | { headers: Record<string, string> }> {
  const fields = fieldsOfSettings(settingsOfFields(value));
  if (signedIn) {
    const r = await chartSettingsSave(caller, fields);
    return r.ok ? { headers: {} } : { refused: r.msg };
  }
  const cookie = await chartCookie.serialize(new URLSearchParams(fields).toString());
  return { headers: { "Set-Cookie": cookie } };
}
