/**
 * Password reset: account (e-mail or mobile), verification code (send-code button with a 60 s
 * countdown computed by the server), new password twice. After the reset: /login.
 */
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { getFormProps, useForm } from "@conform-to/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { useDeferredValidation } from "~/hooks/useDeferredValidation";
import { Field, FormErrors, usePostIntent } from "~/components/Form";
import { AuthTabs } from "~/components/AuthTabs";
import { CodeStepFields } from "~/components/CodeStep";
import { PageHeader } from "~/components/PageHeader";

import type { action, loader } from "./forgot.server";

export { action, loader } from "./forgot.server";

export const handle = { i18n: ["common", "auth"] };

export default function Forgot() {
  const { type, showMobile, areas, cooldown, captcha, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const location = useLocation();
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: `forgot-${type}`,
    lastResult: actionData?.result,
    defaultValue: { type },
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useDeferredValidation(() => import("./validate").then((m) => m.validateForgot)),
  });
  return (
    <div className="auth">
      <PageHeader title={t("forgot_title")} back="/login" />
      <AuthTabs type={type} search={location.search} showMobile={showMobile} />
      <Form
        method="post"
        action={`/forgot${location.search}`}
        {...getFormProps(form)}
        noValidate
        className="card form"
      >
        <button
          type="submit"
          name="intent"
          value="reset"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
        />
        <AuthenticityTokenInput />
        <input type="hidden" name="type" value={type} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <CodeStepFields
          type={type}
          areas={areas}
          captcha={captcha}
          fields={fields}
          codeField={fields.auth_code}
          cooldown={cooldown}
          actionData={actionData}
          sending={busyIntent === "send_code"}
        />
        <Field
          meta={fields.new_password}
          label={t("new_password")}
          type="password"
          autoComplete="new-password"
          placeholder={t("password_rule")}
        />
        <Field
          meta={fields.secondary_password}
          label={t("secondary_password")}
          type="password"
          autoComplete="new-password"
          placeholder={t("input_re_password")}
        />
        <button
          type="submit"
          name="intent"
          value="reset"
          className="btn btn-primary btn-block"
          disabled={busy}
        >
          {busyIntent === "reset" ? t("saving") : t("forgot_submit")}
        </button>
        <div className="form-links">
          <Link to="/login">{t("login_link")}</Link>
        </div>
      </Form>
    </div>
  );
}
