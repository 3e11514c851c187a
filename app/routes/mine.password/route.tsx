/**
 * Password change (login required, real accounts): a verification code sent to the account's own
 * e-mail (or mobile when it has no e-mail) with the send-code button's 60 s countdown (without
 * JavaScript the send is its own submit), then the new password twice. After the change every other
 * session of the account is signed out; this one stays, and the user centre shows a toast.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import { ownCodeSchema, passwordChangeSchema } from "~/schemas/account";
import { Field, FormErrors, usePostIntent } from "~/components/Form";
import { SendCodeButton } from "~/components/SendCodeButton";
import { PageHeader } from "~/components/PageHeader";
import accountStyles from "~/styles/account.css";
import type { action, loader } from "./password.server";

export { action, loader } from "./password.server";

export const handle = { i18n: ["common", "auth", "account"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

export default function Password() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("account");
  const { t: ta } = useTranslation("auth");
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: "password-change",
    lastResult: actionData?.result,
    constraint: getZodConstraint(passwordChangeSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: formData.get("intent") === "send_code" ? ownCodeSchema : passwordChangeSchema,
      }),
  });
  if (d.notice)
    return (
      <div className="account">
        <PageHeader title={t("password.title")} back="/mine" />
        <p className="card notice account-notice" role="status" data-testid="account-notice">
          {d.notice}
        </p>
      </div>
    );
  const seconds =
    typeof actionData?.cooldown === "number" && actionData.cooldown > 0
      ? actionData.cooldown
      : d.cooldown;
  return (
    <div className="account">
      <PageHeader title={t("password.title")} back="/mine" />
      <Form method="post" {...getFormProps(form)} noValidate className="card form">
        <button
          type="submit"
          name="intent"
          value="change"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
        />
        <AuthenticityTokenInput />
        <FormErrors errors={form.errors} id={form.errorId} />
        {actionData?.notice ? (
          <p className="form-notice" role="status">
            {actionData.notice}
          </p>
        ) : null}
        <p className="account-explain">
          {t(d.channel === "email" ? "password.code_to_email" : "password.code_to_mobile")}{" "}
          <bdi className="account-address" data-testid="own-address">
            {d.address}
          </bdi>
        </p>
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
        <Field
          meta={fields.new_password}
          label={ta("new_password")}
          type="password"
          autoComplete="new-password"
          placeholder={ta("password_rule")}
        />
        <Field
          meta={fields.re_password}
          label={ta("secondary_password")}
          type="password"
          autoComplete="new-password"
          placeholder={ta("input_re_password")}
        />
        <button
          type="submit"
          name="intent"
          value="change"
          className="btn btn-primary btn-block"
          disabled={busy}
        >
          {busyIntent === "change" ? ta("saving") : t("password.submit")}
        </button>
      </Form>
    </div>
  );
}
