/**
 * Sign-in, second step (two-factor on): the 6-digit code from the authenticator app, or one of the
 * backup codes, after the password. "Start again" goes back to the password form.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps, useForm } from "@conform-to/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { useDeferredValidation } from "~/hooks/useDeferredValidation";
import { Field, FormErrors, usePostIntent } from "~/components/Form";
import { PageHeader } from "~/components/PageHeader";
import type { action, loader } from "./code.server";

export { action, loader } from "./code.server";

export const handle = { i18n: ["common", "auth", "security"] };

export default function LoginCode() {
  const { expiresInS, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("security");
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: "login-code",
    lastResult: actionData?.refusedIntent === "code" ? actionData.result : undefined,
    constraint,
    shouldValidate: "onSubmit",
    onValidate: useDeferredValidation(() => import("./validate").then((m) => m.validateCode)),
  });
  return (
    <div className="auth">
      <PageHeader title={t("code_title")} back="/login" />
      {expiresInS > 0 ? (
        <p className="lead">{t("code_lead", { count: Math.ceil(expiresInS / 60) })}</p>
      ) : (
        <p className="card notice" role="status" data-testid="sign-in-timed-out">
          {t("sign_in_timed_out")}
        </p>
      )}
      <Form method="post" {...getFormProps(form)} noValidate className="card form">
        <AuthenticityTokenInput />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field
          meta={fields.code}
          label={t("code_label")}
          inputMode="text"
          autoComplete="one-time-code"
          autoFocus
          maxLength={12}
          placeholder="123456"
        />
        <p className="hint">{t("code_hint")}</p>
        <button
          type="submit"
          name="intent"
          value="code"
          className="btn btn-primary btn-block"
          disabled={busy}
        >
          {busyIntent === "code" ? t("checking") : t("code_submit")}
        </button>
      </Form>
      <Form method="post" className="demo-form">
        <AuthenticityTokenInput />
        <button type="submit" name="intent" value="restart" className="btn btn-outline btn-block">
          {t("start_again")}
        </button>
      </Form>
    </div>
  );
}
