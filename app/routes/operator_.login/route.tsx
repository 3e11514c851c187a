/**
 * The operator console's sign-in (/operator/login): name, password and the authenticator's current
 * 6-digit code, checked by the upstream (POST /admin/api/login, which also limits the tries: its 429
 * is shown as is). Success stores the operator's token in the console's own session cookie.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { FormErrors, refusalMessages } from "~/components/Form";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { operatorLoginSchema } from "~/schemas/operator";
import { operatorLogin } from "~/upstream/operator.server";
import {
  commitOperatorSession,
  getOperator,
  getOperatorSession,
} from "~/utils/operator-session.server";
import { wireTimeMs } from "~/utils/console";

export const handle = { i18n: ["common", "auth", "operator"] };

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getOperator(request)) throw redirect("/operator");
  const session = await getOperatorSession(request);
  const toast = session.get("toast") ?? null;
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (toast) headers.append("Set-Cookie", await commitOperatorSession(session));
  return data({ toast }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, operatorLoginSchema, { hideFields: ["password", "code"] });
  if (!form.ok) return refused(form);
  const r = await operatorLogin(request, form.value);
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  const session = await getOperatorSession(request);
  session.set("token", r.data.token);
  session.set("name", r.data.name);
  session.set("role", r.data.role);
  session.set("expiresAt", wireTimeMs(r.data.expires_at) ?? Date.now() + 3600_000);
  return redirect("/operator", {
    headers: { "Set-Cookie": await commitOperatorSession(session) },
  });
}

export default function OperatorLogin() {
  useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  const values =
    actionData && "result" in actionData
      ? ((actionData.result as { initialValue?: Record<string, unknown> | null }).initialValue ??
        {})
      : {};
  return (
    <div className="console-login">
      <header className="pagehead">
        <span className="iconbtn-spacer" />
        <h1>{t("login_title")}</h1>
        <div className="pagehead-actions" />
      </header>
      <Form method="post" className="card form" data-testid="operator-login">
        <AuthenticityTokenInput />
        <p className="muted">{t("login_intro")}</p>
        <FormErrors errors={refusalMessages(actionData)} />
        <div className="field">
          <label htmlFor="op-name">{t("name")}</label>
          <input
            id="op-name"
            name="name"
            required
            maxLength={40}
            autoComplete="username"
            defaultValue={typeof values.name === "string" ? values.name : ""}
          />
        </div>
        <div className="field">
          <label htmlFor="op-password">{t("password")}</label>
          <input
            id="op-password"
            name="password"
            type="password"
            required
            maxLength={128}
            autoComplete="current-password"
          />
        </div>
        <div className="field">
          <label htmlFor="op-code">{t("code")}</label>
          <input
            id="op-code"
            name="code"
            required
            inputMode="numeric"
            pattern="[0-9]{6}"
            maxLength={6}
            autoComplete="one-time-code"
          />
        </div>
        <button type="submit" className="btn btn-primary btn-block">
          {t("sign_in")}
        </button>
      </Form>
    </div>
  );
}
