/**
 * E-mail (login required, real accounts): the account's e-mail address; an account registered by
 * mobile (no e-mail) binds one with a verification code sent to that address (the send-code button
 * with its 60 s countdown; without JavaScript the send is its own submit).
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import { bindEmailCodeSchema, bindEmailSchema } from "~/schemas/account";
import { Field, FormErrors, usePostIntent } from "~/components/Form";
import { SendCodeButton } from "~/components/SendCodeButton";
import { PageHeader } from "~/components/PageHeader";
import accountStyles from "~/styles/account.css";
import type { action, loader } from "./email.server";

export { action, loader } from "./email.server";

export const handle = { i18n: ["common", "auth", "account"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

export default function Email() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  return (
    <div className="account">
      <PageHeader title={t("email.title")} back="/mine" />
      {d.notice ? (
        <p className="card notice account-notice" role="status" data-testid="account-notice">
          {d.notice}
        </p>
      ) : d.email ? (
        <section className="card" aria-labelledby="email-current">
          <h2 id="email-current" className="account-label">
            {t("email.current")}
          </h2>
          <p className="account-value" data-testid="account-email">
            <bdi>{d.email}</bdi>
          </p>
          <p className="account-explain">{t("email.sign_in_hint")}</p>
        </section>
      ) : (
        <BindEmailForm pending={d.pending} cooldown={d.cooldown} />
      )}
    </div>
  );
}

function BindEmailForm({ pending, cooldown }: { pending: string; cooldown: number }) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("account");
  const { t: ta } = useTranslation("auth");
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: "bind-email",
    lastResult: actionData?.result,
    defaultValue: { email: pending },
    constraint: getZodConstraint(bindEmailSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: formData.get("intent") === "send_code" ? bindEmailCodeSchema : bindEmailSchema,
      }),
  });
  const seconds =
    typeof actionData?.cooldown === "number" && actionData.cooldown > 0
      ? actionData.cooldown
      : cooldown;
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="card form">
      <button
        type="submit"
        name="intent"
        value="bind"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
      />
      <AuthenticityTokenInput />
      <p className="account-explain">{t("email.none")}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      {actionData?.notice ? (
        <p className="form-notice" role="status">
          {actionData.notice}
        </p>
      ) : null}
      <Field
        meta={fields.email}
        label={t("email.new_email")}
        type="email"
        autoComplete="email"
        placeholder={ta("input_email")}
      />
      <Field
        meta={fields.auth_code}
        label={ta("code")}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder={ta("input_code")}
        after={
          <SendCodeButton
            seconds={seconds}
            busy={busyIntent === "send_code"}
            stamp={actionData?.notice ?? undefined}
          />
        }
      />
      <button
        type="submit"
        name="intent"
        value="bind"
        className="btn btn-primary btn-block"
        disabled={busy}
      >
        {busyIntent === "bind" ? ta("saving") : t("email.submit")}
      </button>
    </Form>
  );
}
