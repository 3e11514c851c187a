/**
 * The order form's trader's tools: how take-profit and stop-loss are typed (price or pips), and,
 * folded under "More options" (a <details>, open when one of them holds a value or an error), a
 * trailing stop and break-even in pips and a pending order's expiry. Plain fields: they post with
 * the form without JavaScript.
 */
import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "~/translation";
import { EXPIRIES } from "@contract/api/trading-rules";
import { NumberField } from "./StopPriceFields";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/** A distance typed in pips (a tenth of a pip at most), with its hint. */
export function PipsField(props: Omit<Parameters<typeof NumberField>[0], "step">) {
  return <NumberField {...props} step="0.1" />;
}

const EXPIRY_KEY = { gtc: "form.expiry_gtc", day: "form.expiry_day", date: "form.expiry_date" };

export function OrderToolFields({
  fields,
  pipHint,
  pending,
  unit,
  msg,
}: {
  fields: {
    stop_unit: AnyField;
    trailing_pips: AnyField;
    break_even_pips: AnyField;
    expiry: AnyField;
    expires_at: AnyField;
  };
  /** What one pip is for the instrument ("1 pip = 0.0001"). */
  pipHint: string;
  pending: boolean;
  unit: "price" | "pips";
  msg: (e: string | undefined) => string;
}) {
  const { t } = useTranslation("trade");
  const more = [fields.trailing_pips, fields.break_even_pips, fields.expires_at].some(
    (f) => (typeof f.value === "string" && f.value !== "") || f.errors?.length,
  );
  const dateError = fields.expires_at.errors?.[0];
  return (
    <>
      <fieldset className="segmented stop-unit" data-testid="stop-unit">
        <legend>{t("form.stop_unit")}</legend>
        {(["price", "pips"] as const).map((u) => (
          <label key={u} className={unit === u ? "seg active" : "seg"}>
            <input
              type="radio"
              name={fields.stop_unit.name}
              value={u}
              defaultChecked={unit === u}
              key={`${u}-${fields.stop_unit.key ?? ""}`}
            />
            <span>{t(`form.unit_${u}`)}</span>
          </label>
        ))}
      </fieldset>
      <details className="order-more" open={more || undefined} data-testid="order-more">
        <summary>{t("form.more")}</summary>
        <div className="field-pair">
          <PipsField
            meta={fields.trailing_pips}
            label={t("form.trailing_pips")}
            msg={msg}
            testid="order-trailing"
          />
          <PipsField
            meta={fields.break_even_pips}
            label={t("form.break_even_pips")}
            msg={msg}
            testid="order-break-even"
          />
        </div>
        <p className="field-hint">
          {t("form.trailing_hint")} {pipHint}
        </p>
        <div className="field">
          <label htmlFor={fields.expiry.id}>{t("form.expiry")}</label>
          <select {...getSelectProps(fields.expiry)} key={fields.expiry.key}>
            {EXPIRIES.map((e) => (
              <option key={e} value={e}>
                {t(EXPIRY_KEY[e])}
              </option>
            ))}
          </select>
          <p className="field-hint">
            {pending ? t("form.expiry_hint") : t("form.expiry_pending_only")}
          </p>
        </div>
        <div className={dateError ? "field has-error" : "field"}>
          <label htmlFor={fields.expires_at.id}>{t("form.expires_at")}</label>
          <input
            {...getInputProps(fields.expires_at, { type: "datetime-local", ariaAttributes: true })}
            key={fields.expires_at.key}
          />
          {dateError ? (
            <p className="field-error" id={fields.expires_at.errorId} data-error-for="expires_at">
              {msg(dateError)}
            </p>
          ) : null}
        </div>
      </details>
    </>
  );
}
