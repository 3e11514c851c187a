/**
 * The withdrawal queue (/operator/draws): withdrawals by status (the contract's WITHDRAW_STATUS),
 * paged, oldest first, with the destination; while under review, approve (paid) or reject with a
 * remark the user sees (the amount returns to the balance). Plain forms and links.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { WITHDRAW_STATUS } from "@contract/enums";
import { FormErrors, Hidden } from "~/components/Form";
import {
  ApprovalNoteField,
  Pager,
  RemarkForm,
  StatusTabs,
  useQueueRefusals,
  ConsoleList,
} from "~/components/Console";
import { DRAW_TABS, useConsoleCan } from "~/utils/console";
import { formatMoney } from "~/utils/format";
import type { action, loader } from "./draws.server";

export { action, loader } from "./draws.server";

export const handle = { i18n: ["common", "auth", "operator"] };

export default function Draws() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  const { errorsFor, orphan } = useQueueRefusals(actionData, d.items);
  return (
    <section aria-labelledby="draws-title">
      <h1 id="draws-title">{t("draws_title")}</h1>
      <StatusTabs tabs={DRAW_TABS} current={d.status} label={t("draws_title")} />
      <FormErrors errors={orphan} />
      <ConsoleList notice={d.notice} items={d.items} empty={t("queue_empty")} testId="draws">
        {(w) => (
          <li key={w.id} className="card console-item" data-testid="draw" data-id={w.id}>
            <dl className="console-facts">
              <dt>{t("id")}</dt>
              <dd>#{w.id}</dd>
              <dt>{t("user")}</dt>
              <dd>
                <span className="mono">{w.user.uid}</span> {w.user.email ?? w.user.mobile ?? ""}
              </dd>
              <dt>{t("amount")}</dt>
              <dd>{formatMoney(w.number, d.lang)} USD</dd>
              <dt>{t("fee")}</dt>
              <dd>{formatMoney(w.fee, d.lang)} USD</dd>
              <dt>{t("payout")}</dt>
              <dd>
                {w.real_number} {w.currency.code} ({w.currency.protocol})
              </dd>
              <dt>{t("destination")}</dt>
              <dd className="mono">
                {w.address ??
                  [w.bank_name, w.payee_name, w.payee_account].filter(Boolean).join(" · ")}
              </dd>
              {w.notes ? (
                <>
                  <dt>{t("notes")}</dt>
                  <dd>{w.notes}</dd>
                </>
              ) : null}
              <dt>{t("created_at")}</dt>
              <dd>{w.created_at} UTC</dd>
              {w.remark ? (
                <>
                  <dt>{t("remark")}</dt>
                  <dd data-testid="draw-remark">{w.remark}</dd>
                </>
              ) : null}
              {w.decided_by ? (
                <>
                  <dt>{t("decided_by")}</dt>
                  <dd>
                    {w.decided_by} {w.decided_at} UTC
                  </dd>
                </>
              ) : null}
            </dl>
            {w.status === WITHDRAW_STATUS.REVIEWING && may("money") ? (
              <div className="console-actions">
                <Form method="post" className="form console-action" data-testid="approve-form">
                  <AuthenticityTokenInput />
                  <Hidden name="intent" value="approve" />
                  <Hidden name="id" value={w.id} />
                  <FormErrors errors={errorsFor("approve", w.id)} />
                  <ApprovalNoteField id={w.id} />
                  <button type="submit" className="btn btn-primary">
                    {t("mark_paid")}
                  </button>
                </Form>
                <RemarkForm
                  intent="reject"
                  id={w.id}
                  button={t("reject")}
                  errors={errorsFor("reject", w.id)}
                  danger
                />
              </div>
            ) : null}
          </li>
        )}
      </ConsoleList>
      <Pager page={d.page} pages={d.pages} query={`status=${d.status}`} />
    </section>
  );
}
