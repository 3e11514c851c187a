/**
 * /mine/provider (login required): a verified real user may become a provider (public name, short
 * description, minimum investment), change those, or stop being one (no new copies; existing
 * copiers keep their copies until they stop them). When the user may not, the upstream's reason is
 * shown instead of the form.
 */
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import {
  PROVIDER_DESCRIPTION_MAX,
  PROVIDER_MIN_INVESTMENT_MAX_USD,
  PROVIDER_NAME_MAX,
} from "@contract/api/copy-rules";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors, Hidden, usePostIntent } from "~/components/Form";
import { formatBalance, formatFixed } from "~/utils/format";
import { providerHref } from "~/utils/copy-href";
import copyStyles from "~/styles/copy.css";
import type { action, loader } from "./provider.server";

export { action, loader } from "./provider.server";

export const handle = { i18n: ["common", "copy"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: copyStyles }];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.title ?? "Tradepost" },
];

type Result = {
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
};

export default function ProviderSettings() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation(["copy", "common"]);
  const { busyIntent } = usePostIntent();
  const result: Result | null =
    actionData && "result" in actionData ? (actionData.result as Result) : null;
  const refusedIntent = actionData && "refusedIntent" in actionData ? actionData.refusedIntent : "";
  const posted = result?.initialValue ?? {};
  const s = d.settings;
  const p = s?.provider ?? null;
  const value = (name: string, fallback: string) =>
    typeof posted[name] === "string" ? (posted[name] as string) : fallback;
  const message = (name: string) => {
    const m = result?.error?.[name]?.[0];
    if (!m) return null;
    const text = /^[a-z]+:[a-z0-9_.]+$/.test(m)
      ? t(m, {
          max: name === "name" ? PROVIDER_NAME_MAX : PROVIDER_DESCRIPTION_MAX,
          amount: formatFixed(PROVIDER_MIN_INVESTMENT_MAX_USD, 0, d.lang),
        })
      : m;
    return (
      <p id={`provider-${name}-error`} className="field-error" data-error-for={name}>
        {text}
      </p>
    );
  };
  const formErrors = (intent: string) =>
    refusedIntent === intent ? (result?.error?.[""] ?? undefined) : undefined;

  return (
    <div className="copies provider-mine">
      <PageHeader title={d.title} back="/mine" />
      <p className="lead muted">{t("copy:mine.lead")}</p>
      {d.notice || !s ? (
        <p className="card notice" role="status" data-testid="provider-mine-notice">
          {d.notice}
        </p>
      ) : (
        <>
          {p ? (
            <section className="card" data-testid="provider-mine-state">
              <p>
                {p.hidden
                  ? t("copy:mine.hidden")
                  : p.active
                    ? t("copy:mine.active")
                    : t("copy:mine.inactive")}
              </p>
              <dl className="copy-figures">
                <div>
                  <dt>{t("copy:provider.copiers")}</dt>
                  <dd>{formatFixed(p.copiers, 0, d.lang)}</dd>
                </div>
                <div>
                  <dt>{t("copy:mine.min_investment")}</dt>
                  <dd>{formatBalance(p.min_investment, d.lang)}</dd>
                </div>
              </dl>
              {p.active && !p.hidden ? (
                <Link to={providerHref(p.id)}>{t("copy:mine.view_page")}</Link>
              ) : null}
            </section>
          ) : null}
          {!s.eligible ? (
            <p className="card notice" role="status" data-testid="provider-mine-reason">
              <strong>{t("copy:mine.not_eligible")}</strong> {s.reason}
            </p>
          ) : (
            <Form method="post" className="card form" noValidate data-testid="provider-form">
              <AuthenticityTokenInput />
              <Hidden name="intent" value="save" />
              <FormErrors errors={formErrors("save")} />
              <div className="field">
                <label htmlFor="provider-name">{t("copy:mine.name")}</label>
                <input
                  id="provider-name"
                  name="name"
                  maxLength={PROVIDER_NAME_MAX}
                  defaultValue={value("name", p?.name ?? "")}
                  aria-invalid={result?.error?.name ? true : undefined}
                />
                {message("name")}
              </div>
              <div className="field">
                <label htmlFor="provider-description">{t("copy:mine.description")}</label>
                <textarea
                  id="provider-description"
                  name="description"
                  rows={3}
                  maxLength={PROVIDER_DESCRIPTION_MAX}
                  defaultValue={value("description", p?.description ?? "")}
                />
                {message("description")}
              </div>
              <div className="field">
                <label htmlFor="provider-min">{t("copy:mine.min_investment")}</label>
                <input
                  id="provider-min"
                  name="min_investment"
                  inputMode="decimal"
                  defaultValue={value("min_investment", p?.min_investment ?? "")}
                  aria-invalid={result?.error?.min_investment ? true : undefined}
                />
                {message("min_investment")}
              </div>
              <button
                type="submit"
                className="btn btn-primary btn-block"
                disabled={busyIntent === "save"}
                data-testid="provider-save"
              >
                {p?.active ? t("copy:mine.update") : t("copy:mine.become")}
              </button>
            </Form>
          )}
          {p?.active ? (
            <details className="card copy-more" open={refusedIntent === "stop" || undefined}>
              <summary className="btn btn-small btn-danger">{t("copy:mine.stop")}</summary>
              <Form method="post" className="copy-confirm">
                <AuthenticityTokenInput />
                <Hidden name="intent" value="stop" />
                <FormErrors errors={formErrors("stop")} />
                <p>{t("copy:mine.stop_confirm")}</p>
                <button
                  type="submit"
                  className="btn btn-small btn-danger"
                  disabled={busyIntent === "stop"}
                  data-testid="provider-stop"
                >
                  {t("copy:mine.stop_yes")}
                </button>
              </Form>
            </details>
          ) : null}
        </>
      )}
    </div>
  );
}
