/**
 * The feedback inbox (/operator/feedback): messages from /feedback, newest first, paged by links,
 * each with the sender's uid (when signed in), contact and language, and a form that marks it
 * handled (audited). Plain forms: they work without JavaScript.
 */
import {
  data,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { z } from "zod";
import { PAGE_SIZE } from "@contract/constants";
import { Pager } from "~/components/Console";
import { FormErrors, Hidden, refusalMessages } from "~/components/Form";
import { feedbackInbox, handleFeedback } from "~/upstream/company.server";
import { operatorRedirect, requireOperator } from "~/utils/operator-session.server";
import { pageParam, useConsoleCan } from "~/utils/console";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { getT } from "~/i18n.server";
import companyStyles from "~/styles/company.css";

export const handle = { i18n: ["common", "auth", "operator", "company"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: companyStyles }];

const handledSchema = z.object({
  intent: z.literal("handled"),
  id: z.number().int().positive(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  const page = pageParam(new URL(request.url));
  const r = await feedbackInbox({ request, op }, page);
  const list = r.ok ? r.data : { data: [], total: 0 };
  return data(
    {
      page,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      rows: list.data,
      notice: r.ok ? null : r.msg,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, handledSchema);
  if (!form.ok) return refused(form);
  const r = await handleFeedback({ request, op }, form.value.id);
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  const t = await getT(request, ["company"]);
  const url = new URL(request.url);
  return operatorRedirect(op, `/operator/feedback${url.search}`, {
    type: "success",
    text: t("company:handled_done", { id: r.data.id }),
  });
}

export default function FeedbackInbox() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const errors = refusalMessages(useActionData<typeof action>());
  const { t } = useTranslation("company");
  return (
    <section aria-labelledby="feedback-title">
      <h1 id="feedback-title">{t("inbox_title")}</h1>
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      <FormErrors errors={errors} />
      {d.rows.length === 0 ? (
        <p className="card empty">{t("inbox_empty")}</p>
      ) : (
        <ul className="console-list" role="list" data-testid="feedback-list">
          {d.rows.map((f) => (
            <li
              key={f.id}
              className="card"
              data-testid="feedback"
              data-id={f.id}
              data-handled={f.handled}
            >
              <h2 className="console-entry-title" id={`feedback-${f.id}-title`}>
                #{f.id} · {f.created_at} · {f.uid ?? t("inbox_guest")}{" "}
                {f.handled ? (
                  <span className="badge" data-testid="handled-mark">
                    {t("handled_mark")}
                  </span>
                ) : null}
              </h2>
              <p className="feedback-message">{f.message}</p>
              <p className="muted">
                {t("feedback_contact")}: {f.contact || "—"} · {f.lang}
                {f.handled_by ? ` · ${t("handled_by", { name: f.handled_by })}` : ""}
              </p>
              {f.handled || !may("support") ? null : (
                <Form method="post" aria-labelledby={`feedback-${f.id}-title`}>
                  <AuthenticityTokenInput />
                  <Hidden name="intent" value="handled" />
                  <Hidden name="id" value={f.id} />
                  <button type="submit" className="btn btn-small btn-primary">
                    {t("mark_handled")}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager page={d.page} pages={d.pages} query="" />
    </section>
  );
}
