/**
 * The copy form (/rank/provider/copy?id=N, login required): the amount with the user's free margin
 * shown, the mode (proportional or fixed lots), the multiplier (or the lots), the copy stop-loss
 * percent, "copy open trades", and as an example the lots the copy would take of the provider's
 * latest trade (server-rendered for the values shown; with JavaScript it follows the typing). The
 * POST starts the copy and goes to its page; a refusal shows in place (400).
 */
import { useState, type FormEvent } from "react";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import {
  COPY_MODES,
  COPY_MULTIPLE,
  COPY_STOP_LOSS_PCT,
  type CopyMode,
} from "@contract/api/copy-rules";
import { type Provider } from "@contract/api/copy";
import { ORDER_TYPE } from "@contract/enums";
import { PageHeader } from "~/components/PageHeader";
import { RiskBadge } from "~/components/risk/RiskBadge";
import { FormErrors, Hidden, usePostIntent } from "~/components/Form";
import { EXAMPLE_AMOUNT_USD, exampleLots } from "~/components/copy/example";
import { formatBalance, formatLotHint } from "~/utils/format";
import { plainDecimal } from "~/schemas/copy";
import { providerHref } from "~/utils/copy-href";
import rankStyles from "~/styles/rank.css";
import riskStyles from "~/styles/risk.css";
import copyStyles from "~/styles/copy.css";
import type { action, loader } from "./copy-form.server";

export { action, loader } from "./copy-form.server";

export const handle = { i18n: ["common", "copy", "trade", "risk"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: rankStyles },
  { rel: "stylesheet", href: copyStyles },
  { rel: "stylesheet", href: riskStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.title ?? "Tradepost" },
];

/** The bounds the messages quote. */
const BOUNDS = {
  min: COPY_MULTIPLE.min,
  max: COPY_MULTIPLE.max,
  pctMin: COPY_STOP_LOSS_PCT.min,
  pctMax: COPY_STOP_LOSS_PCT.max,
};

type Posted = Record<string, unknown>;
interface Result {
  initialValue?: Posted | null;
  error?: Record<string, string[] | null> | null;
}

function resultOf(actionData: unknown): Result | null {
  if (!actionData || typeof actionData !== "object" || !("result" in actionData)) return null;
  return (actionData as { result: Result }).result;
}

const text = (v: unknown, fallback: string) => (typeof v === "string" ? v : fallback);

/** A field's first message, translated with the bounds. */
function FieldMessage({ name, result }: { name: string; result: Result | null }) {
  const { t } = useTranslation(["copy", "common"]);
  const msg = result?.error?.[name]?.[0];
  if (!msg) return null;
  return (
    <p id={`copy-${name}-error`} className="field-error" data-error-for={name}>
      {/^[a-z]+:[a-z0-9_.]+$/.test(msg) ? t(msg, BOUNDS) : msg}
    </p>
  );
}

function Example({
  p,
  mode,
  multiple,
  amount,
  lang,
}: {
  p: Provider;
  mode: CopyMode;
  multiple: string;
  amount: string;
  lang: string;
}) {
  const { t } = useTranslation(["copy", "trade"]);
  const last = p.last_trade;
  if (!last)
    return (
      <p className="muted copy-example" data-testid="copy-example">
        {t("copy:form.example_none")}
      </p>
    );
  const typed = Number(plainDecimal(amount));
  const usd = typed > 0 ? typed : EXAMPLE_AMOUNT_USD;
  const lots = exampleLots(p, { mode, multiple, amount: usd });
  const side = last.side === ORDER_TYPE.BUY ? t("trade:buy") : t("trade:sell");
  const lotsText = (v: string) =>
    t("trade:lots_value", { lots: formatLotHint(v, lang), count: Number(v) });
  return (
    <div className="copy-example" aria-live="polite" data-testid="copy-example">
      <p className="copy-example-title">
        {t("copy:form.example", { amount: formatBalance(usd, lang) })}
      </p>
      <dl>
        <div>
          <dt>{t("copy:form.example_provider")}</dt>
          <dd>
            {side} {last.code} {lotsText(last.lots)}
          </dd>
        </div>
        <div>
          <dt>{t("copy:form.example_copy")}</dt>
          <dd data-testid="copy-example-lots">
            {lots === null
              ? "--"
              : Number(lots) > 0
                ? lotsText(lots)
                : t("copy:form.example_skipped")}
          </dd>
        </div>
      </dl>
    </div>
  );
}

export default function CopyForm() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation(["copy", "trade", "common", "risk"]);
  const { busy } = usePostIntent();
  const result = resultOf(actionData);
  const posted: Posted = result?.initialValue ?? {};
  const [mode, setMode] = useState<CopyMode>(posted.mode === "fixed" ? "fixed" : "proportional");
  const [multiple, setMultiple] = useState(text(posted.multiple, ""));
  const [amount, setAmount] = useState(text(posted.amount, ""));
  const p = d.provider;
  if (!p)
    return (
      <div className="rank">
        <PageHeader title={d.title} back="/rank?view=copy" />
        <p className="card notice" role="status" data-testid="copy-notice">
          {d.notice}
        </p>
      </div>
    );

  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const f = new FormData(e.currentTarget);
    setMode(f.get("mode") === "fixed" ? "fixed" : "proportional");
    setMultiple(String(f.get("multiple") ?? ""));
    setAmount(String(f.get("amount") ?? ""));
  };
  const invalid = (name: string) => Boolean(result?.error?.[name]?.length);
  const aria = (name: string) =>
    invalid(name)
      ? { "aria-invalid": true as const, "aria-describedby": `copy-${name}-error` }
      : {};
  const copyOpen = result ? posted.copy_open === "on" || posted.copy_open === true : false;

  return (
    <div className="rank copy-form-screen">
      <PageHeader title={d.title} back={providerHref(p.id)} />
      <Form
        method="post"
        className="card form copy-form"
        noValidate
        onInput={onInput}
        data-testid="copy-form"
      >
        <AuthenticityTokenInput />
        <Hidden name="idempotency_key" value={d.key} />
        <Hidden name="provider_id" value={p.id} />
        <FormErrors errors={result?.error?.[""] ?? undefined} />
        <p className="copy-risk" data-testid="copy-risk">
          {t("risk:score_label")} <RiskBadge score={p.risk_score} />
        </p>
        {p.copy_refused ? (
          <p className="notice" role="status" data-testid="copy-refused">
            {t("risk:copy_refused", { max: p.risk_copy_max })}
          </p>
        ) : null}
        <div className={invalid("amount") ? "field has-error" : "field"}>
          <label htmlFor="copy-amount">{t("copy:form.amount")}</label>
          <input
            id="copy-amount"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={text(posted.amount, "")}
            {...aria("amount")}
          />
          <p className="hint" data-testid="copy-free-margin">
            {t("copy:form.free_margin", {
              amount: d.freeMargin === null ? "--" : formatBalance(d.freeMargin, d.lang),
            })}
            {Number(p.min_investment) > 0
              ? ` · ${t("copy:provider.min_investment", { amount: formatBalance(p.min_investment, d.lang) })}`
              : null}
          </p>
          <FieldMessage name="amount" result={result} />
        </div>
        <fieldset className="field copy-modes">
          <legend>{t("copy:form.mode")}</legend>
          {COPY_MODES.map((m) => (
            <label key={m} className="radio-row">
              <input
                type="radio"
                name="mode"
                value={m}
                defaultChecked={m === (posted.mode === "fixed" ? "fixed" : "proportional")}
              />
              <span>
                {t(`copy:form.mode_${m}`)}
                <span className="hint">{t(`copy:form.mode_${m}_hint`)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className={invalid("multiple") ? "field has-error" : "field"}>
          <label htmlFor="copy-multiple">
            {t("copy:form.multiple")} / {t("copy:form.lots")}
          </label>
          <input
            id="copy-multiple"
            name="multiple"
            inputMode="decimal"
            autoComplete="off"
            placeholder={COPY_MULTIPLE.default}
            defaultValue={text(posted.multiple, "")}
            {...aria("multiple")}
          />
          <p className="hint">
            {mode === "fixed"
              ? t("copy:form.lots_hint")
              : t("copy:form.multiple_hint", { min: COPY_MULTIPLE.min, max: COPY_MULTIPLE.max })}
          </p>
          <FieldMessage name="multiple" result={result} />
        </div>
        <div className={invalid("stop_loss_pct") ? "field has-error" : "field"}>
          <label htmlFor="copy-stop-loss">{t("copy:form.stop_loss_pct")}</label>
          <input
            id="copy-stop-loss"
            name="stop_loss_pct"
            type="number"
            inputMode="numeric"
            min={COPY_STOP_LOSS_PCT.min}
            max={COPY_STOP_LOSS_PCT.max}
            step={1}
            defaultValue={text(posted.stop_loss_pct, String(COPY_STOP_LOSS_PCT.default))}
            {...aria("stop_loss_pct")}
          />
          <p className="hint">
            {t("copy:form.stop_loss_hint", {
              min: COPY_STOP_LOSS_PCT.min,
              max: COPY_STOP_LOSS_PCT.max,
            })}
          </p>
          <FieldMessage name="stop_loss_pct" result={result} />
        </div>
        <label className="check-row">
          <input type="checkbox" name="copy_open" defaultChecked={copyOpen} />
          <span>
            {t("copy:form.copy_open")}
            <span className="hint">{t("copy:form.copy_open_hint")}</span>
          </span>
        </label>
        <Example p={p} mode={mode} multiple={multiple} amount={amount} lang={d.lang} />
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy}
          aria-busy={busy}
          data-testid="copy-submit"
        >
          {busy ? t("copy:form.submitting") : t("copy:form.submit")}
        </button>
        <Link to={providerHref(p.id)} className="btn btn-block btn-outline">
          {t("copy:form.cancel")}
        </Link>
      </Form>
    </div>
  );
}
