/**
 * The chart's choices (contract/api/chart.ts holds the endpoints that keep them per user): the
 * chart type, the period and the indicators with their parameters, their defaults and bounds.
 * Pages read these in the browser too (the choice form's inputs, the live chart).
 *
 * The choice travels as flat form fields: `type`, `period`, an indicator's key (`sma`, `rsi`, ...)
 * set to "1" when it is shown, and each parameter as `<key>_<param>` (`sma_period`,
 * `macd_fast`). A signed-out visitor's choice is the same fields in a cookie.
 */
import { DEFAULT_PERIOD, isPeriod, type Period } from "../constants";

export const CHART_TYPES = ["candles", "bars", "line", "heikin_ashi"] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const DEFAULT_CHART_TYPE: ChartType = "candles";

/** A numeric parameter: its default, its bounds (inclusive) and its step (1: whole numbers). */
export interface ParamRule {
  readonly def: number;
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

const length = (def: number, max = 200): ParamRule => ({ def, min: 2, max, step: 1 });

/**
 * The indicators in the order the chart lists them, where each is drawn (`price`: over the
 * prices; `lower`: a pane of its own below them) and their parameters with the standard defaults:
 * SMA and EMA 20, Bollinger 20 and 2 deviations, RSI 14, MACD 12/26/9, stochastic 14/3/3, ATR 14.
 */
export const INDICATORS = {
  sma: { pane: "price", params: { period: length(20) } },
  ema: { pane: "price", params: { period: length(20) } },
  bollinger: {
    pane: "price",
    params: { period: length(20), width: { def: 2, min: 0.5, max: 5, step: 0.1 } },
  },
  rsi: { pane: "lower", params: { period: length(14, 100) } },
  macd: {
    pane: "lower",
    params: { fast: length(12, 100), slow: length(26), signal: length(9, 100) },
  },
  stochastic: {
    pane: "lower",
    params: {
      k: length(14, 100),
      slowing: { def: 3, min: 1, max: 20, step: 1 },
      d: { def: 3, min: 1, max: 20, step: 1 },
    },
  },
  atr: { pane: "lower", params: { period: length(14, 100) } },
} as const satisfies Record<string, { pane: "price" | "lower"; params: Record<string, ParamRule> }>;

export type IndicatorKey = keyof typeof INDICATORS;
export const INDICATOR_KEYS = Object.keys(INDICATORS) as IndicatorKey[];
export type ParamName<K extends IndicatorKey> = keyof (typeof INDICATORS)[K]["params"] & string;

/** An indicator's choice: shown or not, and its parameters. */
export type IndicatorChoice<K extends IndicatorKey> = { on: boolean } & {
  [P in ParamName<K>]: number;
};

export interface ChartSettings {
  type: ChartType;
  period: Period;
  indicators: { [K in IndicatorKey]: IndicatorChoice<K> };
}

/** The parameters of an indicator as [name, rule] pairs, in their order. */
export function paramsOf<K extends IndicatorKey>(key: K): [ParamName<K>, ParamRule][] {
  return Object.entries(INDICATORS[key].params) as [ParamName<K>, ParamRule][];
}

/** The form field of an indicator's parameter (`macd_fast`). */
export function paramField(key: IndicatorKey, param: string): string {
  return `${key}_${param}`;
}

/** True when `v` is a value the rule allows (within bounds, on its step). */
export function paramAllowed(rule: ParamRule, v: number): boolean {
  if (!Number.isFinite(v) || v < rule.min || v > rule.max) return false;
  const steps = (v - rule.min) / rule.step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

/** Rules across an indicator's parameters: MACD's fast average must be shorter than its slow one. */
export function indicatorAllowed<K extends IndicatorKey>(key: K, c: IndicatorChoice<K>): boolean {
  if (key === "macd") {
    const m = c as IndicatorChoice<"macd">;
    return m.fast < m.slow;
  }
  return true;
}

function defaultChoice<K extends IndicatorKey>(key: K): IndicatorChoice<K> {
  const out: Record<string, number | boolean> = { on: false };
  for (const [name, rule] of paramsOf(key)) out[name] = rule.def;
  return out as IndicatorChoice<K>;
}

/** No indicator shown, candles, the default period. */
export const DEFAULT_CHART_SETTINGS: ChartSettings = {
  type: DEFAULT_CHART_TYPE,
  period: DEFAULT_PERIOD,
  indicators: Object.fromEntries(
    INDICATOR_KEYS.map((k) => [k, defaultChoice(k)]),
  ) as ChartSettings["indicators"],
};

/** A field's value: one string, or absent (null). */
export type FieldReader = (name: string) => string | null;

/**
 * Settings from flat fields, forgivingly: a missing or unusable value takes its default (a stored
 * choice of an older release, a hand-edited cookie). Strict checking of a submitted form is the
 * endpoint schema's (contract/api/chart.ts).
 */
export function settingsFromFields(get: FieldReader): ChartSettings {
  const type = get("type");
  const period = get("period");
  const indicators = {} as Record<IndicatorKey, Record<string, number | boolean>>;
  for (const key of INDICATOR_KEYS) {
    const choice: Record<string, number | boolean> = { on: get(key) === "1" };
    for (const [name, rule] of paramsOf(key)) {
      const raw = get(paramField(key, name));
      const v = raw === null || raw.trim() === "" ? NaN : Number(raw);
      choice[name] = paramAllowed(rule, v) ? v : rule.def;
    }
    indicators[key] = indicatorAllowed(key, choice as IndicatorChoice<typeof key>)
      ? choice
      : { ...defaultChoice(key), on: choice.on };
  }
  return {
    type: (CHART_TYPES as readonly string[]).includes(type ?? "")
      ? (type as ChartType)
      : DEFAULT_CHART_TYPE,
    period: isPeriod(period) ? period : DEFAULT_PERIOD,
    indicators: indicators as ChartSettings["indicators"],
  };
}

/** Settings as flat fields (an indicator not shown is left out, its parameters kept). */
export function fieldsOfSettings(s: ChartSettings): Record<string, string> {
  const out: Record<string, string> = { type: s.type, period: s.period };
  for (const key of INDICATOR_KEYS) {
    const choice = s.indicators[key] as Record<string, number | boolean>;
    if (choice.on) out[key] = "1";
    for (const [name] of paramsOf(key)) out[paramField(key, name)] = String(choice[name]);
  }
  return out;
}
