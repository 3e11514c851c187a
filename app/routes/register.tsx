/**
 * Sign up by e-mail or mobile (with area code): verification code (send-code button with a 60 s
 * countdown computed by the server), password, re_password, invite_code (prefilled from
 * ?invite_code). After sign-up: /login.
 */
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "react-i18next";
import { callerFor } from "~/upstream/client.server";
import { register } from "~/upstream/account.server";
import { areaList, isShowMobile } from "~/upstream/settings.server";
import { getSignedIn } from "~/session.server";
import { redirectWithToast } from "~/toast.server";
import { readForm } from "~/forms.server";
import { codeStepState, sendCodeAction } from "~/code-flow.server";
import { registerSchema } from "~/schemas/register";
import { sendCodeSchema } from "~/schemas/send-code";
import { Field, FormErrors, SelectField, useMessage } from "~/components/Form";
import { AuthTabs, areaOptions } from "~/components/AuthTabs";
import { CaptchaField, SendCodeButton } from "~/components/SendCodeButton";
import { PageHeader } from "~/components/PageHeader";

export const handle = { i18n: ["common", "auth"] };

const HIDE = ["password", "re_password"];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSignedIn(request)) throw redirect("/");
  const url = new URL(request.url);
  const caller = await callerFor(request);
  const mobile = await isShowMobile(caller);
  const showMobile = mobile.ok ? mobile.data : false;
  const type: "email" | "mobile" = showMobile && url.searchParams.get("type") === "mobile" ? "mobile" : "email";
  const [areas, step] = await Promise.all([type === "mobile" ? areaList(caller) : null, codeStepState(caller)]);
  const invite = (url.searchParams.get("invite_code") ?? "").trim().slice(0, 32);
  const failed = [areas && !areas.ok ? areas.msg : null, step.captchaError].find(Boolean);
  return {
    type,
    showMobile,
    areas: areas?.ok ? areas.data : [],
    invite,
    cooldown: step.cooldown,
    captcha: step.captcha,
    toast: failed ? { type: "error" as const, text: failed } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { formData, csrfError } = await readForm(request);
  const caller = await callerFor(request);
  if (formData.get("intent") === "send_code") return sendCodeAction(caller, formData, csrfError, 1, HIDE);

  const submission = parseWithZod(formData, { schema: registerSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: HIDE }), cooldown: null, notice: null });
  if (csrfError) return data({ result: submission.reply({ formErrors: [csrfError], hideFields: HIDE }), cooldown: null, notice: null });
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
  if (!r.ok) return data({ result: submission.reply({ formErrors: [r.msg], hideFields: HIDE }), cooldown: null, notice: null });
  caller.session.unset("codeSent");
  throw await redirectWithToast(caller.session, v.type === "mobile" ? "/login?type=mobile" : "/login", { type: "success", text: r.msg });
}

export default function Register() {
  const { type, showMobile, areas, invite, cooldown, captcha } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const msg = useMessage();
  const location = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const busyIntent = busy ? navigation.formData?.get("intent") : null;
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
  const seconds = typeof actionData?.cooldown === "number" && actionData.cooldown > 0 ? actionData.cooldown : cooldown;
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
        {actionData?.notice ? (
          <p className="form-notice" role="status">
            {actionData.notice}
          </p>
        ) : null}
        {type === "mobile" ? <SelectField meta={fields.area_id} label={t("area_code")} options={areaOptions(areas)} /> : null}
        <Field
          meta={fields.account}
          label={type === "mobile" ? t("mobile") : t("email")}
          type={type === "mobile" ? "tel" : "email"}
          autoComplete={type === "mobile" ? "tel" : "email"}
          placeholder={type === "mobile" ? t("input_mobile") : t("input_email")}
        />
        <CaptchaField captcha={captcha} error={fields.captcha_code.errors?.[0] ? msg(fields.captcha_code.errors[0]) : undefined} />
        <Field
          meta={fields.sms_code}
          label={t("code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder={t("input_code")}
          after={<SendCodeButton seconds={seconds} busy={busyIntent === "send_code"} stamp={actionData?.notice ?? undefined} />}
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
