/**
 * Feedback (/feedback, product-spec.md section 2): anyone, signed in or not, leaves a message and an
 * optional way to reach them; operators read it in the console inbox (/operator/feedback). A plain
 * POST form: the same with and without JavaScript.
 */
import type { LinksFunction } from "@remix-run/node";
import { Form, useActionData, useLocation } from "@remix-run/react";
import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { Field, FormErrors, useMessage, usePostIntent } from "~/components/Form";
import { feedbackSchema } from "~/schemas/company";
import companyStyles from "~/styles/company.css";
import type { action } from "./feedback.server";

export { action, loader } from "./feedback.server";

export const handle = { i18n: ["common", "auth", "company"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: companyStyles }];

export default function Feedback() {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("company");
  const msg = useMessage();
  const { busy } = usePostIntent();
  // A sent message redirects back here: the new location's key gives an empty form.
  const location = useLocation();
  const [form, fields] = useForm({
    id: "feedback",
    lastResult: actionData?.result,
    constraint: getZodConstraint(feedbackSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: feedbackSchema }),
  });
  const message = fields.message;
  const messageError = message.errors?.[0];
  return (
    <div className="feedback">
      <PageHeader title={t("feedback_title")} back="/" />
      <Form
        key={location.key}
        method="post"
        {...getFormProps(form)}
        noValidate
        className="card form feedback-form"
      >
        <AuthenticityTokenInput />
        <p className="hint">{t("feedback_intro")}</p>
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className={messageError ? "field has-error" : "field"}>
          <label htmlFor={message.id}>{t("feedback_message")}</label>
          <textarea {...getTextareaProps(message, { ariaAttributes: true })} key={message.key} />
          {messageError ? (
            <p id={message.errorId} className="field-error" data-error-for="message">
              {msg(messageError)}
            </p>
          ) : null}
        </div>
        <Field
          meta={fields.contact}
          label={t("feedback_contact")}
          placeholder={t("feedback_contact_hint")}
          autoComplete="email"
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {t("feedback_send")}
        </button>
      </Form>
    </div>
  );
}
