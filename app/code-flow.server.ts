/**
 * The send-code step shared by the register and forgot forms (intent=send_code): validates the
 * recipient, calls send_email or send_sms, remembers when the code was sent (so that the 60 s
 * countdown is computed by the server) and answers the form's state.
 */
import { data } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import type { Caller } from "./upstream/client.server";
import { sendEmail, sendSms } from "./upstream/account.server";
import { captcha, captchaRequired, type Captcha } from "./upstream/settings.server";
import { sendCodeSchema, sendCodeWithCaptchaSchema } from "./schemas/send-code";
import { commitSession } from "./session.server";
import { CODE_RESEND_SECONDS, cooldownLeft } from "./forms.server";

export async function sendCodeAction(
  caller: Caller,
  formData: FormData,
  csrfError: string | null,
  purpose: 1 | 2,
  hideFields: string[],
) {
  const needCaptcha = await captchaRequired(caller);
  const schema = needCaptcha.ok && needCaptcha.data ? sendCodeWithCaptchaSchema : sendCodeSchema;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }), cooldown: 0, notice: null as string | null });
  if (csrfError) return data({ result: submission.reply({ formErrors: [csrfError], hideFields }), cooldown: 0, notice: null as string | null });
  const v = submission.value;
  const params = {
    to: v.account,
    type: purpose,
    area_id: v.type === "mobile" ? v.area_id : undefined,
    captcha_id: v.captcha_id,
    captcha_code: v.captcha_code,
  };
  const r = v.type === "email" ? await sendEmail(caller, params) : await sendSms(caller, params);
  if (!r.ok) return data({ result: submission.reply({ formErrors: [r.msg], hideFields }), cooldown: 0, notice: null as string | null });
  const seconds = Number(r.data?.resend_in) > 0 ? Number(r.data.resend_in) : CODE_RESEND_SECONDS;
  caller.session.set("codeSent", { to: v.account, at: Date.now() - (CODE_RESEND_SECONDS - seconds) * 1000 });
  return data(
    { result: submission.reply({ hideFields }), cooldown: seconds, notice: r.msg as string | null },
    { headers: { "Set-Cookie": await commitSession(caller.session) } },
  );
}

/** What the register and forgot pages need to draw the send-code step. */
export async function codeStepState(caller: Caller): Promise<{ cooldown: number; captcha: Captcha | null; captchaError: string | null }> {
  const sent = caller.session.get("codeSent");
  const cooldown = cooldownLeft(sent?.at);
  const need = await captchaRequired(caller);
  if (!need.ok || !need.data) return { cooldown, captcha: null, captchaError: need.ok ? null : need.msg };
  const c = await captcha(caller);
  return { cooldown, captcha: c.ok ? c.data : null, captchaError: c.ok ? null : c.msg };
}
