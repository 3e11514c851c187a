/**
 * Sign up by e-mail or mobile (with area code): verification code (send-code button with a 60 s
 * countdown computed by the server), password, re_password, invite_code (prefilled from
 * ?invite_code). After sign-up: /login.
 */
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "react-i18next";
import { callerFor } from "~/upstream/client.server";
import { register } from "~/upstream/account.server";
import { getSignedIn } from "~/session.server";
import { readForm } from "~/forms.server";
import { codeFormDone, codeFormRefused, codeFormState, sendCodeAction } from "~/code-flow.server";
import { registerSchema } from "~/schemas/register";
import { sendCodeSchema } from "~/schemas/send-code";
import { Field, FormErrors, usePostIntent } from "~/components/Form";
import { AuthTabs } from "~/components/AuthTabs";
import { CodeStepFields } from "~/components/CodeStep";
import { PageHeader } from "~/components/PageHeader";

export const handle = { i18n: ["common", "auth"] };

const HIDE = ["password", "re_password"];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSignedIn(request)) throw redirect("/");
  const url = new URL(request.url);
  const caller = await callerFor(request);
  const state = await codeFormState(caller, url);
  const invite = (url.searchParams.get("invite_code") ?? "").trim().slice(0, 32);
  return { ...state, invite };
}

export async function action({ request }: ActionFunctionArgs) {
  const { formData, csrfError } = await readForm(request);
  const caller = await callerFor(request);
  if (formData.get("intent") === "send_code") return sendCodeAction(caller, formData, csrfError, 1, HIDE);

  const submission = parseWithZod(formData, { schema: registerSchema });
  if (submission.status !== "success") return codeFormRefused(submission, HIDE);
  if (csrfError) return codeFormRefused(submission, HIDE, csrfError);
  const v = submission.value;
  const r = await register(caller, {
    type: v.type,
    account: v.account,
    mobile: v.type === "mobile" ? v.account : undefined,
    area_id: v.type === "mobile" ? v.area_id : undefined,
    password: v.password,
    re_password: v.re_password,
    sms_code: v.sms_code,
    invite_code: v.invite_code || undefined,
  });
  if (!r.ok) return codeFormRefused(submission, HIDE, r.msg);
  return codeFormDone(caller, v.type, r.msg);
}

export default function Register() {
  const { type, showMobile, areas, invite, cooldown, captcha } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const location = useLocation();
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: `register-${type}`,
    lastResult: actionData?.result,
    defaultValue: { type, invite_code: invite },
    constraint: getZodConstraint(registerSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: formData.get("intent") === "send_code" ? sendCodeSchema : registerSchema }),
  });
  return (
    <div className="auth">
      <PageHeader title={t("register_title")} back="/login" />
      <AuthTabs type={type} search={location.search} showMobile={showMobile} />
      <Form method="post" action={`/register${location.search}`} {...getFormProps(form)} noValidate className="card form">
        {/* The first submit button is the one Enter presses: registering, not sending a code. */}
        <button type="submit" name="intent" value="register" className="sr-only" tabIndex={-1} aria-hidden="true" />
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
        <Field meta={fields.password} label={t("password")} type="password" autoComplete="new-password" placeholder={t("password_rule")} />
        <Field meta={fields.re_password} label={t("re_password")} type="password" autoComplete="new-password" placeholder={t("input_re_password")} />
        <Field meta={fields.invite_code} label={t("invite_code")} autoComplete="off" placeholder={t("optional")} />
        <button type="submit" name="intent" value="register" className="btn btn-primary btn-block" disabled={busy}>
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
