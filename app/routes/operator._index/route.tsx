/**
 * The deposit queue (/operator): deposits by status (the contract's CHARGE_STATUS), paged, oldest
 * first; each with its user, amount, currency, address and proof image, and, while unchecked, the
 * approve (with the amount actually received, optional), reject and invalid forms. Plain forms and
 * links: the same without JavaScript.
 */
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { CHARGE_STATUS } from "@contract/enums";
import { FormErrors, Hidden } from "~/components/Form";
import {
  ApprovalNoteField,
  Pager,
  RemarkForm,
  StatusTabs,
  useQueueRefusals,
  ConsoleList,
} from "~/components/Console";
import { CHARGE_TABS, useConsoleCan } from "~/utils/console";
import { formatMoney } from "~/utils/format";
import type { action, loader } from "./charges.server";

export { action, loader } from "./charges.server";

export const handle = { i18n: ["common", "auth", "operator"] };

export default function Charges() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  const { errorsFor, orphan } = useQueueRefusals(actionData, d.items);
  return (
    <section aria-labelledby="charges-title">
      <h1 id="charges-title">{t("charges_title")}</h1>
      {d.noDepositChannel ? (
        <div className="card notice" role="status" data-testid="first-step">
          <h2>{t("first_step_title")}</h2>
          <p>{t("first_step_deposit")}</p>
          <p>
            <Link to="/operator/channels">{t("nav_channels")}</Link>
            {" · "}
            <Link to="/operator/wire-accounts">{t("nav_wire_accounts")}</Link>
          </p>
        </div>
      ) : null}
      <StatusTabs tabs={CHARGE_TABS} current={d.status} label={t("charges_title")} />
      <FormErrors errors={orphan} />
      <ConsoleList notice={d.notice} items={d.items} empty={t("queue_empty")} testId="charges">
        {(c) => (
          <li key={c.id} className="card console-item" data-testid="charge" data-id={c.id}>
            <div className="console-item-main">
              <dl className="console-facts">
                <dt>{t("id")}</dt>
                <dd>#{c.id}</dd>
                <dt>{t("user")}</dt>
                <dd>
                  <span className="mono">{c.user.uid}</span> {c.user.email ?? c.user.mobile ?? ""}
                </dd>
                <dt>{t("amount")}</dt>
                <dd data-testid="charge-amount">{formatMoney(c.number, d.lang)} USD</dd>
                {c.credited !== null ? (
                  <>
                    <dt>{t("credited")}</dt>
                    <dd>{formatMoney(c.credited, d.lang)} USD</dd>
                  </>
                ) : null}
                <dt>{t("currency")}</dt>
                <dd>{c.currency_code}</dd>
                {c.address ? (
                  <>
                    <dt>{t("address")}</dt>
                    <dd className="mono">{c.address}</dd>
                  </>
                ) : null}
                <dt>{t("created_at")}</dt>
                <dd>{c.created_at} UTC</dd>
                {c.remark ? (
                  <>
                    <dt>{t("remark")}</dt>
                    <dd>{c.remark}</dd>
                  </>
                ) : null}
                {c.decided_by ? (
                  <>
                    <dt>{t("decided_by")}</dt>
                    <dd>
                      {c.decided_by} {c.decided_at} UTC
                    </dd>
                  </>
                ) : null}
              </dl>
              <a href={c.proof} target="_blank" rel="noreferrer" className="console-proof">
                <img src={c.proof} alt={t("proof_alt", { id: c.id })} loading="lazy" />
              </a>
            </div>
            {c.status === CHARGE_STATUS.UNCHECKED && may("money") ? (
              <div className="console-actions">
                <Form method="post" className="form console-action" data-testid="approve-form">
                  <AuthenticityTokenInput />
                  <Hidden name="intent" value="approve" />
                  <Hidden name="id" value={c.id} />
                  <FormErrors errors={errorsFor("approve", c.id)} />
                  <div className="field">
                    <label htmlFor={`approve-${c.id}-amount`}>{t("received")}</label>
                    <input
                      id={`approve-${c.id}-amount`}
                      name="amount"
                      inputMode="decimal"
                      maxLength={32}
                      autoComplete="off"
                      placeholder={String(c.number)}
                    />
                  </div>
                  <ApprovalNoteField id={c.id} />
                  <button type="submit" className="btn btn-primary">
                    {t("approve")}
                  </button>
                </Form>
                <RemarkForm
                  intent="reject"
                  id={c.id}
                  button={t("reject")}
                  errors={errorsFor("reject", c.id)}
                  danger
                />
                <RemarkForm
                  intent="invalid"
                  id={c.id}
                  button={t("mark_invalid")}
                  errors={errorsFor("invalid", c.id)}
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
