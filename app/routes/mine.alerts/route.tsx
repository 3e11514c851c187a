/**
 * Price alerts (login required): set an alert on an instrument (its price at or above, or at or
 * below, a price; or its day's change reaching a percentage), once or every time with a pause,
 * optionally until a day; the alerts, active first, each removable. The alerts live on the server
 * and fire while the user is away (a notification). Plain forms: they work before JavaScript loads.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import type { PriceAlert } from "@contract/api/alerts";
import { ALERT_CONDITIONS, ALERT_COOLDOWN_MIN } from "@contract/api/alerts-rules";
import { alertCreateSchema } from "~/schemas/alerts";
import { Field, FormErrors, refusalMessages, SelectField, usePostIntent } from "~/components/Form";
import { Hidden } from "~/components/Hidden";
import { PageHeader } from "~/components/PageHeader";
import { formatDateTime } from "~/utils/format";
import accountStyles from "~/styles/account.css";
import type { action, loader } from "./alerts.server";

export { action, loader } from "./alerts.server";

export const handle = { i18n: ["common", "auth", "alerts"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

export default function Alerts() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("alerts");
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: "alert-create",
    lastResult:
      actionData && "refusedIntent" in actionData && actionData.refusedIntent === "create"
        ? actionData.result
        : undefined,
    constraint: getZodConstraint(alertCreateSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: alertCreateSchema }),
    defaultValue: {
      forex_id: d.chosen ? String(d.chosen.id) : undefined,
      target: d.chosen ? String(d.chosen.price) : undefined,
      condition: "above",
      repeat: "once",
      cooldown_min: String(ALERT_COOLDOWN_MIN.default),
    },
  });
  const deleteRefused =
    actionData && "refusedIntent" in actionData && actionData.refusedIntent === "delete"
      ? refusalMessages(actionData)
      : undefined;
  return (
    <div className="account alerts">
      <PageHeader title={t("title")} back="/user" />
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      <section className="card" aria-labelledby="alert-new">
        <h2 id="alert-new" className="account-section-title">
          {t("new")}
        </h2>
        <p className="account-explain">{t("explain")}</p>
        <Form method="post" {...getFormProps(form)} noValidate className="form">
          <AuthenticityTokenInput />
          <FormErrors errors={form.errors} id={form.errorId} />
          <SelectField
            meta={fields.forex_id}
            label={t("instrument")}
            options={d.instruments.map((i) => ({
              value: String(i.id),
              label: `${i.name} (${i.price})`,
            }))}
          />
          <SelectField
            meta={fields.condition}
            label={t("condition")}
            options={ALERT_CONDITIONS.map((c) => ({ value: c, label: t(`condition_${c}`) }))}
          />
          <Field meta={fields.target} label={t("target")} inputMode="decimal" autoComplete="off" />
          <fieldset className="field">
            <legend>{t("repeat")}</legend>
            <label className="radio-row">
              <input
                type="radio"
                name={fields.repeat.name}
                value="once"
                defaultChecked={fields.repeat.initialValue !== "every"}
              />
              <span>{t("repeat_once")}</span>
            </label>
            <label className="radio-row">
              <input
                type="radio"
                name={fields.repeat.name}
                value="every"
                defaultChecked={fields.repeat.initialValue === "every"}
              />
              <span>{t("repeat_every")}</span>
            </label>
          </fieldset>
          <Field
            meta={fields.cooldown_min}
            label={t("cooldown")}
            type="number"
            min={ALERT_COOLDOWN_MIN.min}
            max={ALERT_COOLDOWN_MIN.max}
          />
          <Field meta={fields.until} label={t("until")} type="date" />
          <button
            type="submit"
            name="intent"
            value="create"
            className="btn btn-primary btn-block"
            disabled={busy}
          >
            {busyIntent === "create" ? t("saving") : t("create")}
          </button>
        </Form>
      </section>
      <section className="card" aria-labelledby="alert-list">
        <h2 id="alert-list" className="account-section-title">
          {t("list")}
        </h2>
        <FormErrors errors={deleteRefused} />
        {d.alerts.length === 0 ? (
          <p className="empty">{t("empty")}</p>
        ) : (
          <ul className="notice-list">
            {d.alerts.map((a) => (
              <AlertItem key={a.id} a={a} lang={d.lang} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function AlertItem({ a, lang }: { a: PriceAlert; lang: string }) {
  const { t } = useTranslation("alerts");
  return (
    <li
      className={a.active ? "notice-item" : "notice-item ended"}
      data-testid="alert"
      data-active={a.active ? "1" : "0"}
    >
      <p className="notice-title">
        <bdi>{a.code}</bdi> {t(`describe_${a.condition}`, { target: a.target })}
      </p>
      <p className="account-explain">
        {a.repeat === "every" ? t("every_minutes", { count: a.cooldown_min }) : t("repeat_once")}
        {a.expires_at ? ` · ${t("until_day", { day: formatDateTime(a.expires_at, lang) })}` : ""}
        {a.fired_at ? ` · ${t("fired", { at: formatDateTime(a.fired_at, lang) })}` : ""}
        {a.active ? "" : ` · ${t("ended")}`}
      </p>
      <Form method="post">
        <AuthenticityTokenInput />
        <Hidden name="intent" value="delete" />
        <Hidden name="id" value={a.id} />
        <button type="submit" className="btn btn-outline btn-small">
          {t("delete")}
        </button>
      </Form>
    </li>
  );
}
