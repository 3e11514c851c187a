/**
 * The chart's choices of a signed-in user (upstream/API.md "Chart"): the chart type, the period
 * and the indicators with their parameters, kept on the server so that every device shows the
 * same chart. The choices, defaults and bounds are in ./chart-rules.ts; the indicators themselves
 * are computed by both programs' charts with contract/indicators.ts.
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { PERIODS } from "../constants";
import {
  CHART_TYPES,
  INDICATOR_KEYS,
  indicatorAllowed,
  paramAllowed,
  paramField,
  paramsOf,
  type ChartSettings,
  type ParamRule,
} from "./chart-rules";

export {
  CHART_TYPES,
  DEFAULT_CHART_SETTINGS,
  INDICATOR_KEYS,
  INDICATORS,
  type ChartSettings,
  type ChartType,
  type IndicatorKey,
} from "./chart-rules";

/** The refusals' message keys a form shows: the upstream's own, or the web's. */
export interface ChartMessages {
  /** A parameter outside its bounds or off its step (with `min` and `max`). */
  range: string;
  /** An unknown chart type or period. */
  choice: string;
  /** MACD's fast average not shorter than its slow one. */
  macd: string;
}

const UPSTREAM_MESSAGES: ChartMessages = {
  range: "chart.param_range",
  choice: "chart.invalid_choice",
  macd: "chart.macd_order",
};

/** A number field of a form (a JSON number is read as it is), checked against its rule. */
function paramSchema(rule: ParamRule, msg: ChartMessages) {
  return z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : v),
    z.number({ message: msg.range }).refine((v) => paramAllowed(rule, v), {
      message: msg.range,
      params: { min: rule.min, max: rule.max },
    }),
  );
}

/**
 * The flat fields of a chart choice (chart-rules.ts), checked field by field: the type and period,
 * an indicator's key "1" when shown (absent, empty or "0": not shown), every parameter within its
 * bounds. The rule across fields (MACD's order) is macdRefusal's.
 */
export function chartFieldsSchema(msg: ChartMessages = UPSTREAM_MESSAGES) {
  const shape: Record<string, z.ZodTypeAny> = {
    type: z.enum(CHART_TYPES, { message: msg.choice }),
    period: z.enum(PERIODS, { message: msg.choice }),
  };
  for (const key of INDICATOR_KEYS) {
    shape[key] = z
      .enum(["1", "0", ""], { message: msg.choice })
      .optional()
      .describe(`"1": ${key} shown`);
    for (const [name, rule] of paramsOf(key))
      shape[paramField(key, name)] = paramSchema(rule, msg)
        .optional()
        .describe(
          `${key} ${name}: ${rule.min} to ${rule.max}, step ${rule.step} (default ${rule.def})`,
        );
  }
  return z.object(shape);
}

/** The fields' refusal across parameters (MACD's fast not shorter than its slow), or null. */
export function macdRefusal(v: Record<string, unknown>): "macd_fast" | null {
  const m = settingsOfFields(v).indicators.macd;
  return indicatorAllowed("macd", m) ? null : "macd_fast";
}

/** The fields' values as settings (a parameter not posted takes its default). */
export function settingsOfFields(v: Record<string, unknown>): ChartSettings {
  const indicators = {} as Record<string, Record<string, number | boolean>>;
  for (const key of INDICATOR_KEYS) {
    const choice: Record<string, number | boolean> = { on: v[key] === "1" };
    for (const [name, rule] of paramsOf(key)) {
      const n = v[paramField(key, name)];
      choice[name] = typeof n === "number" ? n : rule.def;
    }
    indicators[key] = choice;
  }
  return {
    type: v.type as ChartSettings["type"],
    period: v.period as ChartSettings["period"],
    indicators: indicators as ChartSettings["indicators"],
  };
}

/**
 * The answer: the choice as it is kept. Built from INDICATORS, so its inferred type is loose: it is
 * typed as the ChartSettings it describes key by key.
 */
export const ChartSettingsSchema: z.ZodType<ChartSettings> = z
  .object({
    type: z.enum(CHART_TYPES),
    period: z.enum(PERIODS),
    indicators: z.object(
      Object.fromEntries(
        INDICATOR_KEYS.map((key) => [
          key,
          z.object({
            on: z.boolean(),
            ...Object.fromEntries(paramsOf(key).map(([name]) => [name, z.number()])),
          }),
        ]),
      ),
    ),
  })
  .describe(
    "the chart type, the period and every indicator (shown or not, its parameters)",
  ) as unknown as z.ZodType<ChartSettings>;

export const chartSettingsGet = endpoint({
  data: ChartSettingsSchema,
  method: "GET",
  path: "/api/chart/settings",
  auth: true,
  tag: "chart",
  summary: "The user's chart choice (the defaults until one is saved)",
  query: z.object({ ...cacheBuster }),
});

export const chartSettingsSave = endpoint({
  data: ChartSettingsSchema,
  method: "POST",
  path: "/api/chart/settings",
  auth: true,
  tag: "chart",
  summary: "Saves the user's chart choice (every field; an indicator left out is not shown)",
  body: chartFieldsSchema(),
});
