/**
 * Real-name verification (login required; product-spec.md section 2 "/mine/auth"): the account's
 * state (not submitted, waiting, certified; after a rejection the operator's remark) and, while it
 * may submit, a real multipart form (name, id number, the front and the back of the id) that works
 * without JavaScript; with it, a preview of each chosen image. After a submission the page comes
 * back with a toast and the waiting state. Demo accounts see the real-account message instead.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import type { LinksFunction } from "@remix-run/node";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { REVIEW_STATUS } from "@contract/enums";
import { CARD_ID_MAX, REAL_NAME_MAX } from "@contract/api/verify-rules";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors, refusalMessages } from "~/components/Form";
import { useFilePreview } from "~/components/use-file-preview";
import verifyStyles from "~/styles/verify.css";
import type { action, loader } from "./auth.server";

export { action, loader } from "./auth.server";

export const handle = { i18n: ["common", "auth", "verify"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: verifyStyles }];

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Center = NonNullable<Data["center"]>;

export default function RealNameAuth() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("verify");
  return (
    <div className="verify">
      <PageHeader title={t("title")} back="/user" />
      {d.notice || !d.center ? (
        <p className="card notice" role="status" data-testid="verify-notice">
          {d.notice}
        </p>
      ) : (
        <>
          <State c={d.center} />
          {d.center.review_status === REVIEW_STATUS.NOT_SUBMITTED ? (
            <VerifyForm />
          ) : (
            // A form posted from a page older than this state (another tab): its refusal.
            <FormErrors errors={refusalMessages(actionData)} />
          )}
        </>
      )}
    </div>
  );
}

function State({ c }: { c: Center }) {
  const { t } = useTranslation("verify");
  const label =
    c.review_status === REVIEW_STATUS.WAITING
      ? t("status_waiting")
      : c.review_status === REVIEW_STATUS.CERTIFIED
        ? t("status_certified")
        : c.remark
          ? t("status_rejected")
          : t("status_none");
  return (
    <section className="card verify-state" aria-labelledby="verify-state-title">
      <h2 id="verify-state-title">{t("state")}</h2>
      <p
        className={`verify-badge s${c.review_status}${c.remark ? " rejected" : ""}`}
        data-testid="verify-status"
        data-status={c.review_status}
      >
        {label}
      </p>
      {c.remark ? (
        <p className="verify-remark" data-testid="verify-remark">
          {t("remark", { remark: c.remark })}
        </p>
      ) : null}
      {c.review_status === REVIEW_STATUS.NOT_SUBMITTED ? (
        <p className="muted">{c.remark ? t("again_hint") : t("intro")}</p>
      ) : (
        <dl className="verify-facts">
          <div>
            <dt>{t("name")}</dt>
            <dd data-testid="verify-name">{c.name}</dd>
          </div>
          <div>
            <dt>{t("card_id")}</dt>
            <dd className="mono" data-testid="verify-card">
              {c.card_id}
            </dd>
          </div>
          {c.submitted_at ? (
            <div>
              <dt>{t("submitted_at")}</dt>
              <dd>
                <time>{c.submitted_at}</time> UTC
              </dd>
            </div>
          ) : null}
          {c.review_status === REVIEW_STATUS.CERTIFIED && c.reviewed_at ? (
            <div>
              <dt>{t("reviewed_at")}</dt>
              <dd>
                <time>{c.reviewed_at}</time> UTC
              </dd>
            </div>
          ) : null}
        </dl>
      )}
    </section>
  );
}

type Refusal = { refusedIntent?: string; result?: { initialValue?: Record<string, unknown> } };

function VerifyForm() {
  const { t } = useTranslation("verify");
  const actionData = useActionData<typeof action>() as Refusal | undefined;
  const posted = actionData?.result?.initialValue ?? {};
  const value = (k: string) => (typeof posted[k] === "string" ? (posted[k] as string) : "");
  return (
    <form
      method="post"
      encType="multipart/form-data"
      className="card form verify-form"
      data-testid="verify-form"
      aria-labelledby="verify-form-title"
    >
      <h2 id="verify-form-title">{t("form_title")}</h2>
      <AuthenticityTokenInput />
      <FormErrors errors={refusalMessages(actionData)} />
      <div className="field">
        <label htmlFor="verify-name">{t("name")}</label>
        <input
          id="verify-name"
          name="name"
          autoComplete="name"
          required
          maxLength={REAL_NAME_MAX}
          defaultValue={value("name")}
        />
      </div>
      <div className="field">
        <label htmlFor="verify-card">{t("card_id")}</label>
        <input
          id="verify-card"
          name="card_id"
          autoComplete="off"
          required
          maxLength={CARD_ID_MAX}
          defaultValue={value("card_id")}
        />
      </div>
      <div className="verify-images">
        <ImageField name="front" label={t("front")} previewLabel={t("front_preview")} />
        <ImageField name="back" label={t("back")} previewLabel={t("back_preview")} />
      </div>
      <p className="hint muted">{t("images_hint")}</p>
      <button type="submit" className="btn btn-primary btn-block">
        {t("submit")}
      </button>
    </form>
  );
}

/** One image of the id: a file input and, with JavaScript, a preview of the chosen file. */
function ImageField({
  name,
  label,
  previewLabel,
}: {
  name: string;
  label: string;
  previewLabel: string;
}) {
  const { preview, inputRef, onFiles } = useFilePreview();
  const id = `verify-${name}`;
  return (
    <div className="field verify-image">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        name={name}
        accept="image/png,image/jpeg,image/webp"
        required
        ref={inputRef}
        onChange={(e) => onFiles(e.target.files)}
      />
      {preview ? (
        <img
          className="verify-preview"
          src={preview}
          alt={previewLabel}
          data-testid={`verify-preview-${name}`}
        />
      ) : null}
    </div>
  );
}
