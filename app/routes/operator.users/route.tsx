/**
 * User lookup (/operator/users?q=): by uid, e-mail or phone, each user with balance, lock_balance
 * and equity; the chosen user's ledger (?uid=, paged, newest first) and an adjustment form (signed
 * amount and remark; the upstream never takes a balance below zero). Plain forms and links.
 */
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { IDEMPOTENCY_FIELD } from "@contract/constants";
import { useConsoleCan } from "~/utils/console";
import { FormErrors, Hidden, refusalMessages } from "~/components/Form";
import { Pager } from "~/components/Console";
import { formatMoney, signOf } from "~/utils/format";
import type { action, loader } from "./users.server";

export { action, loader } from "./users.server";

export const handle = { i18n: ["common", "auth", "operator"] };

export default function Users() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const actionData = useActionData<typeof action>();
  /** A refusal's messages, on the form that was refused only. */
  const refusedFor = (intent: string) =>
    actionData && "refusedIntent" in actionData && actionData.refusedIntent === intent
      ? refusalMessages(actionData)
      : undefined;
  const { t } = useTranslation("operator");
  const qs = (extra: Record<string, string>) =>
    new URLSearchParams({ ...(d.q ? { q: d.q } : {}), ...extra }).toString();
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">{t("users_title")}</h1>
      <Form method="get" className="card form console-search" role="search">
        <div className="field">
          <label htmlFor="users-q">{t("search_label")}</label>
          <input id="users-q" name="q" type="search" defaultValue={d.q} maxLength={128} />
        </div>
        <button type="submit" className="btn btn-primary">
          {t("search")}
        </button>
      </Form>
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      {d.users.length === 0 ? (
        <p className="card empty" data-testid="users-empty">
          {t("no_users")}
        </p>
      ) : (
        <div
          className="card console-table-wrap"
          tabIndex={0}
          role="region"
          aria-label={t("users_title")}
        >
          <table className="console-table" data-testid="users">
            <thead>
              <tr>
                <th scope="col">{t("uid")}</th>
                <th scope="col">{t("contact")}</th>
                <th scope="col">{t("balance")}</th>
                <th scope="col">{t("lock_balance")}</th>
                <th scope="col">{t("equity")}</th>
                <th scope="col">{t("ledger")}</th>
              </tr>
            </thead>
            <tbody>
              {d.users.map((u) => (
                <tr key={u.id} data-testid="user" data-uid={u.uid}>
                  <td className="mono">
                    {u.uid}
                    {u.is_demo ? <span className="muted"> ({t("demo")})</span> : null}
                  </td>
                  <td>{u.email ?? u.mobile ?? ""}</td>
                  <td data-testid="user-balance">{formatMoney(u.balance, d.lang)}</td>
                  <td>{formatMoney(u.lock_balance, d.lang)}</td>
                  <td>{formatMoney(u.equity, d.lang)}</td>
                  <td>
                    <Link to={`?${qs({ uid: u.uid })}`}>{t("show_ledger")}</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {d.uid ? (
        <section className="card" aria-labelledby="ledger-title" data-testid="user-ledger">
          <h2 id="ledger-title">{t("ledger_of", { uid: d.uid })}</h2>
          {d.ledger && d.ledger.rows.length > 0 ? (
            <ul className="ledger" role="list">
              {d.ledger.rows.map((r) => (
                <li key={r.id} className="ledger-row" data-testid="ledger-row" data-kind={r.kind}>
                  <div className="ledger-main">
                    <span className="ledger-memo">{r.kind_name}</span>
                    <span className={`ledger-value ${signOf(r.amount)}`}>
                      {formatMoney(r.amount, d.lang)}
                    </span>
                  </div>
                  <div className="ledger-sub">
                    <time className="muted">{r.created_at} UTC</time>
                    <span className="muted">
                      {t("balance_after", { value: formatMoney(r.balance_after, d.lang) })}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">{t("ledger_empty")}</p>
          )}
          {d.ledger ? (
            <Pager page={d.page} pages={d.ledger.pages} query={qs({ uid: d.uid })} />
          ) : null}
          {may("money") ? (
            <Form method="post" className="form" data-testid="adjust-form">
              <h3>{t("adjust_title")}</h3>
              <AuthenticityTokenInput />
              <Hidden name="intent" value="adjust" />
              <Hidden name="uid" value={d.uid} />
              <Hidden name={IDEMPOTENCY_FIELD} value={d.idempotencyKey} />
              <FormErrors errors={refusedFor("adjust")} />
              <div className="field">
                <label htmlFor="adjust-amount">{t("adjust_amount")}</label>
                <input
                  id="adjust-amount"
                  name="amount"
                  required
                  inputMode="decimal"
                  maxLength={32}
                  autoComplete="off"
                />
              </div>
              <div className="field">
                <label htmlFor="adjust-remark">{t("remark")}</label>
                <input
                  id="adjust-remark"
                  name="remark"
                  required
                  maxLength={500}
                  autoComplete="off"
                />
              </div>
              <button type="submit" className="btn btn-primary">
                {t("adjust")}
              </button>
            </Form>
          ) : null}
          {may("support") ? (
            <Form method="post" className="form" data-testid="two-factor-reset-form">
              <h3>{t("two_factor_reset_title")}</h3>
              <p className="muted">{t("two_factor_reset_explain")}</p>
              <AuthenticityTokenInput />
              <Hidden name="intent" value="reset_two_factor" />
              <FormErrors errors={refusedFor("reset_two_factor")} />
              <Hidden name="uid" value={d.uid} />
              <div className="field">
                <label htmlFor="two-factor-reset-remark">{t("two_factor_reset_remark")}</label>
                <input
                  id="two-factor-reset-remark"
                  name="remark"
                  required
                  maxLength={500}
                  autoComplete="off"
                />
              </div>
              <button type="submit" className="btn btn-danger">
                {t("two_factor_reset")}
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}
    </section>
  );
}
