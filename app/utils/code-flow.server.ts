/**
 * The send-code step shared by the register and forgot forms (intent=send_code): validates the
 * recipient, calls send_email or send_sms, remembers when the code was sent (so that the 60 s
 * countdown is computed by the server) and answers the form's state.
 */
import type { CodePurpose } from "@contract/enums";
import { data } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import type { Caller } from "~/upstream/client.server";
import { sendEmail, sendSms } from "~/upstream/account.server";
import { areaList, captcha, captchaRequired, isShowMobile } from "~/upstream/settings.server";
import type { Captcha } from "@contract/api/identity";
import { redirectWithToast } from "~/utils/toast.server";
import { sendCodeSchema, sendCodeWithCaptchaSchema, type SendCodeForm } from "~/schemas/send-code";
import { commitSession } from "~/utils/session.server";
import { CODE_RESEND_SECONDS, cooldownLeft } from "~/utils/forms.server";

/** The send-code schema: with the captcha when the setting is on. */
export async function sendCodeSchemaFor(caller: Caller) {
  const needCaptcha = await captchaRequired(caller);
  return needCaptcha.ok && needCaptcha.data ? sendCodeWithCaptchaSchema : sendCodeSchema;
}

/** Sends a verification code (purpose 1 register, 2 reset) for an accepted send-code form. */
export async function sendCodeAction(
  caller: Caller,
  v: SendCodeForm,
  reply: (options?: { formErrors?: string[] }) => SubmissionResult<string[]>,
  purpose: CodePurpose,
) {
  const params = {
    to: v.account,
    type: purpose,
    area_id: v.type === "mobile" ? v.area_id : undefined,
    captcha_id: v.captcha_id,
    captcha_code: v.captcha_code,
  };
  const r = v.type === "email" ? await sendEmail(caller, params) : await sendSms(caller, params);
  if (!r.ok)
    return data({
      result: reply({ formErrors: [r.msg] }),
      cooldown: 0,
      notice: null as string | null,
    });
  const seconds = Number(r.data?.resend_in) > 0 ? Number(r.data.resend_in) : CODE_RESEND_SECONDS;
  caller.session.set("codeSent", {
    to: v.account,
    at: Date.now() - (CODE_RESEND_SECONDS - seconds) * 1000,
  });
  return data(
    { result: reply(), cooldown: seconds, notice: r.msg as string | null },
    { headers: { "Set-Cookie": await commitSession(caller.session) } },
  );
}

/** What the register and forgot pages need to draw the send-code step. */
async function codeStepState(
  caller: Caller,
): Promise<{ cooldown: number; captcha: Captcha | null; captchaError: string | null }> {
  const sent = caller.session.get("codeSent");
  const cooldown = cooldownLeft(sent?.at);
  const need = await captchaRequired(caller);
  if (!need.ok || !need.data)
    return { cooldown, captcha: null, captchaError: need.ok ? null : need.msg };
  const c = await captcha(caller);
  return { cooldown, captcha: c.ok ? c.data : null, captchaError: c.ok ? null : c.msg };
}

/**
 * What the register and forgot pages load: e-mail or mobile (?type=mobile when the site shows
 * mobile), the area codes for mobile, the send-code countdown and captcha, and a toast when one of
 * those calls failed.
 */
export async function codeFormState(caller: Caller, url: URL) {
  const mobile = await isShowMobile(caller);
  const showMobile = mobile.ok ? mobile.data : false;
  const type: "email" | "mobile" =
    showMobile && url.searchParams.get("type") === "mobile" ? "mobile" : "email";
  const [areas, step] = await Promise.all([
    type === "mobile" ? areaList(caller) : null,
    codeStepState(caller),
  ]);
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

/** The register or forgot form's answer to the upstream's refusal. */
export function codeFormRefused(result: SubmissionResult<string[]>, status: 400 | 403 | 429 = 400) {
  return data({ result, cooldown: null, notice: null }, { status });
}

/** After a register or reset: forget the sent code and go to the login (mobile tab for mobile). */
export async function codeFormDone(
  caller: Caller,
  type: "email" | "mobile",
  text: string,
): Promise<never> {
  caller.session.unset("codeSent");
  throw await redirectWithToast(
    caller.session,
    type === "mobile" ? "/login?type=mobile" : "/login",
    { type: "success", text },
  );
}
