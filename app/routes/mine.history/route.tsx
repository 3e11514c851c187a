/**
 * Account history (login required; product-spec.md section 2, the user card leads here): the
 * account's money now (balance, held for withdrawals under review, available, in USD), then the
 * ledger, newest first, with what each row was, its signed amount, the balance after it and when.
 * Paged by links without JavaScript. With it, the list scrolls on: when the sentinel under the last
 * row comes into view, the next page is fetched through this route's loader (useFetcher) and its
 * rows are appended; the links stay as a fallback and follow the pages loaded.
 */
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { formatBalance, formatFixed, signOf } from "~/utils/format";
import { PRECISION } from "@contract/constants";
import { useAppendingPages } from "~/utils/use-appending-pages";
import type { loader } from "./history.server";

export { loader } from "./history.server";

export const handle = { i18n: ["common", "history"] };

type Page = Awaited<ReturnType<typeof useLoaderData<typeof loader>>>;

export default function History() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("history");
  const { rows, last, sentinel, busy } = useAppendingPages<Page["rows"][number], Page>(
    d,
    (page) => `/mine/history?page=${page}`,
    (next) => (next.notice ? null : next),
  );
  return (
    <div className="history">
      <PageHeader title={t("title")} back="/user" />
      {d.summary ? (
        <dl className="card history-summary" data-testid="history-summary">
          <div>
            <dt>{t("summary_balance")}</dt>
            <dd data-testid="history-balance">{formatBalance(d.summary.balance, d.lang)}</dd>
          </div>
          <div>
            <dt>{t("summary_held")}</dt>
            <dd data-testid="history-held">{formatBalance(d.summary.held, d.lang)}</dd>
          </div>
          <div>
            <dt>{t("summary_available")}</dt>
            <dd data-testid="history-available">{formatBalance(d.summary.available, d.lang)}</dd>
          </div>
        </dl>
      ) : null}
      {d.notice ? (
        <p className="card notice" role="status" data-testid="history-notice">
          {d.notice}
        </p>
      ) : rows.length === 0 ? (
        <p className="card empty" data-testid="history-empty">
          {t("empty")}
        </p>
      ) : (
        <ul className="card ledger" role="list" data-testid="history-list" aria-busy={busy}>
          {rows.map((r) => (
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
      <div ref={sentinel} className="history-sentinel" data-testid="history-sentinel" />
      {d.pages > 1 ? (
        <nav className="pager" aria-label={t("pages")}>
          {d.page > 1 ? (
            <Link to={`?page=${d.page - 1}`} rel="prev" className="btn">
              {t("newer")}
            </Link>
          ) : (
            <span />
          )}
          <span className="muted" data-testid="history-page">
            {d.page === last
              ? t("page_of", { page: last, pages: d.pages })
              : t("pages_of", { from: d.page, to: last, pages: d.pages })}
          </span>
          {last < d.pages ? (
            <Link to={`?page=${last + 1}`} rel="next" className="btn">
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
