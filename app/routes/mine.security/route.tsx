/**
 * Security (login required, real accounts): two-factor sign-in with an authenticator app (turn on:
 * the QR code and the key as text, confirmed by a first code; then 10 backup codes shown once;
 * new backup codes; turn off with a code and the password) and the account's signed-in sessions
 * (device, address, first and last use, "this device"; end one, or all but this one). Every action
 * is a plain form: it works before JavaScript loads.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import type { AccountSession } from "@contract/api/security";
import {
  backupCodesSchema,
  twoFactorDisableSchema,
  twoFactorEnableSchema,
} from "~/schemas/security";
import { Field, FormErrors, usePostIntent } from "~/components/Form";
import { PageHeader } from "~/components/PageHeader";
import { formatDateTime } from "~/utils/format";
import accountStyles from "~/styles/account.css";
import type { action, loader } from "./security.server";

export { action, loader } from "./security.server";

export const handle = { i18n: ["common", "auth", "account", "security"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

type ActionData = ReturnType<typeof useActionData<typeof action>>;

export default function Security() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("security");
  if (d.notice && !d.twoFactor)
    return (
      <div className="account">
        <PageHeader title={t("title")} back="/mine" />
        <p className="card notice account-notice" role="status" data-testid="account-notice">
          {d.notice}
        </p>
      </div>
    );
  const codes = actionData && "backupCodes" in actionData ? actionData.backupCodes : null;
  return (
    <div className="account security">
      <PageHeader title={t("title")} back="/mine" />
      <section className="card" aria-labelledby="two-factor-title" data-testid="two-factor">
        <h2 id="two-factor-title" className="account-section-title">
          {t("two_factor")}
        </h2>
        {codes ? (
          <BackupCodes codes={codes} done={"done" in actionData! ? String(actionData.done) : ""} />
        ) : null}
        {d.twoFactor?.enabled ? (
          <TwoFactorOn left={d.twoFactor.backup_codes_left} actionData={actionData} />
        ) : d.twoFactor?.setup ? (
          <TwoFactorSetup secret={d.twoFactor.setup.secret} qr={d.qr} actionData={actionData} />
        ) : (
          <TwoFactorOff actionData={actionData} />
        )}
      </section>
      <Sessions sessions={d.sessions} lang={d.lang} actionData={actionData} />
    </div>
  );
}

/** A refusal of another form than `intent`'s is not this form's. */
function resultFor(actionData: ActionData, intent: string) {
  return actionData && actionData.refusedIntent === intent ? actionData.result : undefined;
}

function TwoFactorOff({ actionData }: { actionData: ActionData }) {
  const { t } = useTranslation("security");
  const { busy, busyIntent } = usePostIntent();
  const errors = resultFor(actionData, "setup")?.error?.[""];
  return (
    <Form method="post" className="form" data-testid="two-factor-off">
      <AuthenticityTokenInput />
      <p className="account-explain">{t("two_factor_explain")}</p>
      <FormErrors errors={errors ?? undefined} />
      <button
        type="submit"
        name="intent"
        value="setup"
        className="btn btn-primary btn-block"
        disabled={busy}
      >
        {busyIntent === "setup" ? t("working") : t("turn_on")}
      </button>
    </Form>
  );
}

function TwoFactorSetup({
  secret,
  qr,
  actionData,
}: {
  secret: string;
  qr: string;
  actionData: ActionData;
}) {
  const { t } = useTranslation("security");
  const { busy, busyIntent } = usePostIntent();
  const [form, fields] = useForm({
    id: "two-factor-enable",
    lastResult: resultFor(actionData, "enable"),
    constraint: getZodConstraint(twoFactorEnableSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: twoFactorEnableSchema }),
  });
  return (
    <div data-testid="two-factor-setup">
      <ol className="security-steps">
        <li>{t("setup_step_app")}</li>
        <li>{t("setup_step_scan")}</li>
      </ol>
      <div
        className="invite-qr"
        role="img"
        aria-label={t("qr_alt")}
        data-testid="two-factor-qr"
        // The server's own SVG (qrcode): presentation attributes only, no script or style.
        dangerouslySetInnerHTML={{ __html: qr }}
      />
      <p className="account-label">{t("setup_key")}</p>
      <p className="account-value security-secret" dir="ltr" data-testid="two-factor-secret">
        {secret.replace(/(.{4})/g, "$1 ").trim()}
      </p>
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <AuthenticityTokenInput />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field
          meta={fields.code}
          label={t("setup_step_code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="123456"
        />
        <button
          type="submit"
          name="intent"
          value="enable"
          className="btn btn-primary btn-block"
          disabled={busy}
        >
          {busyIntent === "enable" ? t("working") : t("enable_submit")}
        </button>
      </Form>
    </div>
  );
}

function BackupCodes({ codes, done }: { codes: string[]; done: string }) {
  const { t } = useTranslation("security");
  return (
    <div className="notice security-codes" role="status" data-testid="backup-codes">
      {done ? <p className="security-done">{done}</p> : null}
      <p className="account-explain">{t("backup_codes_once")}</p>
      <ol className="security-code-list" dir="ltr">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
    </div>
  );
}

function TwoFactorOn({ left, actionData }: { left: number; actionData: ActionData }) {
  const { t } = useTranslation("security");
  const { busy, busyIntent } = usePostIntent();
  const [renew, renewFields] = useForm({
    id: "backup-codes",
    lastResult: resultFor(actionData, "renew"),
    constraint: getZodConstraint(backupCodesSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: backupCodesSchema }),
  });
  const [off, offFields] = useForm({
    id: "two-factor-disable",
    lastResult: resultFor(actionData, "disable"),
    constraint: getZodConstraint(twoFactorDisableSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: twoFactorDisableSchema }),
  });
  return (
    <div data-testid="two-factor-on">
      <p className="security-state" data-testid="two-factor-state">
        {t("is_on")}
      </p>
      <p className="account-explain" data-testid="backup-codes-left">
        {t("backup_codes_left", { count: left })}
      </p>
      <Form method="post" {...getFormProps(renew)} noValidate className="form">
        <AuthenticityTokenInput />
        <h3 className="account-label">{t("renew_title")}</h3>
        <FormErrors errors={renew.errors} id={renew.errorId} />
        <Field
          meta={renewFields.code}
          label={t("code_label")}
          autoComplete="one-time-code"
          maxLength={12}
        />
        <button
          type="submit"
          name="intent"
          value="renew"
          className="btn btn-outline btn-block"
          disabled={busy}
        >
          {busyIntent === "renew" ? t("working") : t("renew_submit")}
        </button>
      </Form>
      <Form method="post" {...getFormProps(off)} noValidate className="form">
        <AuthenticityTokenInput />
        <h3 className="account-label">{t("disable_title")}</h3>
        <FormErrors errors={off.errors} id={off.errorId} />
        <Field
          meta={offFields.code}
          label={t("code_label")}
          autoComplete="one-time-code"
          maxLength={12}
        />
        <Field
          meta={offFields.password}
          label={t("password_label")}
          type="password"
          autoComplete="current-password"
        />
        <button
          type="submit"
          name="intent"
          value="disable"
          className="btn btn-danger btn-block"
          disabled={busy}
        >
          {busyIntent === "disable" ? t("working") : t("disable_submit")}
        </button>
      </Form>
    </div>
  );
}

function Sessions({
  sessions,
  lang,
  actionData,
}: {
  sessions: AccountSession[];
  lang: string;
  actionData: ActionData;
}) {
  const { t } = useTranslation("security");
  const { busy } = usePostIntent();
  const errors =
    resultFor(actionData, "end")?.error?.[""] ?? resultFor(actionData, "end_others")?.error?.[""];
  return (
    <section className="card" aria-labelledby="sessions-title" data-testid="sessions">
      <h2 id="sessions-title" className="account-section-title">
        {t("sessions")}
      </h2>
      <FormErrors errors={errors ?? undefined} />
      <ul className="security-sessions">
        {sessions.map((s) => (
          <li key={s.id} className="security-session" data-testid="session">
            <p className="account-value">
              <bdi>{s.device || t("unknown_device")}</bdi>
              {s.current ? (
                <span className="badge" data-testid="this-device">
                  {t("this_device")}
                </span>
              ) : null}
            </p>
            <p className="account-explain">
              {t("session_where", { ip: s.ip || "?" })}
              <br />
              {t("session_times", {
                first: formatDateTime(s.created_at, lang),
                last: formatDateTime(s.used_at, lang),
              })}
            </p>
            {s.current ? null : (
              <Form method="post">
                <AuthenticityTokenInput />
                <input type="hidden" name="id" value={s.id} />
                <button
                  type="submit"
                  name="intent"
                  value="end"
                  className="btn btn-outline btn-small"
                  disabled={busy}
                >
                  {t("end_session")}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {sessions.length > 1 ? (
        <Form method="post">
          <AuthenticityTokenInput />
          <button
            type="submit"
            name="intent"
            value="end_others"
            className="btn btn-danger btn-block"
            disabled={busy}
          >
            {t("end_others")}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
