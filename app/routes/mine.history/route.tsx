/**
 * Account history (login required; product-spec.md section 2, the user card leads here): the
 * ledger, newest first, with what each row was, its signed amount, the balance after it and when.
 * Paged by links without JavaScript. With it, the list scrolls on: when the sentinel under the last
 * row comes into view, the next page is fetched through this route's loader (useFetcher) and its
 * rows are appended; the links stay as a fallback and follow the pages loaded.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/PageHeader";
import { formatBalance, formatFixed, signOf } from "~/utils/format";
import { PRECISION } from "@contract/constants";
import type { loader } from "./history.server";

export { loader } from "./history.server";

export const handle = { i18n: ["common", "history"] };

type Page = Awaited<ReturnType<typeof useLoaderData<typeof loader>>>;

export default function History() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("history");
  const fetcher = useFetcher<typeof loader>();
  // The rows shown and the last page they reach: the loader's page, then each appended one.
  const [loaded, setLoaded] = useState<{ rows: Page["rows"]; last: number }>({
    rows: d.rows,
    last: d.page,
  });
  useEffect(() => setLoaded({ rows: d.rows, last: d.page }), [d]);
  useEffect(() => {
    const next = fetcher.data;
    if (!next || next.notice) return;
    setLoaded((cur) => {
      if (next.page !== cur.last + 1) return cur;
      const seen = new Set(cur.rows.map((r) => r.id));
      return { rows: [...cur.rows, ...next.rows.filter((r) => !seen.has(r.id))], last: next.page };
    });
  }, [fetcher.data]);

  // Fetch the next page when the sentinel under the list comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const state = useRef({ last: loaded.last, pages: d.pages, idle: fetcher.state === "idle" });
  state.current = { last: loaded.last, pages: d.pages, idle: fetcher.state === "idle" };
  const { load } = fetcher;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      const s = state.current;
      if (entries.some((e) => e.isIntersecting) && s.idle && s.last < s.pages)
        load(`/mine/history?page=${s.last + 1}`);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [load, loaded.last]);

  const last = loaded.last;
  return (
    <div className="history">
      <PageHeader title={t("title")} back="/user" />
      {d.notice ? (
        <p className="card notice" role="status" data-testid="history-notice">
          {d.notice}
        </p>
      ) : loaded.rows.length === 0 ? (
        <p className="card empty" data-testid="history-empty">
          {t("empty")}
        </p>
      ) : (
        <ul
          className="card ledger"
          role="list"
          data-testid="history-list"
          aria-busy={fetcher.state !== "idle"}
        >
          {loaded.rows.map((r) => (
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
