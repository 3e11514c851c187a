/**
 * The chart choice form of /trade: chart type, indicators and their parameters, kept for the
 * user (the upstream for a signed-in user, a cookie for a visitor) with the period shown. A
 * `<details>` holding a plain POST form (CSRF token, `intent=chart`) that works without
 * JavaScript; a refused value comes back with its message beside its field and the details open.
 */
import { Form } from "@remix-run/react";
import { memo } from "react";
import { useTranslation } from "~/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import {
  CHART_TYPES,
  INDICATOR_KEYS,
  INDICATORS,
  paramField,
  paramsOf,
  type ChartSettings,
  type IndicatorKey,
} from "@contract/api/chart-rules";
import { Hidden } from "~/components/Hidden";
import { tradeHref } from "~/routes/trade/href";

/** Every parameter's name, of any indicator. */
type ParamName = {
  [K in IndicatorKey]: keyof (typeof INDICATORS)[K]["params"];
}[IndicatorKey];

/** A refused submission: the posted values and the messages by field. */
export interface ChartRefusal {
  values: Record<string, unknown>;
  errors: Record<string, string[] | null | undefined>;
  formErrors: string[];
}

function Indicator({
  k,
  settings,
  refusal,
}: {
  k: IndicatorKey;
  settings: ChartSettings;
  refusal: ChartRefusal | null;
}) {
  const { t } = useTranslation("chart");
  const choice = settings.indicators[k] as Record<string, number | boolean>;
  const posted = refusal?.values;
  const on = posted ? posted[k] === "1" : Boolean(choice.on);
  return (
    <fieldset className="chart-indicator" data-indicator={k}>
      <legend>
        <label>
          <input type="checkbox" name={k} value="1" defaultChecked={on} /> {t(`indicator.${k}`)}
        </label>
      </legend>
      {paramsOf(k).map(([name, rule]) => {
        const field = paramField(k, name);
        const id = `chart-${field}`;
        const error = refusal?.errors[field]?.[0];
        const value = posted && typeof posted[field] === "string" ? posted[field] : choice[name];
        return (
          <div key={name} className={error ? "field has-error" : "field"}>
            <label htmlFor={id}>{t(`param.${name as ParamName}`)}</label>
            <input
              id={id}
              type="number"
              name={field}
              inputMode={rule.step < 1 ? "decimal" : "numeric"}
              min={rule.min}
              max={rule.max}
              step={rule.step}
              defaultValue={String(value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${id}-hint`}
            />
            <span id={`${id}-hint`} className="hint">
              {error
                ? error === "chart:errors.range"
                  ? t("errors.range", { min: rule.min, max: rule.max })
                  : t(error.replace(/^chart:/, ""))
                : t("range_hint", { min: rule.min, max: rule.max })}
            </span>
          </div>
        );
      })}
    </fieldset>
  );
}

/** Memoised: the trade screen renders again on every live price, the form only for a new page. */
export const ChartSettingsForm = memo(ChartSettingsFormView);

function ChartSettingsFormView({
  code,
  period,
  periodLabel,
  settings,
  refusal,
}: {
  code: string;
  period: string;
  periodLabel: string;
  settings: ChartSettings;
  refusal: ChartRefusal | null;
}) {
  const { t } = useTranslation("chart");
  const type = (refusal?.values.type as string | undefined) ?? settings.type;
  return (
    <details
      className="chart-settings"
      open={refusal ? true : undefined}
      data-testid="chart-settings"
    >
      <summary>{t("settings")}</summary>
      <Form method="post" action={tradeHref(code, period)} preventScrollReset replace>
        <AuthenticityTokenInput />
        <Hidden name="intent" value="chart" />
        <Hidden name="period" value={period} />
        {refusal?.formErrors.length ? (
          <p className="form-error" role="alert">
            {refusal.formErrors.join(" ")}
          </p>
        ) : null}
        <fieldset className="chart-types">
          <legend>{t("type.label")}</legend>
          {CHART_TYPES.map((ct) => (
            <label key={ct}>
              <input type="radio" name="type" value={ct} defaultChecked={ct === type} />{" "}
              {t(`type.${ct}`)}
            </label>
          ))}
        </fieldset>
        <fieldset className="chart-indicators">
          <legend>{t("indicators")}</legend>
          {INDICATOR_KEYS.filter((k) => INDICATORS[k].pane === "price").map((k) => (
            <Indicator key={k} k={k} settings={settings} refusal={refusal} />
          ))}
          {INDICATOR_KEYS.filter((k) => INDICATORS[k].pane === "lower").map((k) => (
            <Indicator key={k} k={k} settings={settings} refusal={refusal} />
          ))}
        </fieldset>
        <p className="hint">{t("saves_period", { period: periodLabel })}</p>
        <button type="submit" className="btn btn-primary" data-testid="chart-save">
          {t("save")}
        </button>
      </Form>
    </details>
  );
}
