/**
 * Notification settings (login required): per kind, whether a notification is also e-mailed and
 * pushed to the account's devices (in the app is always on), a plain form; and this device's
 * notifications (Web Push), which only the page's script can turn on: it registers the service
 * worker, asks the browser's permission and sends the subscription. Where a browser needs the app
 * on its home screen first (iPhone and iPad), the page says how.
 */
import { Form, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { AuthenticityTokenInput, useAuthenticityToken } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import type { NoticeChannels } from "@contract/api/notify";
import type { StatementMail } from "@contract/api/statements";
import { FormErrors, refusalMessages } from "~/components/Form";
import { PageHeader } from "~/components/PageHeader";
import accountStyles from "~/styles/account.css";
import type { action, loader } from "./settings.server";

export { action, loader } from "./settings.server";

export const handle = { i18n: ["common", "notify", "statements"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

export default function NotificationSettings() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("notify");
  return (
    <div className="account notice-settings">
      <PageHeader title={t("settings_title")} back="/mine/notifications" />
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      {d.settings ? (
        <section className="card" aria-labelledby="channels-title">
          <h2 id="channels-title" className="account-section-title">
            {t("channels")}
          </h2>
          <p className="account-explain">{t("channels_explain")}</p>
          <Form method="post" className="form">
            <AuthenticityTokenInput />
            <table className="channels" data-testid="channels">
              <thead>
                <tr>
                  <th scope="col">{t("kind")}</th>
                  <th scope="col">{t("channel_email")}</th>
                  <th scope="col">{t("channel_push")}</th>
                </tr>
              </thead>
              <tbody>
                {d.settings.kinds.map((k) => (
                  <KindRow key={k.kind} k={k} hasEmail={d.settings!.has_email} />
                ))}
              </tbody>
            </table>
            {d.settings.has_email ? null : <p className="muted">{t("no_email")}</p>}
            <button type="submit" name="intent" value="save" className="btn btn-primary btn-block">
              {t("save")}
            </button>
          </Form>
        </section>
      ) : null}
      {d.statementMail ? <MonthlyStatement m={d.statementMail} /> : null}
      <section className="card" aria-labelledby="device-title">
        <h2 id="device-title" className="account-section-title">
          {t("device")}
        </h2>
        <p className="account-explain" data-testid="push-devices">
          {t("push_devices", { count: d.settings?.push_devices ?? 0 })}
        </p>
        <PushDevice publicKey={d.publicKey} />
        <p className="muted">{t("ios_hint")}</p>
      </section>
    </div>
  );
}

function KindRow({ k, hasEmail }: { k: NoticeChannels; hasEmail: boolean }) {
  const { t } = useTranslation("notify");
  const label = t(`kind_${k.kind}`);
  return (
    <tr data-testid="channel-row" data-kind={k.kind}>
      <th scope="row">{label}</th>
      <td>
        <input
          type="checkbox"
          name={`email_${k.kind}`}
          value="1"
          defaultChecked={k.email}
          disabled={!hasEmail || k.kind === "new_device"}
          aria-label={`${label}: ${t("channel_email")}`}
        />
      </td>
      <td>
        <input
          type="checkbox"
          name={`push_${k.kind}`}
          value="1"
          defaultChecked={k.push}
          aria-label={`${label}: ${t("channel_push")}`}
        />
      </td>
    </tr>
  );
}

/** A real account's monthly statement by e-mail: one checkbox, its own form. */
function MonthlyStatement({ m }: { m: StatementMail }) {
  const { t } = useTranslation("statements");
  const actionData = useActionData<typeof action>();
  const refusal =
    actionData && "refusedIntent" in actionData && actionData.refusedIntent === "statement_mail"
      ? refusalMessages(actionData)
      : undefined;
  return (
    <section className="card" aria-labelledby="monthly-title">
      <h2 id="monthly-title" className="account-section-title">
        {t("mail_title")}
      </h2>
      <p className="account-explain">{t("mail_explain")}</p>
      <Form method="post" className="form" id="statement-mail">
        <AuthenticityTokenInput />
        <FormErrors errors={refusal} />
        <label className="radio-row">
          <input
            type="checkbox"
            name="monthly"
            value="1"
            defaultChecked={m.monthly}
            disabled={!m.has_email && !m.monthly}
            data-testid="statement-mail-monthly"
          />
          <span>{t("mail_monthly")}</span>
        </label>
        {m.has_email ? null : <p className="muted">{t("mail_no_email")}</p>}
        {m.last_month ? (
          <p className="muted" data-testid="statement-mail-last">
            {t("mail_last", { month: m.last_month })}
          </p>
        ) : null}
        <button
          type="submit"
          name="intent"
          value="statement_mail"
          className="btn btn-primary btn-block"
        >
          {t("mail_save")}
        </button>
      </Form>
    </section>
  );
}

type DeviceState = "checking" | "unsupported" | "denied" | "off" | "on";

/** This browser's Web Push subscription: on or off (JavaScript only; nothing without it). */
function PushDevice({ publicKey }: { publicKey: string | null }) {
  const { t } = useTranslation("notify");
  const csrf = useAuthenticityToken();
  const fetcher = useFetcher<typeof action>();
  const [state, setState] = useState<DeviceState | null>(null);

  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !publicKey) {
      setState("unsupported");
      return;
    }
    setState("checking");
    navigator.serviceWorker
      .getRegistration("/")
      .then((reg) => reg?.pushManager.getSubscription() ?? null)
      .then((sub) => setState(sub ? "on" : Notification.permission === "denied" ? "denied" : "off"))
      .catch(() => setState("off"));
  }, [publicKey]);

  const send = (fields: Record<string, string>) =>
    fetcher.submit({ ...fields, csrf }, { method: "post" });

  async function turnOn() {
    const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    if ((await Notification.requestPermission()) !== "granted") return setState("denied");
    const sub = await reg.pushManager.subscribe({
      userVisibleOnly: true,
      // The VAPID public key as base64url text, which the Push API takes as it is.
      applicationServerKey: publicKey!,
    });
    const j = sub.toJSON();
    send({
      intent: "push_subscribe",
      endpoint: j.endpoint ?? "",
      p256dh: j.keys?.p256dh ?? "",
      auth: j.keys?.auth ?? "",
    });
    setState("on");
  }

  async function turnOff() {
    const reg = await navigator.serviceWorker.getRegistration("/");
    const sub = await reg?.pushManager.getSubscription();
    if (sub) {
      send({ intent: "push_unsubscribe", endpoint: sub.endpoint });
      await sub.unsubscribe();
    }
    setState("off");
  }

  if (state === null) return <p className="muted">{t("device_needs_js")}</p>;
  if (state === "unsupported") return <p className="muted">{t("device_unsupported")}</p>;
  if (state === "denied") return <p className="muted">{t("device_denied")}</p>;
  return state === "on" ? (
    <button type="button" className="btn btn-outline btn-block" onClick={() => void turnOff()}>
      {t("device_off")}
    </button>
  ) : (
    <button
      type="button"
      className="btn btn-primary btn-block"
      disabled={state === "checking"}
      onClick={() => void turnOn().catch(() => setState("off"))}
    >
      {t("device_on")}
    </button>
  );
}
