/** The take-profit / stop-loss price pair of the order form and the position detail. */
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

function PriceField({
  meta,
  label,
  msg,
}: {
  meta: AnyField;
  label: string;
  msg: (e: string | undefined) => string;
}) {
  const { t } = useTranslation("trade");
  const error = meta.errors?.[0];
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={meta.id}>{label}</label>
      <input
        {...getInputProps(meta, { type: "number", ariaAttributes: true })}
        key={meta.key}
        min={0}
        step="any"
        inputMode="decimal"
        placeholder={t("form.not_set")}
      />
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
      <PriceField meta={takeProfit} label={t("form.take_profit")} msg={msg} />
      <PriceField meta={stopLoss} label={t("form.stop_loss")} msg={msg} />
    </div>
  );
}
