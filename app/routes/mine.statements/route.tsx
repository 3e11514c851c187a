/**
 * Statements (login required, a real account's): any range of days in UTC (this month, last month
 * and this year one tap away), its opening balance, its movements by line (deposits, withdrawals,
 * realised profit, fees, adjustments, copy moves) and its closing balance, exact to the
 * micro-dollar; then every position closed in it and every ledger row of it, each list paged by
 * links. The statement downloads as two CSV files (positions, ledger rows) and opens as a page to
 * print or save as PDF. A GET form: it works without JavaScript, and the range is in the address.
 */
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import { STATEMENT_LINES, STATEMENT_MAX_DAYS } from "@contract/api/statements-rules";
import type { StatementPosition, StatementRow } from "@contract/api/statements";
import { PageHeader } from "~/components/PageHeader";
import { Pager } from "~/components/Pager";
import {
  formatDateTime,
  formatDay,
  formatExact,
  formatLotHint,
  formatPrice,
  signOf,
} from "~/utils/format";
import accountStyles from "~/styles/account.css";
import statementStyles from "~/styles/statements.css";
import type { loader } from "./statements.server";

export { loader } from "./statements.server";

export const handle = { i18n: ["common", "statements"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: statementStyles },
];

/** The address of this page with one query parameter changed (the others kept). */
function withParam(search: string, name: string, value: string | number): string {
  const q = new URLSearchParams(search);
  q.set(name, String(value));
  return `?${q.toString()}`;
}

export default function Statements() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("statements");
  const { search } = useLocation();
  /** A field's refusal (a "statements:" key), with the longest span it may name. */
  const refusal = (key: string) => t(key, { max: STATEMENT_MAX_DAYS });
  const range = `from=${d.values.from}&to=${d.values.to}`;
  const s = d.statement;
  return (
    <div className="account statements">
      <PageHeader title={t("title")} back="/user" />
      <section className="card" aria-labelledby="stmt-range">
        <h2 id="stmt-range" className="account-section-title">
          {t("range")}
        </h2>
        <nav className="stmt-presets" aria-label={t("presets")}>
          {d.presets.map((p) => (
            <Link
              key={p.preset}
              to={`?preset=${p.preset}`}
              className={d.preset === p.preset ? "chip active" : "chip"}
              aria-current={d.preset === p.preset ? "true" : undefined}
              data-testid={`preset-${p.preset}`}
            >
              {t(`preset_${p.preset}`)}
            </Link>
          ))}
        </nav>
        <Form method="get" className="form stmt-range-form" id="statement-range" noValidate>
          {(["from", "to"] as const).map((f) => (
            <div key={f} className={d.errors[f] ? "field has-error" : "field"}>
              <label htmlFor={`stmt-${f}`}>{t(f)}</label>
              <input
                id={`stmt-${f}`}
                name={f}
                type="date"
                defaultValue={d.values[f]}
                aria-invalid={d.errors[f] ? true : undefined}
                aria-describedby={d.errors[f] ? `stmt-${f}-error` : undefined}
                required
              />
              {d.errors[f] ? (
                <p id={`stmt-${f}-error`} className="field-error" data-error-for={f}>
                  {refusal(d.errors[f])}
                </p>
              ) : null}
            </div>
          ))}
          <button type="submit" className="btn btn-primary btn-block">
            {t("show")}
          </button>
        </Form>
        <p className="account-explain">{t("utc", { max: STATEMENT_MAX_DAYS })}</p>
      </section>
      {d.notice ? (
        <p className="card notice" role="status" data-testid="statement-notice">
          {d.notice}
        </p>
      ) : null}
      {s ? (
        <>
          <section className="card" aria-labelledby="stmt-summary">
            <h2 id="stmt-summary" className="account-section-title">
              {t("summary", { from: formatDay(s.from, d.lang), to: formatDay(s.to, d.lang) })}
            </h2>
            <table className="stmt-lines" data-testid="statement-summary">
              <tbody>
                <SummaryRow
                  name="opening"
                  label={t("line_opening")}
                  value={s.opening}
                  lang={d.lang}
                  strong
                />
                {STATEMENT_LINES.map((l) => (
                  <SummaryRow
                    key={l}
                    name={l}
                    label={t(`line_${l}`)}
                    value={s.lines[l]}
                    lang={d.lang}
                    signed
                  />
                ))}
                <SummaryRow
                  name="closing"
                  label={t("line_closing")}
                  value={s.closing}
                  lang={d.lang}
                  strong
                />
              </tbody>
            </table>
            <ul className="stmt-downloads" role="list">
              <li>
                <a
                  href={`/mine/statements/positions.csv?${range}`}
                  download
                  className="btn btn-outline btn-block"
                  data-testid="csv-positions"
                >
                  {t("csv_positions")}
                </a>
              </li>
              <li>
                <a
                  href={`/mine/statements/ledger.csv?${range}`}
                  download
                  className="btn btn-outline btn-block"
                  data-testid="csv-ledger"
                >
                  {t("csv_ledger")}
                </a>
              </li>
              <li>
                <Link
                  to={`/mine/statements/print?${range}`}
                  className="btn btn-outline btn-block"
                  data-testid="print-link"
                >
                  {t("print")}
                </Link>
              </li>
            </ul>
          </section>
          <section className="card" aria-labelledby="stmt-positions">
            <h2 id="stmt-positions" className="account-section-title">
              {t("positions", { count: d.positions?.total ?? 0 })}
            </h2>
            {d.positions && d.positions.items.length > 0 ? (
              <ul className="ledger stmt-list" role="list" data-testid="statement-positions">
                {d.positions.items.map((p) => (
                  <PositionItem key={p.id} p={p} lang={d.lang} />
                ))}
              </ul>
            ) : (
              <p className="empty">{t("positions_empty")}</p>
            )}
            {d.positions ? (
              <Pager
                page={d.positions.page}
                pages={d.positions.pages}
                href={(page) => withParam(search, "positions_page", page)}
                labels={{
                  nav: t("positions_pages"),
                  prev: t("earlier"),
                  next: t("later"),
                  pageOf: t("page_of", { page: d.positions.page, pages: d.positions.pages }),
                }}
                testId="positions-page"
              />
            ) : null}
          </section>
          <section className="card" aria-labelledby="stmt-rows">
            <h2 id="stmt-rows" className="account-section-title">
              {t("rows", { count: d.rows?.total ?? 0 })}
            </h2>
            {d.rows && d.rows.items.length > 0 ? (
              <ul className="ledger stmt-list" role="list" data-testid="statement-rows">
                {d.rows.items.map((r) => (
                  <RowItem key={r.id} r={r} lang={d.lang} />
                ))}
              </ul>
            ) : (
              <p className="empty">{t("rows_empty")}</p>
            )}
            {d.rows ? (
              <Pager
                page={d.rows.page}
                pages={d.rows.pages}
                href={(page) => withParam(search, "rows_page", page)}
                labels={{
                  nav: t("rows_pages"),
                  prev: t("earlier"),
                  next: t("later"),
                  pageOf: t("page_of", { page: d.rows.page, pages: d.rows.pages }),
                }}
                testId="rows-page"
              />
            ) : null}
          </section>
        </>
      ) : null}
    </div>
  );
}

function SummaryRow({
  name,
  label,
  value,
  lang,
  strong,
  signed,
}: {
  name: string;
  label: string;
  value: string;
  lang: string;
  strong?: boolean;
  signed?: boolean;
}) {
  return (
    <tr className={strong ? "stmt-balance" : undefined} data-line={name}>
      <th scope="row">{label}</th>
      <td className={`num ${signed ? signOf(value) : ""}`} data-testid={`line-${name}`}>
        {formatExact(value, lang, { signed })}
      </td>
    </tr>
  );
}

function PositionItem({ p, lang }: { p: StatementPosition; lang: string }) {
  const { t } = useTranslation("statements");
  return (
    <li className="ledger-row" data-testid="statement-position" data-id={p.id}>
      <div className="ledger-main">
        <span>
          <bdi>{p.code}</bdi> · {t(p.side === 1 ? "side_buy" : "side_sell")}{" "}
          <bdi>{formatLotHint(p.lots, lang)}</bdi>
        </span>
        <span className={`ledger-value ${signOf(p.net)}`}>
          {formatExact(p.net, lang, { signed: true })}
        </span>
      </div>
      <div className="ledger-sub">
        <span className="muted">
          <bdi>
            {formatPrice(p.open_price, p.precision, lang)} →{" "}
            {formatPrice(p.close_price, p.precision, lang)}
          </bdi>
          {p.reason ? ` · ${t(`reason_${p.reason}`)}` : ""}
        </span>
        <time className="muted" dateTime={`${p.closed_at.replace(" ", "T")}Z`}>
          {formatDateTime(p.closed_at, lang)}
        </time>
      </div>
    </li>
  );
}

function RowItem({ r, lang }: { r: StatementRow; lang: string }) {
  const { t } = useTranslation("statements");
  return (
    <li className="ledger-row" data-testid="statement-row" data-kind={r.kind} data-line={r.line}>
      <div className="ledger-main">
        <span className="ledger-memo">{r.memo}</span>
        <span className={`ledger-value ${signOf(r.amount)}`}>
          {formatExact(r.amount, lang, { signed: true })}
        </span>
      </div>
      <div className="ledger-sub">
        <time className="muted" dateTime={`${r.at.replace(" ", "T")}Z`}>
          {formatDateTime(r.at, lang)}
        </time>
        <span className="muted">
          {t("balance_after", { balance: formatExact(r.balance, lang) })}
        </span>
      </div>
    </li>
  );
}
