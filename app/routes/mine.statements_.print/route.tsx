/**
 * The printed statement (login required, a real account's): one page to print on A4 or save as
 * PDF with the browser's print dialog (the page's CSS sets `@page` A4 and hides the screen's
 * controls), in the reader's language and direction, Arabic right to left included: the account,
 * the range in UTC, the balances and lines, then every closed position and every ledger row in
 * tables whose header repeats on each printed page. With JavaScript a button opens the print
 * dialog; without it the page says how.
 */
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import { STATEMENT_LINES, STATEMENT_MAX_DAYS } from "@contract/api/statements-rules";
import { formatDateTime, formatDay, formatExact, formatLotHint, formatPrice } from "~/utils/format";
import statementStyles from "~/styles/statements.css";
import type { loader } from "./print.server";

export { loader } from "./print.server";

export const handle = { i18n: ["common", "statements"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: statementStyles }];

function PrintButton() {
  const { t } = useTranslation("statements");
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return <p className="muted">{t("print_hint")}</p>;
  return (
    <button type="button" className="btn btn-primary" onClick={() => window.print()}>
      {t("print_now")}
    </button>
  );
}

export default function PrintStatement() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("statements");
  const s = d.statement;
  const back = s ? `/mine/statements?from=${s.from}&to=${s.to}` : "/mine/statements";
  const money = (v: string, signed = false) => formatExact(v, d.lang, { signed });
  const errors = Object.values(d.errors as Record<string, string>);
  return (
    <article className="stmt-print" data-testid="statement-print">
      <div className="stmt-print-actions">
        <PrintButton />
        <Link to={back} className="btn btn-outline">
          {t("back_to_statement")}
        </Link>
      </div>
      <h1>{t("print_title")}</h1>
      {errors.length > 0 ? (
        <p className="notice" role="alert">
          {errors.map((e) => t(e, { max: STATEMENT_MAX_DAYS })).join(" ")}
        </p>
      ) : null}
      {d.notice ? (
        <p className="notice" role="status">
          {d.notice}
        </p>
      ) : null}
      {s ? (
        <>
          <p className="stmt-print-meta">
            {t("print_account", {
              name: `\u2068${d.account.name}\u2069`,
              uid: `\u2068${d.account.uid}\u2069`,
            })}
            <br />
            {t("print_period", { from: formatDay(s.from, d.lang), to: formatDay(s.to, d.lang) })}
            <br />
            {t("print_generated", { at: `\u2068${formatDateTime(d.generated, d.lang)}\u2069` })}
          </p>
          <h2>{t("summary_title")}</h2>
          <table className="stmt-lines" data-testid="print-summary">
            <tbody>
              <tr className="stmt-balance">
                <th scope="row">{t("line_opening")}</th>
                <td className="num">{money(s.opening)}</td>
              </tr>
              {STATEMENT_LINES.map((l) => (
                <tr key={l}>
                  <th scope="row">{t(`line_${l}`)}</th>
                  <td className="num">{money(s.lines[l], true)}</td>
                </tr>
              ))}
              <tr className="stmt-balance">
                <th scope="row">{t("line_closing")}</th>
                <td className="num">{money(s.closing)}</td>
              </tr>
            </tbody>
          </table>
          <h2>{t("positions", { count: d.positions.length })}</h2>
          {d.positions.length === 0 ? (
            <p>{t("positions_empty")}</p>
          ) : (
            <table data-testid="print-positions">
              <thead>
                <tr>
                  <th scope="col">{t("csv.closed")}</th>
                  <th scope="col">{t("csv.instrument")}</th>
                  <th scope="col">{t("csv.side")}</th>
                  <th scope="col" className="num">
                    {t("csv.lots")}
                  </th>
                  <th scope="col" className="num">
                    {t("csv.open_price")}
                  </th>
                  <th scope="col" className="num">
                    {t("csv.close_price")}
                  </th>
                  <th scope="col" className="num">
                    {t("csv.fee")}
                  </th>
                  <th scope="col" className="num">
                    {t("csv.net")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.positions.map((p) => (
                  <tr key={p.id}>
                    <td>{formatDateTime(p.closed_at, d.lang)}</td>
                    <td>
                      <bdi>{p.code}</bdi>
                    </td>
                    <td>{t(p.side === 1 ? "side_buy" : "side_sell")}</td>
                    <td className="num">{formatLotHint(p.lots, d.lang)}</td>
                    <td className="num">{formatPrice(p.open_price, p.precision, d.lang)}</td>
                    <td className="num">{formatPrice(p.close_price, p.precision, d.lang)}</td>
                    <td className="num">{money(p.fee)}</td>
                    <td className="num">{money(p.net, true)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>{t("rows", { count: d.rows.length })}</h2>
          {d.rows.length === 0 ? (
            <p>{t("rows_empty")}</p>
          ) : (
            <table data-testid="print-rows">
              <thead>
                <tr>
                  <th scope="col">{t("csv.time")}</th>
                  <th scope="col">{t("csv.description")}</th>
                  <th scope="col" className="num">
                    {t("csv.amount")}
                  </th>
                  <th scope="col" className="num">
                    {t("csv.balance")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.rows.map((r) => (
                  <tr key={r.id}>
                    <td>{formatDateTime(r.at, d.lang)}</td>
                    <td>{r.memo}</td>
                    <td className="num">{money(r.amount, true)}</td>
                    <td className="num">{money(r.balance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </article>
  );
}
