/**
 * Sign up by e-mail or mobile (with area code): verification code (send-code button with a 60 s
 * countdown computed by the server), password, re_password, invite_code (prefilled from
 * ?invite_code). After sign-up: /login.
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

import type { action, loader } from "./register.server";

export { action, loader } from "./register.server";

export const handle = { i18n: ["common", "auth"] };

export default function Register() {
  const { type, showMobile, areas, invite, cooldown, captcha, constraint } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const location = useLocation();
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: `register-${type}`,
    lastResult: actionData?.result,
    defaultValue: { type, invite_code: invite },
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useDeferredValidation(() => import("./validate").then((m) => m.validateRegister)),
  });
  return (
    <div className="auth">
      <PageHeader title={t("register_title")} back="/login" />
      <AuthTabs type={type} search={location.search} showMobile={showMobile} />
      <Form
        method="post"
        action={`/register${location.search}`}
        {...getFormProps(form)}
        noValidate
        className="card form"
      >
        {/* The first submit button is the one Enter presses: registering, not sending a code. */}
        <button
          type="submit"
          name="intent"
          value="register"
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
          codeField={fields.sms_code}
          cooldown={cooldown}
          actionData={actionData}
          sending={busyIntent === "send_code"}
        />
        <Field
          meta={fields.password}
          label={t("password")}
          type="password"
          autoComplete="new-password"
          placeholder={t("password_rule")}
        />
        <Field
          meta={fields.re_password}
          label={t("re_password")}
          type="password"
          autoComplete="new-password"
          placeholder={t("input_re_password")}
        />
        <Field
          meta={fields.invite_code}
          label={t("invite_code")}
          autoComplete="off"
          placeholder={t("optional")}
        />
        <button
          type="submit"
          name="intent"
          value="register"
          className="btn btn-primary btn-block"
          disabled={busy}
        >
          {busyIntent === "register" ? t("registering") : t("register_submit")}
        </button>
        <div className="form-links">
          <span>{t("have_account")}</span>
          <Link to="/login">{t("login_link")}</Link>
        </div>
      </Form>
    </div>
  );
}
