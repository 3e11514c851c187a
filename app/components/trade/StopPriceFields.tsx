/** The take-profit / stop-loss price pair of the order form and the position detail. */
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "~/translation";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/**
 * A number field of the trading forms, empty meaning "not set": a price (step any), or a distance
 * in pips (OrderToolFields: a tenth of a pip, with its hint).
 */
export function NumberField({
  meta,
  label,
  msg,
  step = "any",
  hint,
  testid,
}: {
  meta: AnyField;
  label: string;
  msg: (e: string | undefined) => string;
  step?: string;
  hint?: string;
  testid?: string;
}) {
  const { t } = useTranslation("trade");
  const error = meta.errors?.[0];
  const hintId = `${meta.id}-hint`;
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={meta.id}>{label}</label>
      <input
        {...getInputProps(meta, { type: "number", ariaAttributes: true })}
        key={meta.key}
        min={0}
        step={step}
        inputMode="decimal"
        placeholder={t("form.not_set")}
        aria-describedby={hint ? hintId : undefined}
        data-testid={testid}
      />
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={meta.errorId} data-error-for={meta.name}>
          {msg(error)}
        </p>
      ) : null}
    </div>
  );
}

/** `msg` turns an error (a message key or an upstream text) into what is shown. */
export function StopPriceFields({
  takeProfit,
  stopLoss,
  msg,
}: {
  takeProfit: AnyField;
  stopLoss: AnyField;
  msg: (e: string | undefined) => string;
}) {
  const { t } = useTranslation("trade");
  return (
    <div className="field-pair">
      <NumberField meta={takeProfit} label={t("form.take_profit")} msg={msg} />
      <NumberField meta={stopLoss} label={t("form.stop_loss")} msg={msg} />
    </div>
  );
}
