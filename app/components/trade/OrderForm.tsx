/**
 * The order form of /trade (POST, intent=submit), posting the upstream's field names: type (the
 * pressed buy or sell button), status (market 1 / pending 0 radios), target_price, cont (lots),
 * multiple (leverage), target_profit_price, stop_loss_price, forex_id, plus the CSRF token and a
 * hidden idempotency_key made when the page was rendered.
 *
 * Without JavaScript: the lot steppers and the (first, hidden) default button are submit buttons
 * named `step` that re-render the form with the new lots and the server-computed estimates.
 * With JavaScript: conform validates with the same zod schema, the steppers change the value in
 * place and the fee and margin estimates follow the typed values and the live price.
 */
import { Form, useNavigation } from "@remix-run/react";
import { getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { memo, useMemo } from "react";
import { floatArith, openCost, pipValueUsd } from "@contract/formulas";
import { pipSize } from "@contract/api/trading-rules";
import { MARGIN_MODE, ORDER_MODE } from "@contract/enums";
import { decrementDisabled, orderSchema, stepLots, DEFAULT_MAX_LOTS } from "~/schemas/order";
import {
  decimalsOf,
  formatBalance,
  formatFee,
  formatLotHint,
  formatMargin,
  formatPrice,
  inputValue,
} from "~/utils/format";
import type { InstrumentView } from "~/upstream/views";
import { useHydrated, useLang } from "./hooks";
import { dotDecimal, withDotDecimals } from "./decimal";
import { StopPriceFields } from "./StopPriceFields";
import { livePrice, liveUsdRate, useLiveQuote, type LiveQuotes } from "./live-quotes";
import { OrderToolFields } from "./OrderToolFields";

interface OrderFormProps {
  instrument: InstrumentView;
  /** trade_fee_type of getBasicInfo (FEE_TYPE): 1 fixed per lot, otherwise margin x rate. */
  feeType: number;
  /**
   * The screen's live prices: the estimates and the pending price's hint follow the instrument's
   * price and the USD rate of its quote currency, without the form rendering again.
   */
  live: LiveQuotes;
  /** The loader's closes by upper-case code, which the USD rate reads before any push. */
  closes: Readonly<Record<string, number>>;
  /** Balance from forexDetail (null for visitors). */
  balance: number | null;
  signedIn: boolean;
  marketOpen: boolean;
  idempotencyKey: string;
  lastResult?: SubmissionResult<string[]> | null;
}

/**
 * Estimated margin and fee (USD) for the values of the form: the contract's formulas, the same the
 * upstream books with, including the conversion from the instrument's quote currency to USD
 * (`usdRate`: USD per unit of that currency, null when it cannot be valued: no estimate then).
 */
export function estimate(
  inst: Pick<InstrumentView, "unitsPerLot" | "marginMode" | "feeRate">,
  feeType: number,
  v: {
    cont?: string | number;
    multiple?: string | number;
    status?: string | number;
    target_price?: string | number;
  },
  price: number,
  usdRate: number | null,
): { margin: number | null; fee: number | null } {
  const lots = Number(dotDecimal(String(v.cont ?? "")));
  const lev = Number(v.multiple);
  const pending = String(v.status) === String(ORDER_MODE.PENDING);
  const target = Number(dotDecimal(String(v.target_price ?? "")));
  const p = pending && target > 0 ? target : price;
  const fixed = inst.marginMode === MARGIN_MODE.FIXED;
  if (!(lots > 0) || !(p > 0) || (!fixed && !(lev > 0)) || usdRate === null || !(usdRate > 0))
    return { margin: null, fee: null };
  const { margin, fee } = openCost(floatArith, {
    lots,
    inst: { contNum: inst.unitsPerLot, marginMode: inst.marginMode, feeRate: inst.feeRate },
    price: p,
    leverage: lev,
    feeType,
    usdRate,
  });
  if (!Number.isFinite(margin) || !Number.isFinite(fee)) return { margin: null, fee: null };
  return { margin, fee };
}

const TRADE_KEY_RE = /^(errors\.[a-z_]+|no_mult_config)$/;

/** A visitor's order is not checked in the browser: the server sends them to sign in. */
const visitorSchema = z.object({}).passthrough();

/** Memoised: a live price renders only the parts that show it (OrderEstimates, TargetPriceInput). */
export const OrderForm = memo(OrderFormView);

function OrderFormView({
  instrument: inst,
  feeType,
  live,
  closes,
  balance,
  signedIn,
  marketOpen,
  idempotencyKey,
  lastResult,
}: OrderFormProps) {
  const { t } = useTranslation("trade");
  const lang = useLang();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const multiples = inst.leverages;
  const rules = useMemo(
    () => ({ pip: inst.lotStep, minLots: inst.minLots, maxLots: DEFAULT_MAX_LOTS, multiples }),
    [inst, multiples],
  );
  const schema = useMemo(() => orderSchema(rules), [rules]);
  const lotDecimals = Math.max(decimalsOf(inst.lotStep), decimalsOf(inst.minLots));
  const minLots = Math.max(inst.minLots || 0, inst.lotStep || 0);

  const [form, fields] = useForm({
    id: `order-form-${inst.id}`,
    lastResult: lastResult ?? undefined,
    defaultValue: {
      status: "1",
      cont: inputValue(minLots, lotDecimals),
      multiple: multiples[0] !== undefined ? String(multiples[0]) : "",
      target_price: "",
      target_profit_price: "",
      stop_loss_price: "",
      stop_unit: "price",
      trailing_pips: "",
      break_even_pips: "",
      expiry: "gtc",
      expires_at: "",
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    // Visitors are sent to sign in by the server whatever they typed (their Buy / Sell is not checked
    // here), but an onValidate is still needed: without one conform lets its own intents (the lot
    // steppers' form.update) through as a real POST, which sent a visitor to /login.
    onValidate: ({ formData }) =>
      parseWithZod(withDotDecimals(formData), { schema: signedIn ? schema : visitorSchema }),
  });

  const msg = (e: string | undefined) =>
    e
      ? TRADE_KEY_RE.test(e)
        ? t(e, {
            min: minLots,
            max: DEFAULT_MAX_LOTS,
            step: inst.lotStep,
            // The lot bound the message names picks its plural form.
            count: e.endsWith("cont_max") ? DEFAULT_MAX_LOTS : minLots,
          })
        : e
      : "";
  // A refused post's fields come back as posted: a repeated or nested field is not text, and the
  // form shows it as empty.
  const values = {
    cont: textOf(fields.cont.value),
    multiple: textOf(fields.multiple.value),
    status: textOf(fields.status.value) ?? "1",
    target_price: textOf(fields.target_price.value),
    stopUnit: textOf(fields.stop_unit.value) ?? "price",
  };
  const pending = values.status === "0";
  const lots = Number(dotDecimal(values.cont ?? ""));
  const decDisabled = decrementDisabled(Number.isFinite(lots) ? lots : minLots, {
    pip: inst.lotStep,
    minLots: inst.minLots,
  });
  const incDisabled = Number.isFinite(lots) && lots >= DEFAULT_MAX_LOTS;
  const noMultiple = multiples.length === 0;
  const canOrder = marketOpen && !noMultiple;
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === "submit";

  const step = (dir: 1 | -1) => (e: React.MouseEvent<HTMLButtonElement>) => {
    if (!hydrated) return;
    e.preventDefault();
    const next = stepLots(Number.isFinite(lots) && lots > 0 ? lots : minLots, dir, rules);
    form.update({ name: fields.cont.name, value: inputValue(next, lotDecimals) });
  };

  // Errors of hidden fields (an expired key, an unknown instrument) are shown with the form's own.
  const formErrors = [
    ...(form.errors ?? []),
    ...(fields.idempotency_key.errors ?? []),
    ...(fields.forex_id.errors ?? []),
  ];
  const inputErr = (name: keyof typeof fields) => fields[name].errors?.[0];

  return (
    <Form
      method="post"
      id={form.id}
      onSubmit={form.onSubmit}
      noValidate
      className="order-form"
      aria-label={t("form.label")}
      data-testid="order-form"
      preventScrollReset
    >
      {/* The default button (Enter in a field) recalculates instead of ordering. */}
      <button
        type="submit"
        name="step"
        value="0"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onClick={hydrated ? (e) => e.preventDefault() : undefined}
      >
        {t("form.recalculate")}
      </button>
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="submit" />
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      <input type="hidden" name="forex_id" value={inst.id} />

      <fieldset className="segmented" data-testid="order-status">
        <legend className="sr-only">{t("form.order_type")}</legend>
        <label className={!pending ? "seg active" : "seg"}>
          <input
            type="radio"
            name={fields.status.name}
            value="1"
            defaultChecked={!pending}
            key={`s1-${fields.status.key ?? ""}`}
          />
          <span>{t("form.market")}</span>
        </label>
        <label className={pending ? "seg active" : "seg"}>
          <input
            type="radio"
            name={fields.status.name}
            value="0"
            defaultChecked={pending}
            key={`s0-${fields.status.key ?? ""}`}
          />
          <span>{t("form.pending")}</span>
        </label>
      </fieldset>

      <div
        className={inputErr("target_price") ? "field target-price has-error" : "field target-price"}
        data-pending={pending ? "1" : "0"}
      >
        <label htmlFor={fields.target_price.id}>{t("form.target_price")}</label>
        <TargetPriceInput
          key={fields.target_price.key}
          inputProps={getInputProps(fields.target_price, { type: "text", ariaAttributes: true })}
          hint={pending ? null : t("form.target_price_hint")}
          inst={inst}
          live={live}
        />
        {inputErr("target_price") ? (
          <p className="field-error" id={fields.target_price.errorId} data-error-for="target_price">
            {msg(inputErr("target_price"))}
          </p>
        ) : null}
      </div>

      <div className={inputErr("cont") ? "field has-error" : "field"}>
        <label htmlFor={fields.cont.id}>{t("form.lots")}</label>
        <div className="stepper">
          <button
            type="submit"
            name="step"
            value="down"
            className="stepper-btn"
            aria-label={t("form.lots_decrease")}
            disabled={decDisabled}
            onClick={step(-1)}
            formNoValidate
          >
            −
          </button>
          <input
            {...getInputProps(fields.cont, { type: "text", ariaAttributes: true })}
            key={fields.cont.key}
            inputMode="decimal"
            autoComplete="off"
            data-testid="order-lots"
          />
          <button
            type="submit"
            name="step"
            value="up"
            className="stepper-btn"
            aria-label={t("form.lots_increase")}
            disabled={incDisabled}
            onClick={step(1)}
            formNoValidate
          >
            +
          </button>
        </div>
        <p className="field-hint">
          {t("form.lots_hint", {
            min: formatLotHint(minLots, lang),
            step: formatLotHint(inst.lotStep, lang),
          })}
        </p>
        {inputErr("cont") ? (
          <p className="field-error" id={fields.cont.errorId} data-error-for="cont">
            {msg(inputErr("cont"))}
          </p>
        ) : null}
      </div>

      {noMultiple ? (
        <p className="notice notice-warn" role="alert" data-testid="no-mult-config">
          {t("no_mult_config")}
        </p>
      ) : (
        <div className={inputErr("multiple") ? "field has-error" : "field"}>
          <label htmlFor={fields.multiple.id}>{t("form.leverage")}</label>
          <select
            {...getSelectProps(fields.multiple, { ariaAttributes: true })}
            key={fields.multiple.key}
          >
            {multiples.map((m) => (
              <option key={m} value={String(m)}>
                {t("form.leverage_option", { value: m })}
              </option>
            ))}
          </select>
          {inputErr("multiple") ? (
            <p className="field-error" id={fields.multiple.errorId} data-error-for="multiple">
              {msg(inputErr("multiple"))}
            </p>
          ) : null}
        </div>
      )}

      <StopPriceFields
        takeProfit={fields.target_profit_price}
        stopLoss={fields.stop_loss_price}
        msg={msg}
      />
      <OrderToolFields
        fields={fields}
        pipHint={t("form.pip_is", { pip: pipSize(inst.precision) })}
        pending={pending}
        unit={values.stopUnit === "pips" ? "pips" : "price"}
        msg={msg}
      />

      <OrderEstimates
        inst={inst}
        feeType={feeType}
        cont={values.cont}
        multiple={values.multiple}
        status={values.status}
        targetPrice={values.target_price}
        balance={signedIn ? balance : null}
        live={live}
        closes={closes}
      />
      {!hydrated ? (
        <button type="submit" name="step" value="0" className="btn btn-link recalc" formNoValidate>
          {t("form.recalculate")}
        </button>
      ) : null}

      {formErrors.length ? (
        <div className="form-errors" role="alert" data-form-error="" id={form.errorId}>
          {formErrors.map((e) => (
            <p key={e}>{msg(e)}</p>
          ))}
        </div>
      ) : null}

      <div className="order-buttons">
        {!marketOpen ? (
          <p className="badge badge-closed market-closed" data-testid="market-closed">
            {t("closed")}
          </p>
        ) : null}
        <button
          type="submit"
          name="type"
          value="1"
          className="btn btn-buy"
          disabled={!canOrder || submitting}
          aria-disabled={!canOrder || submitting}
        >
          {marketOpen ? t("form.buy") : t("form.buy_closed")}
        </button>
        <button
          type="submit"
          name="type"
          value="2"
          className="btn btn-sell"
          disabled={!canOrder || submitting}
          aria-disabled={!canOrder || submitting}
        >
          {marketOpen ? t("form.sell") : t("form.sell_closed")}
        </button>
      </div>
      {inputErr("type") ? (
        <p className="field-error" data-error-for="type">
          {msg(inputErr("type"))}
        </p>
      ) : null}
    </Form>
  );
}

/**
 * The pending price's field: its hint is the live price while the order is pending (`hint` null),
 * else `hint`; it renders again with the price, the form around it does not.
 */
function TargetPriceInput({
  inputProps,
  hint,
  inst,
  live,
}: {
  inputProps: React.InputHTMLAttributes<HTMLInputElement>;
  hint: string | null;
  inst: InstrumentView;
  live: LiveQuotes;
}) {
  const lang = useLang();
  const price = useLiveQuote(live, (s) => livePrice(s, inst));
  return (
    <input
      {...inputProps}
      inputMode="decimal"
      autoComplete="off"
      placeholder={hint ?? formatPrice(price, inst.precision, lang)}
    />
  );
}

/**
 * The balance and what the typed order would take: margin and fee (the contract's formulas, as
 * `estimate`) and what one pip is worth in USD, at the live price and USD rate.
 */
function OrderEstimates({
  inst,
  feeType,
  cont,
  multiple,
  status,
  targetPrice,
  balance,
  live,
  closes,
}: {
  inst: InstrumentView;
  feeType: number;
  cont: string | undefined;
  multiple: string | undefined;
  status: string;
  targetPrice: string | undefined;
  /** Null for a visitor or when not known. */
  balance: number | null;
  live: LiveQuotes;
  closes: Readonly<Record<string, number>>;
}) {
  const { t } = useTranslation("trade");
  const lang = useLang();
  const price = useLiveQuote(live, (s) => livePrice(s, inst));
  const usdRate = useLiveQuote(live, (s) => liveUsdRate(s, inst, closes));
  const est = estimate(
    inst,
    feeType,
    { cont, multiple, status, target_price: targetPrice },
    price,
    usdRate,
  );
  const lots = Number(dotDecimal(cont ?? ""));
  // What one pip is worth in USD for the lots typed (display only).
  const pipValue =
    lots > 0 && usdRate !== null && usdRate > 0
      ? pipValueUsd(floatArith, Number(pipSize(inst.precision)), lots, inst.unitsPerLot, usdRate)
      : null;
  return (
    <dl className="order-estimates" data-testid="order-estimates">
      <div>
        <dt>{t("form.balance")}</dt>
        <dd data-testid="order-balance">
          {balance !== null ? formatBalance(balance, lang) : "--"}
        </dd>
      </div>
      <div>
        <dt>{t("form.est_margin")}</dt>
        <dd data-testid="order-est-margin">{formatMargin(est.margin, lang)}</dd>
      </div>
      <div>
        <dt>{t("form.est_fee")}</dt>
        <dd data-testid="order-est-fee">{formatFee(est.fee, lang)}</dd>
      </div>
      <div>
        <dt>{t("form.pip_value")}</dt>
        <dd data-testid="order-pip-value">{formatFee(pipValue, lang)}</dd>
      </div>
    </dl>
  );
}

/** A field's value when it is text, else undefined. */
function textOf(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}
