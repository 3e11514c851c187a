/**
 * A provider's page (/rank/provider?id=N), public: three-week and total return, win rate, profit,
 * maximum drawdown, copiers and the money copying, the instruments traded, the equity curve (SVG on
 * the server, chart.js over it with JavaScript), the open positions as instrument and side only,
 * and the Copy button leading to the copy form. An unknown, hidden or stopped provider is a 404 page.
 */
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { ORDER_TYPE } from "@contract/enums";
import { PageHeader } from "~/components/PageHeader";
import { EquityCurve } from "~/components/copy/EquityCurve";
import { MonthlyReturns, ProviderRisk } from "~/components/risk/ProviderRisk";
import {
  formatBalance,
  formatChange,
  formatDuration,
  formatFixed,
  formatPercent,
} from "~/utils/format";
import { copyFormHref } from "~/utils/copy-href";
import rankStyles from "~/styles/rank.css";
import riskStyles from "~/styles/risk.css";
import tradeStyles from "~/styles/trade.css";
import type { loader } from "./provider.server";

export { loader } from "./provider.server";

export const handle = { i18n: ["common", "rank", "copy", "trade", "risk"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: rankStyles },
  { rel: "stylesheet", href: riskStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.title ?? "Tradepost" },
];

export default function ProviderPage() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation(["copy", "rank", "trade"]);
  const p = d.provider;
  if (!p)
    return (
      <div className="rank">
        <PageHeader title={d.title} back="/rank?view=copy" />
        <p className="card notice" role="status" data-testid="provider-notice">
          {d.notice}
        </p>
      </div>
    );
  const figures: [string, string, string][] = [
    ["three_week_rate", t("rank:three_week_rate"), formatChange(p.three_week_rate, d.lang)],
    ["total_rate", t("rank:total_rate"), formatChange(p.total_rate, d.lang)],
    ["win_rate", t("copy:provider.win_rate"), formatPercent(p.win_rate, d.lang)],
    ["profit", t("copy:provider.profit"), formatFixed(p.profit, 2, d.lang, { signed: true })],
    ["max_drawdown", t("copy:provider.max_drawdown"), formatPercent(p.max_drawdown, d.lang)],
    ["copiers", t("copy:provider.copiers"), formatFixed(p.copiers, 0, d.lang)],
    ["copying", t("copy:provider.copying"), formatBalance(p.copying, d.lang)],
    ["trades", t("rank:total_trade_num"), formatFixed(p.total_trade_num, 0, d.lang)],
    ["holding", t("risk:average_holding"), formatDuration(p.average_holding_s, d.lang)],
  ];
  const first = p.equity_curve[0];
  const last = p.equity_curve[p.equity_curve.length - 1];
  const curveTitle =
    first && last
      ? t("copy:provider.equity_label", {
          name: p.name,
          from: formatBalance(first[1], d.lang),
          to: formatBalance(last[1], d.lang),
        })
      : t("copy:provider.equity_curve");
  return (
    <div className="rank provider" data-testid="provider" data-provider-id={p.id}>
      <PageHeader title={p.name} back="/rank?view=copy" />
      {p.description ? <p className="rank-lead">{p.description}</p> : null}
      <section className="card provider-card" aria-labelledby="provider-figures">
        <h2 id="provider-figures" className="sr-only">
          {t("copy:provider.figures")}
        </h2>
        <dl className="rank-figures provider-figures">
          {figures.map(([key, label, value]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd data-testid={`provider-${key}`}>{value}</dd>
            </div>
          ))}
        </dl>
        <Link
          to={copyFormHref(p.id)}
          className="btn btn-primary btn-block"
          data-testid="copy-button"
        >
          {t("copy:provider.copy")}
        </Link>
        {Number(p.min_investment) > 0 ? (
          <p className="muted hint">
            {t("copy:provider.min_investment", {
              amount: formatBalance(p.min_investment, d.lang),
            })}
          </p>
        ) : null}
      </section>
      <ProviderRisk p={p} lang={d.lang} />
      <MonthlyReturns p={p} lang={d.lang} />
      <section className="card provider-card" aria-labelledby="provider-curve">
        <h2 id="provider-curve">{t("copy:provider.equity_curve")}</h2>
        {p.equity_curve.length > 0 ? (
          <EquityCurve points={p.equity_curve} lang={d.lang} title={curveTitle} />
        ) : (
          <p className="muted">{t("copy:provider.equity_empty")}</p>
        )}
      </section>
      <section className="card provider-card" aria-labelledby="provider-instruments">
        <h2 id="provider-instruments">{t("copy:provider.instruments")}</h2>
        {p.instruments.length > 0 ? (
          <ul className="chips provider-chips" data-testid="provider-instruments">
            {p.instruments.map((code) => (
              <li key={code} className="chip">
                {code}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t("copy:provider.no_instruments")}</p>
        )}
      </section>
      <section className="card provider-card" aria-labelledby="provider-open">
        <h2 id="provider-open">{t("copy:provider.open_positions")}</h2>
        {p.open_positions.length > 0 ? (
          <ul className="provider-open" data-testid="provider-open">
            {p.open_positions.map((o, i) => (
              <li key={`${o.code}-${o.side}-${i}`} data-testid="provider-position">
                <span className="order-code">{o.code}</span>{" "}
                <span className={o.side === ORDER_TYPE.BUY ? "dir buy" : "dir sell"}>
                  {o.side === ORDER_TYPE.BUY ? t("trade:buy") : t("trade:sell")}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t("copy:provider.no_open_positions")}</p>
        )}
      </section>
    </div>
  );
}
