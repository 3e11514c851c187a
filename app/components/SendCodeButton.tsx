import { useEffect, useState } from "react";
import { useTranslation } from "~/translation";

/**
 * The send-code submit button (intent=send_code). `seconds` is the cooldown the server computed:
 * without JavaScript the button renders disabled with the seconds left; with JavaScript it ticks
 * down and enables itself at 0.
 */
export function SendCodeButton({
  seconds,
  busy,
  stamp,
}: {
  seconds: number;
  busy?: boolean;
  stamp?: string | number;
}) {
  const { t } = useTranslation("auth");
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    setLeft(seconds);
    if (seconds <= 0) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const l = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(l);
      if (l <= 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [seconds, stamp]);
  return (
    <button
      type="submit"
      name="intent"
      value="send_code"
      formNoValidate
      className="btn btn-secondary btn-code"
      disabled={left > 0 || busy}
      data-countdown={left}
    >
      {left > 0 ? t("resend_in", { seconds: left }) : busy ? t("sending") : t("send_code")}
    </button>
  );
}

/** The captcha image and answer field of the send-code forms (when register.captcha is on). */
export function CaptchaField({
  captcha,
  error,
}: {
  captcha: { id: string; b64s: string } | null;
  error?: string;
}) {
  const { t } = useTranslation("auth");
  if (!captcha) return null;
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor="captcha_code">{t("captcha")}</label>
      <div className="field-row captcha-row">
        <input type="hidden" name="captcha_id" value={captcha.id} />
        <input
          id="captcha_code"
          name="captcha_code"
          type="text"
          autoComplete="off"
          maxLength={8}
          placeholder={t("input_captcha")}
          aria-invalid={error ? true : undefined}
        />
        <img
          src={captcha.b64s}
          alt={t("captcha_alt")}
          width={120}
          height={40}
          className="captcha-img"
        />
      </div>
      {error ? (
        <p className="field-error" data-error-for="captcha_code">
          {error}
        </p>
      ) : null}
    </div>
  );
}
