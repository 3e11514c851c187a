/**
 * Sign in (e-mail or phone tabs as links, password) and the one-tap demo account (a separate POST
 * form). After sign-in: `from` (a same-site path) or /.
 */
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { getFormProps, useForm } from "@conform-to/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { useDeferredValidation } from "~/hooks/useDeferredValidation";
import { Field, FormErrors, SelectField, usePostIntent } from "~/components/Form";
import { AuthTabs, areaOptions } from "~/components/AuthTabs";
import { PageHeader } from "~/components/PageHeader";

import type { action, loader } from "./login.server";

export { action, loader } from "./login.server";

export const handle = { i18n: ["common", "auth"] };

export default function Login() {
  const { type, showMobile, areas, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const location = useLocation();
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: `login-${type}`,
    lastResult: actionData?.form === "login" ? actionData.result : undefined,
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    // zod stays out of the page's first JavaScript (decision 0011): the schema comes after paint.
    onValidate: useDeferredValidation(() => import("./validate").then((m) => m.validateLogin)),
  });
  const formAction = `/login${location.search}`;
  const registerHref = "/register" + (type === "mobile" ? "?type=mobile" : "");
  return (
    <div className="auth">
      <PageHeader title={t("login_title")} back="/" />
      <p className="lead">{t("login_lead")}</p>
      <AuthTabs type={type} search={location.search} showMobile={showMobile} />
      <Form
        method="post"
        action={formAction}
        {...getFormProps(form)}
        noValidate
        className="card form"
      >
        <AuthenticityTokenInput />
        <input type="hidden" name="login_type" value={type} />
        <FormErrors errors={form.errors} id={form.errorId} />
        {type === "mobile" ? (
          <SelectField meta={fields.area_id} label={t("area_code")} options={areaOptions(areas)} />
        ) : null}
        <Field
          meta={fields.account}
          label={type === "mobile" ? t("mobile") : t("email")}
          type={type === "mobile" ? "tel" : "email"}
          autoComplete={type === "mobile" ? "tel" : "username"}
          placeholder={type === "mobile" ? t("input_mobile") : t("input_email")}
        />
        <Field
          meta={fields.password}
          label={t("password")}
          type="password"
          autoComplete="current-password"
          placeholder={t("input_password")}
        />
        <button
          type="submit"
          name="intent"
          value="login"
          className="btn btn-primary btn-block"
          disabled={busy}
        >
          {busyIntent === "login" ? t("signing_in") : t("login_submit")}
        </button>
        <div className="form-links">
          <Link to="/forgot">{t("forgot_link")}</Link>
          <Link to={registerHref}>{t("register_link")}</Link>
        </div>
      </Form>
      <Form method="post" action={formAction} className="demo-form" id="demo">
        <AuthenticityTokenInput />
        <FormErrors
          errors={
            actionData?.form === "demo" ? (actionData.result.error?.[""] ?? undefined) : undefined
          }
        />
        <button
          type="submit"
          name="intent"
          value="demo"
          className="btn btn-outline btn-block"
          disabled={busy}
        >
          {busyIntent === "demo" ? t("demo_creating") : t("demo_submit")}
        </button>
        <p className="hint">{t("demo_hint")}</p>
      </Form>
    </div>
  );
}
