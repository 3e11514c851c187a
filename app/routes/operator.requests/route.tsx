/**
 * Four-eyes requests (/operator/requests): actions another operator filed for a second pair of eyes
 * (a change to where users send money, a risk or security setting, an adjustment, a deposit credited
 * or a withdrawal paid above what one operator may move alone), by status (pending first), newest
 * first; each with what it changes, whose money it moves (uid, e-mail or mobile, balance now,
 * amount), the requester's note, who asked and when. A pending request another operator filed can be approved (it takes effect then)
 * or rejected, each with a remark, by a role that holds its permission. Plain forms and links.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { REQUEST_STATUS } from "@contract/api/admin-rules";
import { FormErrors } from "~/components/Form";
import { Pager, RemarkForm, StatusTabs, useQueueRefusals, ConsoleList } from "~/components/Console";
import { REQUEST_TABS, useConsoleCan } from "~/utils/console";
import { formatMoney } from "~/utils/format";
import type { action, loader } from "./requests.server";

export { action, loader } from "./requests.server";

export const handle = { i18n: ["common", "auth", "operator"] };

export default function Requests() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  const { errorsFor, orphan } = useQueueRefusals(actionData, d.items);
  return (
    <section aria-labelledby="requests-title">
      <h1 id="requests-title">{t("requests_title")}</h1>
      <p className="muted">{t("requests_intro")}</p>
      <StatusTabs tabs={REQUEST_TABS} current={d.status} label={t("requests_title")} />
      <FormErrors errors={orphan} />
      <ConsoleList notice={d.notice} items={d.items} empty={t("queue_empty")} testId="requests">
        {(r) => (
          <li
            key={r.id}
            className="card console-item"
            data-testid="request"
            data-id={r.id}
            data-kind={r.kind}
          >
            <dl className="console-facts">
              <dt>{t("id")}</dt>
              <dd>#{r.id}</dd>
              <dt>{t("request_kind")}</dt>
              <dd>{t(`request_kind_${r.kind.replace(".", "_")}`)}</dd>
              <dt>{t("target")}</dt>
              <dd className="mono" data-testid="request-target">
                {r.target}
              </dd>
              <dt>{t("request_change")}</dt>
              <dd className="mono" data-testid="request-summary">
                {r.summary}
              </dd>
              {r.subject ? (
                <>
                  <dt>{t("user")}</dt>
                  <dd data-testid="request-user">
                    <span className="mono">{r.subject.uid}</span>{" "}
                    {r.subject.email ?? r.subject.mobile ?? ""}
                  </dd>
                  <dt>{t("request_balance_now")}</dt>
                  <dd data-testid="request-balance">
                    {formatMoney(r.subject.balance, d.lang)} USD
                  </dd>
                  <dt>{t("amount")}</dt>
                  <dd data-testid="request-amount">{formatMoney(r.subject.amount, d.lang)} USD</dd>
                </>
              ) : null}
              {r.note ? (
                <>
                  <dt>{t("request_note")}</dt>
                  <dd data-testid="request-note">{r.note}</dd>
                </>
              ) : null}
              <dt>{t("requested_by")}</dt>
              <dd data-testid="request-by">
                {r.requested_by} {r.requested_at} UTC
              </dd>
              {r.decided_by ? (
                <>
                  <dt>{t("decided_by")}</dt>
                  <dd>
                    {r.decided_by} {r.decided_at} UTC
                  </dd>
                </>
              ) : null}
              {r.remark ? (
                <>
                  <dt>{t("remark")}</dt>
                  <dd data-testid="request-remark">{r.remark}</dd>
                </>
              ) : null}
            </dl>
            {r.status !== REQUEST_STATUS.PENDING ? null : r.requested_by === d.me ? (
              <p className="muted" data-testid="request-own">
                {t("request_own_note")}
              </p>
            ) : may(r.permission) ? (
              <div className="console-actions">
                <RemarkForm
                  intent="approve"
                  id={r.id}
                  button={t("approve")}
                  errors={errorsFor("approve", r.id)}
                />
                <RemarkForm
                  intent="reject"
                  id={r.id}
                  button={t("reject")}
                  errors={errorsFor("reject", r.id)}
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
