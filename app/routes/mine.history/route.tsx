/**
 * Account history (login required; product-spec.md section 2, the user card leads here): the
 * ledger, newest first, with what each row was, its signed amount, the balance after it and when.
 * Paged by links, so it works the same with and without JavaScript.
 */
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/PageHeader";
import { formatBalance, formatFixed, signOf } from "~/utils/format";
import { PRECISION } from "@contract/constants";
import type { loader } from "./history.server";

export { loader } from "./history.server";

export const handle = { i18n: ["common", "history"] };

export default function History() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("history");
  return (
    <div className="history">
      <PageHeader title={t("title")} back="/user" />
      {d.notice ? (
        <p className="card notice" role="status" data-testid="history-notice">
          {d.notice}
        </p>
      ) : d.rows.length === 0 ? (
        <p className="card empty" data-testid="history-empty">
          {t("empty")}
        </p>
      ) : (
        <ul className="card ledger" role="list" data-testid="history-list">
          {d.rows.map((r) => (
            <li key={r.id} className="ledger-row" data-testid="history-row" data-kind={r.kind}>
              <div className="ledger-main">
                <span className="ledger-memo">{r.memo}</span>
                <span className={`ledger-value ${signOf(r.value)}`}>
                  {formatFixed(r.value, PRECISION.balance, d.lang, { signed: true })}
                </span>
              </div>
              <div className="ledger-sub">
                <time className="muted">{r.at}</time>
                <span className="muted">
                  {t("balance_after", { balance: formatBalance(r.balance, d.lang) })}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {d.pages > 1 ? (
        <nav className="pager" aria-label={t("pages")}>
          {d.page > 1 ? (
            <Link to={`?page=${d.page - 1}`} rel="prev" className="btn">
              {t("newer")}
            </Link>
          ) : (
            <span />
          )}
          <span className="muted">{t("page_of", { page: d.page, pages: d.pages })}</span>
          {d.page < d.pages ? (
            <Link to={`?page=${d.page + 1}`} rel="next" className="btn">
              {t("older")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}
