/**
 * /mine/notifications/settings' server side: per kind, the channels beyond the app (e-mail, Web
 * Push), saved all at once; this browser's Web Push subscription, kept or forgotten (sent by the
 * page's script, which alone can subscribe a browser); a real account's monthly statement by
 * e-mail, asked for or stopped (its own form).
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { NOTICE_KINDS } from "@contract/api/notify-rules";
import { callerFor } from "~/upstream/client.server";
import {
  noticeSettings,
  noticeSettingsSave,
  pushKey,
  pushSubscribe,
  pushUnsubscribe,
} from "~/upstream/notify.server";
import { statementMail, statementMailSave } from "~/upstream/statements.server";
import { statementMailSchema } from "~/schemas/statements";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { requireSignedIn } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

const HERE = "/mine/notifications/settings";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const [settings, key, monthly] = await Promise.all([
    noticeSettings(caller),
    pushKey(caller),
    statementMail(caller),
  ]);
  return {
    settings: settings.ok ? settings.data : null,
    publicKey: key.ok ? key.data.public_key : null,
    // A demo account has no statement to send: no form.
    statementMail: monthly.ok ? monthly.data : null,
    notice: settings.ok ? null : settings.msg,
  };
}

const tick = z.literal("1").optional();
const saveSchema = z.object({
  intent: z.literal("save"),
  ...Object.fromEntries(
    NOTICE_KINDS.flatMap((k) => [
      [`email_${k}`, tick],
      [`push_${k}`, tick],
    ]),
  ),
});
const subscribeSchema = z.object({
  intent: z.literal("push_subscribe"),
  endpoint: z.string().url().max(1000),
  p256dh: z.string().max(200),
  auth: z.string().max(100),
});
const unsubscribeSchema = z.object({
  intent: z.literal("push_unsubscribe"),
  endpoint: z.string().url().max(1000),
});

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, {
    save: saveSchema,
    push_subscribe: subscribeSchema,
    push_unsubscribe: unsubscribeSchema,
    statement_mail: statementMailSchema,
  });
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const v = form.value as Record<string, string | undefined>;
  const r =
    form.intent === "save"
      ? await noticeSettingsSave(
          caller,
          Object.fromEntries(
            Object.entries(v)
              .filter(([k, x]) => k !== "intent" && x === "1")
              .map(([k]) => [k, "1" as const]),
          ),
        )
      : form.intent === "push_subscribe"
        ? await pushSubscribe(caller, { endpoint: v.endpoint!, p256dh: v.p256dh!, auth: v.auth! })
        : form.intent === "statement_mail"
          ? await statementMailSave(caller, v.monthly === "1")
          : await pushUnsubscribe(caller, v.endpoint!);
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  return redirectWithToast(caller.session, HERE, { type: "success", text: r.msg });
}
