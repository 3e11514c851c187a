/**
 * The detail view of one order on /order (?detail=ID): a <dialog> rendered open by the server, with
 * take-profit / stop-loss editing (intent=stop), cancel for pending orders and close for holding
 * positions — all POST forms with CSRF and an idempotency key. "Back" is a link to the list.
 */
import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { useEffect } from "react";
import { ORDER_TAB } from "@contract/enums";
import { stopPriceSchema } from "~/schemas/stop-price";
import { partCloseSchema, trailingSchema } from "~/schemas/trader-tools";
import { pipSize, priceToPips } from "@contract/api/trading-rules";
import { getInputProps } from "@conform-to/react";
import { PipsField } from "./OrderToolFields";
import { StopPriceFields } from "./StopPriceFields";
import type { LiveRow, OrderView } from "~/upstream/views";
import {
  formatDateTime,
  formatFee,
  formatLots,
  formatMargin,
  formatPrice,
  formatProfit,
  signOf,
} from "~/utils/format";
import { useLang } from "./hooks";
import { OrderActionForm } from "./OrderActionForm";

interface DetailKeys {
  stop: string;
  close: string;
  cancel: string;
  trail: string;
  part: string;
}

const TRADE_KEY_RE = /^errors\.[a-z_]+$/;

export function OrderDetail({
  order,
  code,
  precision,
  pip,
  tab,
  live,
  keys,
  backHref,
  lastResult,
  lastIntent,
}: {
  order: OrderView;
  code: string;
  precision: number;
  pip: number;
  /** The order's state: 1 holding, 0 pending, 3 history. */
  tab: number;
  live?: LiveRow;
  keys: DetailKeys;
  backHref: string;
  lastResult?: SubmissionResult<string[]> | null;
  /** The intent `lastResult` answers (stop, trail or close_part). */
  lastIntent?: string | null;
}) {
  const { t } = useTranslation(["order", "trade"]);
  const lang = useLang();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const tp = order.takeProfit > 0 ? String(order.takeProfit) : "";
  const sl = order.stopLoss > 0 ? String(order.stopLoss) : "";
  const resultOf = (intent: string) =>
    lastIntent === intent ? (lastResult ?? undefined) : undefined;
  const [form, fields] = useForm({
    id: `stop-form-${order.id}`,
    lastResult: resultOf("stop"),
    defaultValue: { target_profit_price: tp, stop_loss_price: sl },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: stopPriceSchema }),
  });
  const pipsOf = (d: number) => (d > 0 ? String(priceToPips(d, precision)) : "");
  const [trailForm, trailFields] = useForm({
    id: `trail-form-${order.id}`,
    lastResult: resultOf("trail"),
    defaultValue: {
      trailing_pips: pipsOf(order.trailing),
      activation_pips: pipsOf(order.trailingActivation),
      break_even_pips: pipsOf(order.breakEven),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: trailingSchema }),
  });
  const [partForm, partFields] = useForm({
    id: `part-form-${order.id}`,
    lastResult: resultOf("close_part"),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: partCloseSchema }),
  });
  const msg = (e?: string) => (e ? (TRADE_KEY_RE.test(e) ? t(`trade:${e}`) : e) : "");
  /** A price distance with its pips ("20 pips (0.00200)"). */
  const distanceText = (d: number) =>
    t("trade:form.pips_distance", {
      pips: priceToPips(d, precision),
      count: priceToPips(d, precision),
      price: formatPrice(d, precision, lang),
    });

  // Escape closes the dialog (with JavaScript).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") navigate(backHref, { preventScrollReset: true });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navigate, backHref]);

  const profit = live?.profit ?? order.profit;
  const price = live?.price ?? order.price;
  // The stop loss as the pushes move it (a trailing stop), else as the page was rendered.
  const stopLoss = live?.stopLoss ?? order.stopLoss;
  const buy = order.side === "buy";
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "stop";
  const rows: { key: string; label: string; value: string; testid?: string; cls?: string }[] = [
    { key: "id", label: t("order:detail.id"), value: String(order.id) },
    { key: "lots", label: t("order:detail.lots"), value: formatLots(order.lots, pip, lang) },
    ...(tab === ORDER_TAB.PENDING
      ? [
          {
            key: "target",
            label: t("order:detail.target_price"),
            value: formatPrice(order.originPrice, precision, lang),
          },
        ]
      : [
          {
            key: "open",
            label: t("order:detail.open_price"),
            value: formatPrice(order.openPrice || order.originPrice, precision, lang),
          },
        ]),
    {
      key: "price",
      label:
        tab === ORDER_TAB.HISTORY ? t("order:detail.close_price") : t("order:detail.current_price"),
      value: formatPrice(price, precision, lang),
      testid: "detail-price",
    },
    {
      key: "profit",
      label:
        tab === ORDER_TAB.HISTORY
          ? t("order:detail.realised_profit")
          : t("order:detail.floating_profit"),
      value: formatProfit(profit, lang),
      testid: "detail-profit",
      cls: `profit ${signOf(profit)}`,
    },
    {
      key: "margin",
      label: t("order:detail.margin"),
      value: formatMargin(order.margin, lang),
      testid: "detail-margin",
    },
    {
      key: "fee",
      label: t("order:detail.fee"),
      value: formatFee(order.fee, lang),
      testid: "detail-fee",
    },
    ...(order.leverage
      ? [
          {
            key: "lev",
            label: t("order:detail.leverage"),
            value: t("trade:form.leverage_option", { value: order.leverage }),
          },
        ]
      : []),
    {
      key: "tp",
      label: t("trade:form.take_profit"),
      value: tp ? formatPrice(order.takeProfit, precision, lang) : t("trade:form.not_set"),
      testid: "detail-tp",
    },
    {
      key: "sl",
      label: order.trailing > 0 ? t("order:detail.trailing_level") : t("trade:form.stop_loss"),
      value: stopLoss > 0 ? formatPrice(stopLoss, precision, lang) : t("trade:form.not_set"),
      testid: "detail-sl",
    },
    ...(order.trailing > 0
      ? [
          {
            key: "trail",
            label: t("order:detail.trailing"),
            value: distanceText(order.trailing),
            testid: "detail-trailing",
          },
        ]
      : []),
    ...(order.trailingActivation > 0
      ? [
          {
            key: "trail-act",
            label: t("order:detail.trailing_activation"),
            value: distanceText(order.trailingActivation),
          },
        ]
      : []),
    ...(order.breakEven > 0
      ? [
          {
            key: "be",
            label: t("order:detail.break_even"),
            value: distanceText(order.breakEven),
            testid: "detail-break-even",
          },
        ]
      : []),
    ...(tab === ORDER_TAB.PENDING
      ? [
          {
            key: "expiry",
            label: t("order:detail.expiry"),
            value: order.expiresAt
              ? formatDateTime(order.expiresAt, lang)
              : t("trade:form.expiry_gtc"),
            testid: "detail-expiry",
          },
        ]
      : []),
    ...(order.parentId
      ? [
          {
            key: "parent",
            label: t("order:detail.part_of"),
            value: t("order:detail.part_of_value", { id: order.parentId }),
            testid: "detail-parent",
          },
        ]
      : []),
    ...(order.createdAt
      ? [
          {
            key: "time",
            label: t("order:detail.time"),
            value: formatDateTime(order.createdAt, lang),
          },
        ]
      : []),
  ];

  return (
    <div className="modal-backdrop">
      <dialog
        open
        className="modal order-detail"
        aria-labelledby="order-detail-title"
        data-testid="order-detail"
        data-order-id={order.id}
      >
        <header className="modal-head">
          <h2 id="order-detail-title">
            {code} ·{" "}
            <span className={buy ? "dir buy" : "dir sell"}>
              {buy ? t("trade:buy") : t("trade:sell")}
            </span>
          </h2>
          <Link
            to={backHref}
            className="iconbtn"
            aria-label={t("order:detail.back")}
            preventScrollReset
            data-testid="detail-back"
          >
            ×
          </Link>
        </header>
        <dl className="detail-grid">
          {rows.map((r) => (
            <div key={r.key}>
              <dt>{r.label}</dt>
              <dd className={r.cls} data-testid={r.testid}>
                {r.value}
              </dd>
            </div>
          ))}
        </dl>

        {tab === ORDER_TAB.HOLDING || tab === ORDER_TAB.PENDING ? (
          <Form
            method="post"
            id={form.id}
            onSubmit={form.onSubmit}
            noValidate
            className="stop-form"
            preventScrollReset
            aria-label={t("order:detail.stop_title")}
          >
            <AuthenticityTokenInput />
            <input type="hidden" name="intent" value="stop" />
            <input type="hidden" name="id" value={order.id} />
            <input type="hidden" name="idempotency_key" value={keys.stop} />
            <StopPriceFields
              takeProfit={fields.target_profit_price}
              stopLoss={fields.stop_loss_price}
              msg={msg}
            />
            <p className="field-hint">{t("order:detail.stop_hint")}</p>
            {form.errors ? (
              <div className="form-errors" role="alert" data-form-error="">
                {form.errors.map((e) => (
                  <p key={e}>{msg(e)}</p>
                ))}
              </div>
            ) : null}
            <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving}>
              {t("order:detail.save_stops")}
            </button>
          </Form>
        ) : null}

        {tab === ORDER_TAB.HOLDING || tab === ORDER_TAB.PENDING ? (
          <Form
            method="post"
            id={trailForm.id}
            onSubmit={trailForm.onSubmit}
            noValidate
            className="stop-form trail-form"
            preventScrollReset
            aria-label={t("order:detail.trailing_title")}
            data-testid="trail-form"
          >
            <AuthenticityTokenInput />
            <input type="hidden" name="intent" value="trail" />
            <input type="hidden" name="id" value={order.id} />
            <input type="hidden" name="forex_id" value={order.forexId ?? ""} />
            <input type="hidden" name="idempotency_key" value={keys.trail} />
            <div className="field-pair">
              <PipsField
                meta={trailFields.trailing_pips}
                label={t("trade:form.trailing_pips")}
                msg={msg}
                testid="detail-trailing-pips"
              />
              <PipsField
                meta={trailFields.activation_pips}
                label={t("trade:form.activation_pips")}
                msg={msg}
              />
            </div>
            <PipsField
              meta={trailFields.break_even_pips}
              label={t("trade:form.break_even_pips")}
              msg={msg}
            />
            <p className="field-hint">
              {t("order:detail.trailing_hint")}{" "}
              {t("trade:form.pip_is", { pip: pipSize(precision) })}
            </p>
            <FormErrorList errors={trailForm.errors} msg={msg} />
            <button type="submit" className="btn btn-primary">
              {t("order:detail.save_trailing")}
            </button>
          </Form>
        ) : null}

        {tab === ORDER_TAB.HOLDING ? (
          <Form
            method="post"
            id={partForm.id}
            onSubmit={partForm.onSubmit}
            noValidate
            className="stop-form part-form"
            preventScrollReset
            aria-label={t("order:detail.part_title")}
            data-testid="part-form"
          >
            <AuthenticityTokenInput />
            <input type="hidden" name="intent" value="close_part" />
            <input type="hidden" name="id" value={order.id} />
            <input type="hidden" name="idempotency_key" value={keys.part} />
            <div className={partFields.lots.errors ? "field has-error" : "field"}>
              <label htmlFor={partFields.lots.id}>{t("order:detail.part_lots")}</label>
              <input
                {...getInputProps(partFields.lots, { type: "number", ariaAttributes: true })}
                key={partFields.lots.key}
                min={0}
                step="any"
                inputMode="decimal"
                data-testid="part-lots"
              />
              {partFields.lots.errors ? (
                <p className="field-error" id={partFields.lots.errorId} data-error-for="lots">
                  {msg(partFields.lots.errors[0])}
                </p>
              ) : null}
              <p className="field-hint">
                {t("order:detail.part_hint", { lots: formatLots(order.lots, pip, lang) })}
              </p>
            </div>
            <FormErrorList errors={partForm.errors} msg={msg} />
            <button type="submit" className="btn btn-outline">
              {t("order:detail.close_part")}
            </button>
          </Form>
        ) : null}

        <div className="modal-actions">
          {tab === ORDER_TAB.HOLDING ? (
            <OrderActionForm
              intent="close"
              id={order.id}
              idempotencyKey={keys.close}
              label={t("order:detail.close_label", { id: order.id })}
              className="btn btn-sell"
            >
              {t("order:detail.close")}
            </OrderActionForm>
          ) : null}
          {tab === ORDER_TAB.PENDING ? (
            <OrderActionForm
              intent="cancel"
              id={order.id}
              idempotencyKey={keys.cancel}
              label={t("order:detail.cancel_label", { id: order.id })}
              className="btn btn-sell"
            >
              {t("order:detail.cancel")}
            </OrderActionForm>
          ) : null}
          <Link to={backHref} className="btn btn-outline" preventScrollReset>
            {t("order:detail.back")}
          </Link>
        </div>
      </dialog>
    </div>
  );
}

/** A form's own refusals (the upstream's messages, or the schema's keys translated). */
function FormErrorList({ errors, msg }: { errors?: string[]; msg: (e?: string) => string }) {
  if (!errors?.length) return null;
  return (
    <div className="form-errors" role="alert" data-form-error="">
      {errors.map((e) => (
        <p key={e}>{msg(e)}</p>
      ))}
    </div>
  );
}
