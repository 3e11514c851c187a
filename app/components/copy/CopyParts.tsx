/**
 * The parts of a copy shown on /mine/copies and on a copy's page: its figures (amount in, value,
 * profit, copy stop-loss level, status) and its actions (pause or resume, stop behind a
 * confirmation, add or remove funds), each a plain POST form with CSRF and an idempotency key.
 */
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { Copy } from "@contract/api/copy";
import { FormErrors, Hidden, refusalMessages, usePostIntent } from "~/components/Form";
import { formatBalance, formatFixed, signOf } from "~/utils/format";

/** The idempotency keys of one copy's forms. */
export interface CopyKeys {
  pause: string;
  resume: string;
  stop: string;
  funds: string;
}

/** The status of a copy as words (with why it ended). */
export function useCopyStatus() {
  const { t } = useTranslation("copy");
  return (c: Copy) =>
    c.status === "stopped" && c.stop_reason
      ? `${t("copies.status_stopped")} · ${t(`copies.stop_reason_${c.stop_reason}`)}`
      : t(`copies.status_${c.status}`);
}

export function CopyFigures({ c, lang }: { c: Copy; lang: string }) {
  const { t } = useTranslation("copy");
  const status = useCopyStatus();
  return (
    <dl className="copy-figures">
      <div>
        <dt>{t("copies.invested")}</dt>
        <dd data-testid="copy-invested">{formatBalance(c.invested, lang)}</dd>
      </div>
      <div>
        <dt>{t("copies.equity")}</dt>
        <dd data-testid="copy-equity">{formatBalance(c.equity, lang)}</dd>
      </div>
      <div>
        <dt>{t("copies.profit")}</dt>
        <dd className={`profit ${signOf(c.profit)}`} data-testid="copy-profit">
          {formatFixed(c.profit, 2, lang, { signed: true })}
        </dd>
      </div>
      <div>
        <dt>{t("copies.stop_loss_level")}</dt>
        <dd data-testid="copy-stop-level">
          {formatBalance(c.stop_loss_level, lang)}{" "}
          <span className="muted">({formatFixed(c.stop_loss_pct, 0, lang)}%)</span>
        </dd>
      </div>
      <div>
        <dt>{t("copies.open_positions")}</dt>
        <dd data-testid="copy-open-count">{formatFixed(c.open_positions, 0, lang)}</dd>
      </div>
      <div>
        <dt>{t("copies.status")}</dt>
        <dd data-testid="copy-status" data-status={c.status}>
          {status(c)}
        </dd>
      </div>
    </dl>
  );
}

function CommandForm({
  c,
  intent,
  idempotencyKey,
  label,
  className = "btn btn-small",
}: {
  c: Copy;
  intent: "pause" | "resume" | "stop";
  idempotencyKey: string;
  label: string;
  className?: string;
}) {
  const { busyIntent } = usePostIntent();
  return (
    <Form method="post" className="inline-form" preventScrollReset>
      <AuthenticityTokenInput />
      <Hidden name="intent" value={intent} />
      <Hidden name="id" value={c.id} />
      <Hidden name="idempotency_key" value={idempotencyKey} />
      <button
        type="submit"
        className={className}
        disabled={busyIntent === intent}
        data-testid={`copy-${intent}`}
      >
        {label}
      </button>
    </Form>
  );
}

export function CopyActions({
  c,
  keys,
  lang,
  actionData,
}: {
  c: Copy;
  keys: CopyKeys;
  lang: string;
  actionData: unknown;
}) {
  const { t } = useTranslation("copy");
  const { busyIntent } = usePostIntent();
  if (c.status === "stopped") return null;
  const mine =
    actionData && typeof actionData === "object" && "copyId" in actionData
      ? (actionData as { copyId: unknown }).copyId === c.id
      : false;
  const refusal = mine ? refusalMessages(actionData) : undefined;
  const fundsRefused = mine && (actionData as { refusedIntent?: string }).refusedIntent === "funds";
  return (
    <div className="copy-actions" data-testid="copy-actions">
      <FormErrors errors={fundsRefused ? undefined : refusal} />
      <div className="copy-buttons">
        {c.status === "active" ? (
          <CommandForm c={c} intent="pause" idempotencyKey={keys.pause} label={t("copies.pause")} />
        ) : (
          <CommandForm
            c={c}
            intent="resume"
            idempotencyKey={keys.resume}
            label={t("copies.resume")}
          />
        )}
      </div>
      <details className="copy-more" open={fundsRefused || undefined}>
        <summary className="btn btn-small btn-outline" data-testid="copy-funds-open">
          {t("copies.funds")}
        </summary>
        <Form method="post" className="copy-funds" preventScrollReset>
          <AuthenticityTokenInput />
          <Hidden name="intent" value="funds" />
          <Hidden name="id" value={c.id} />
          <Hidden name="idempotency_key" value={keys.funds} />
          <FormErrors errors={fundsRefused ? refusal : undefined} />
          <fieldset className="copy-direction">
            <legend className="sr-only">{t("copies.funds")}</legend>
            <label className="radio-row">
              <input type="radio" name="direction" value="add" defaultChecked />
              <span>{t("copies.funds_add")}</span>
            </label>
            <label className="radio-row">
              <input type="radio" name="direction" value="remove" />
              <span>{t("copies.funds_remove")}</span>
            </label>
          </fieldset>
          <div className="field">
            <label htmlFor={`funds-${c.id}`}>{t("copies.funds_amount")}</label>
            <input id={`funds-${c.id}`} name="amount" inputMode="decimal" autoComplete="off" />
            <p className="hint">
              {t("copies.can_take_out", { amount: formatBalance(c.free_margin, lang) })}
            </p>
          </div>
          <button
            type="submit"
            className="btn btn-small btn-primary"
            disabled={busyIntent === "funds"}
            data-testid="copy-funds-submit"
          >
            {t("copies.funds_submit")}
          </button>
        </Form>
      </details>
      <details className="copy-more">
        <summary className="btn btn-small btn-danger" data-testid="copy-stop-open">
          {t("copies.stop")}
        </summary>
        <div className="copy-confirm">
          <p>{t("copies.stop_confirm")}</p>
          <CommandForm
            c={c}
            intent="stop"
            idempotencyKey={keys.stop}
            label={t("copies.stop_yes")}
            className="btn btn-small btn-danger"
          />
        </div>
      </details>
    </div>
  );
}
