/**
 * The account + captcha + verification-code part shared by the register and forgot forms: the
 * send-code notice, the area code (mobile), the e-mail or mobile field, the captcha (when on) and
 * the code field with its send-code button.
 */
import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "~/translation";
import { Field, SelectField, useMessage } from "./Form";
import { areaOptions } from "./AuthTabs";
import { CaptchaField, SendCodeButton } from "./SendCodeButton";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

export function CodeStepFields({
  type,
  areas,
  captcha,
  fields,
  codeField,
  cooldown,
  actionData,
  sending,
}: {
  type: "email" | "mobile";
  areas: { id: number; code: string; global_code: string }[];
  captcha: { id: string; b64s: string } | null;
  fields: { area_id: AnyField; account: AnyField; captcha_code: AnyField };
  /** The code field (sms_code when registering, auth_code when resetting). */
  codeField: AnyField;
  /** The countdown the loader computed. */
  cooldown: number;
  actionData: { cooldown: number | null; notice: string | null } | undefined;
  /** A send-code post is under way. */
  sending: boolean;
}) {
  const { t } = useTranslation("auth");
  const msg = useMessage();
  const seconds =
    typeof actionData?.cooldown === "number" && actionData.cooldown > 0
      ? actionData.cooldown
      : cooldown;
  return (
    <>
      {actionData?.notice ? (
        <p className="form-notice" role="status">
          {actionData.notice}
        </p>
      ) : null}
      {type === "mobile" ? (
        <SelectField meta={fields.area_id} label={t("area_code")} options={areaOptions(areas)} />
      ) : null}
      <Field
        meta={fields.account}
        label={type === "mobile" ? t("mobile") : t("email")}
        type={type === "mobile" ? "tel" : "email"}
        autoComplete={type === "mobile" ? "tel" : "email"}
        placeholder={type === "mobile" ? t("input_mobile") : t("input_email")}
      />
      <CaptchaField
        captcha={captcha}
        error={fields.captcha_code.errors?.[0] ? msg(fields.captcha_code.errors[0]) : undefined}
      />
      <Field
        meta={codeField}
        label={t("code")}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder={t("input_code")}
        after={
          <SendCodeButton
            seconds={seconds}
            busy={sending}
            stamp={actionData?.notice ?? undefined}
          />
        }
      />
    </>
  );
}
