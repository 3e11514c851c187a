/**
 * Own statistics (login required): how the account's trading went, from every position it closed
 * (net = profit − fee, as the ranking counts it): profit by month as bars drawn on the server with
 * the same figures in a table, win rate, average and largest win and loss, the largest fall of its
 * running result (maximum drawdown), the average holding time, and its trades by instrument. The
 * real account's and the demo account's statistics are each their own: the page shows the
 * account signed in to and says which. Plain HTML and SVG: nothing needs JavaScript.
 */
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import { PageHeader } from "~/components/PageHeader";
import { MonthlyBars } from "~/components/MonthlyBars";
import { dirOf } from "~/i18n";
import { formatDuration, formatExact, formatPercent, localeOf, signOf } from "~/utils/format";
import accountStyles from "~/styles/account.css";
import statementStyles from "~/styles/statements.css";
import type { loader } from "./stats.server";

export { loader } from "./stats.server";

export const handle = { i18n: ["common", "stats"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: statementStyles },
];

/** A month "YYYY-MM" by its short name and year, in the reader's language (UTC). */
function monthLabel(month: string, lang: string, withYear: boolean): string {
  const [y, m] = month.split("-").map(Number);
  return new Intl.DateTimeFormat(localeOf(lang), {
    month: "short",
    ...(withYear ? { year: "numeric" } : {}),
    timeZone: "UTC",
    numberingSystem: "latn",
  }).format(Date.UTC(y, m - 1, 1));
}

export default function Stats() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("stats");
  const s = d.stats;
  const money = (v: string, signed = false) => formatExact(v, d.lang, { signed });
  return (
    <div className="account stats">
      <PageHeader title={t("title")} back="/user" />
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      {s ? (
        <>
          <section className="card" aria-labelledby="stats-figures">
            <h2 id="stats-figures" className="account-section-title">
              {t("figures")}
            </h2>
            <p className="stats-account" data-testid="stats-account" data-account={s.account}>
              {t(`account_${s.account}`)}
            </p>
            <p className="account-explain">{t(`account_${s.account}_explain`)}</p>
            {s.figures.trades === 0 ? (
              <p className="empty" data-testid="stats-empty">
                {t("empty")}
              </p>
            ) : (
              <dl className="stats-figures" data-testid="stats-figures">
                <Figure name="trades" label={t("trades")} value={String(s.figures.trades)} />
                <Figure
                  name="win_rate"
                  label={t("win_rate")}
                  value={formatPercent(s.figures.win_rate, d.lang)}
                  hint={t("wins_losses", { wins: s.figures.wins, losses: s.figures.losses })}
                />
                <Figure
                  name="net_profit"
                  label={t("net_profit")}
                  value={money(s.figures.net_profit, true)}
                  sign={signOf(s.figures.net_profit)}
                />
                <Figure
                  name="max_drawdown"
                  label={t("max_drawdown")}
                  value={money(s.max_drawdown)}
                />
                <Figure
                  name="average_win"
                  label={t("average_win")}
                  value={money(s.figures.average_win, true)}
                  sign={signOf(s.figures.average_win)}
                />
                <Figure
                  name="average_loss"
                  label={t("average_loss")}
                  value={money(s.figures.average_loss, true)}
                  sign={signOf(s.figures.average_loss)}
                />
                <Figure
                  name="largest_win"
                  label={t("largest_win")}
                  value={money(s.figures.largest_win, true)}
                  sign={signOf(s.figures.largest_win)}
                />
                <Figure
                  name="largest_loss"
                  label={t("largest_loss")}
                  value={money(s.figures.largest_loss, true)}
                  sign={signOf(s.figures.largest_loss)}
                />
                <Figure
                  name="average_holding"
                  label={t("average_holding")}
                  value={formatDuration(s.figures.average_holding_s, d.lang)}
                />
              </dl>
            )}
            <p className="account-explain">{t("definitions")}</p>
          </section>
          <section className="card" aria-labelledby="stats-months">
            <h2 id="stats-months" className="account-section-title">
              {t("by_month")}
            </h2>
            <MonthlyBars
              bars={s.months.map((m) => ({ month: m.month, net: Number(m.net) }))}
              labels={s.months.map((m) => monthLabel(m.month, d.lang, false))}
              title={t("chart_title")}
              describedBy="stats-months-table"
              rtl={dirOf(d.lang) === "rtl"}
            />
            <table className="stats-table" id="stats-months-table" data-testid="stats-months">
              <caption>{t("chart_table")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("month")}</th>
                  <th scope="col" className="num">
                    {t("trades")}
                  </th>
                  <th scope="col" className="num">
                    {t("net_profit")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.months.map((m) => (
                  <tr key={m.month} data-month={m.month}>
                    <th scope="row">{monthLabel(m.month, d.lang, true)}</th>
                    <td className="num">{m.trades}</td>
                    <td className={`num ${signOf(m.net)}`}>{money(m.net, true)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section className="card" aria-labelledby="stats-instruments">
            <h2 id="stats-instruments" className="account-section-title">
              {t("by_instrument")}
            </h2>
            {s.instruments.length === 0 ? (
              <p className="empty">{t("empty")}</p>
            ) : (
              <table className="stats-table" data-testid="stats-instruments">
                <thead>
                  <tr>
                    <th scope="col">{t("instrument")}</th>
                    <th scope="col" className="num">
                      {t("trades")}
                    </th>
                    <th scope="col" className="num">
                      {t("win_rate")}
                    </th>
                    <th scope="col" className="num">
                      {t("net_profit")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {s.instruments.map((i) => (
                    <tr key={i.code} data-code={i.code}>
                      <th scope="row">
                        <bdi>{i.code}</bdi>
                      </th>
                      <td className="num">{i.trades}</td>
                      <td className="num">{formatPercent(i.win_rate, d.lang)}</td>
                      <td className={`num ${signOf(i.net)}`}>{money(i.net, true)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <p className="hint">
            <Link to="/mine/statements">{t("to_statements")}</Link>
          </p>
        </>
      ) : null}
    </div>
  );
}

function Figure({
  name,
  label,
  value,
  hint,
  sign,
}: {
  name: string;
  label: string;
  value: string;
  hint?: string;
  sign?: string;
}) {
  return (
    <div data-figure={name}>
      <dt>{label}</dt>
      <dd className={sign} data-testid={`stat-${name}`}>
        {value}
      </dd>
      {hint ? <dd className="muted">{hint}</dd> : null}
    </div>
  );
}
