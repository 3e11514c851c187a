/**
 * Password reset: account (e-mail or mobile), verification code (send-code button with a 60 s
 * countdown computed by the server), new password twice. After the reset: /login.
 */
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "react-i18next";
import { callerFor } from "~/upstream/client.server";
import { forgetPassword } from "~/upstream/account.server";
import { areaList, isShowMobile } from "~/upstream/settings.server";
import { redirectWithToast } from "~/toast.server";
import { readForm } from "~/forms.server";
import { codeStepState, sendCodeAction } from "~/code-flow.server";
import { forgotSchema } from "~/schemas/forgot";
import { sendCodeSchema } from "~/schemas/send-code";
import { Field, FormErrors, SelectField, useMessage } from "~/components/Form";
import { AuthTabs, areaOptions } from "~/components/AuthTabs";
import { CaptchaField, SendCodeButton } from "~/components/SendCodeButton";
import { PageHeader } from "~/components/PageHeader";

export const handle = { i18n: ["common", "auth"] };

const HIDE = ["new_password", "secondary_password"];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const caller = await callerFor(request);
  const mobile = await isShowMobile(caller);
  const showMobile = mobile.ok ? mobile.data : false;
  const type: "email" | "mobile" = showMobile && url.searchParams.get("type") === "mobile" ? "mobile" : "email";
  const [areas, step] = await Promise.all([type === "mobile" ? areaList(caller) : null, codeStepState(caller)]);
  const failed = [areas && !areas.ok ? areas.msg : null, step.captchaError].find(Boolean);
  return {
    type,
    showMobile,
    areas: areas?.ok ? areas.data : [],
    cooldown: step.cooldown,
    captcha: step.captcha,
    toast: failed ? { type: "error" as const, text: failed } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { formData, csrfError } = await readForm(request);
  const caller = await callerFor(request);
  if (formData.get("intent") === "send_code") return sendCodeAction(caller, formData, csrfError, 2, HIDE);

  const submission = parseWithZod(formData, { schema: forgotSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: HIDE }), cooldown: null, notice: null });
  if (csrfError) return data({ result: submission.reply({ formErrors: [csrfError], hideFields: HIDE }), cooldown: null, notice: null });
  const v = submission.value;
  const r = await forgetPassword(caller, {
    type: v.type,
    account: v.account,
    area_id: v.type === "mobile" ? v.area_id : undefined,
    new_password: v.new_password,
    secondary_password: v.secondary_password,
    auth_code: v.auth_code,
  });
  if (!r.ok) return data({ result: submission.reply({ formErrors: [r.msg], hideFields: HIDE }), cooldown: null, notice: null });
  caller.session.unset("codeSent");
  throw await redirectWithToast(caller.session, v.type === "mobile" ? "/login?type=mobile" : "/login", { type: "success", text: r.msg });
}

export default function Forgot() {
  const { type, showMobile, areas, cooldown, captcha } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const msg = useMessage();
  const location = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const busyIntent = busy ? navigation.formData?.get("intent") : null;
  const [form, fields] = useForm({
    id: `forgot-${type}`,
    lastResult: actionData?.result,
    defaultValue: { type },
    constraint: getZodConstraint(forgotSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: formData.get("intent") === "send_code" ? sendCodeSchema : forgotSchema }),
  });
  const seconds = typeof actionData?.cooldown === "number" && actionData.cooldown > 0 ? actionData.cooldown : cooldown;
  return (
    <div className="auth">
      <PageHeader title={t("forgot_title")} back="/login" />
      <AuthTabs type={type} search={location.search} showMobile={showMobile} />
      <Form method="post" action={`/forgot${location.search}`} {...getFormProps(form)} noValidate className="card form">
        <button type="submit" name="intent" value="reset" className="sr-only" tabIndex={-1} aria-hidden="true" />
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
          meta={fields.auth_code}
          label={t("code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder={t("input_code")}
          after={<SendCodeButton seconds={seconds} busy={busyIntent === "send_code"} stamp={actionData?.notice ?? undefined} />}
        />
        <Field meta={fields.new_password} label={t("new_password")} type="password" autoComplete="new-password" placeholder={t("password_rule")} />
        <Field
          meta={fields.secondary_password}
          label={t("secondary_password")}
          type="password"
          autoComplete="new-password"
          placeholder={t("input_re_password")}
        />
        <button type="submit" name="intent" value="reset" className="btn btn-primary btn-block" disabled={busy}>
          {busyIntent === "reset" ? t("saving") : t("forgot_submit")}
        </button>
        <div className="form-links">
          <Link to="/login">{t("login_link")}</Link>
        </div>
      </Form>
    </div>
  );
}
