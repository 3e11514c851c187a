/**
 * Ranking (/rank) and copy trading (/rank?view=copy, the documentary tab), public;
 * product-spec.md section 2: the strategy traders (the providers one may copy) ranked by their
 * three-week rate, each with its figures formatted in the user's locale. Each trader links to its
 * provider page (/rank/provider?id=N), where the Copy button leads to the copy form.
 */
import type { LinksFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/PageHeader";
import { Icon } from "~/components/Icon";
import { formatChange, formatFixed, formatPercent } from "~/utils/format";
import { providerHref } from "~/utils/copy-href";
import rankStyles from "~/styles/rank.css";
import type { loader } from "./rank.server";

export { loader } from "./rank.server";

export const handle = { i18n: ["common", "rank"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: rankStyles }];

export default function Rank() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("rank");
  const copy = d.view === "copy";
  // The ranking waits for closed positions; the providers to copy are listed at once.
  const shown = copy ? d.traders.length > 0 : d.traders.some((x) => x.total_trade_num > 0);

  return (
    <div className="rank">
      <PageHeader title={copy ? t("copy_title") : t("title")} />
      <p className="rank-lead muted">{copy ? t("copy_lead") : t("lead")}</p>
      {d.notice ? (
        <p className="card notice" role="status" data-testid="rank-notice">
          {d.notice}
        </p>
      ) : !shown ? (
        <p className="card empty" data-testid="rank-empty">
          {t("empty")}
        </p>
      ) : (
        <ol className="rank-list" data-testid="rank-list">
          {d.traders.map((x, i) => (
            <li key={x.id} className="card rank-item" data-testid="trader" data-name={x.user}>
              <Link to={providerHref(x.id)} className="rank-summary" data-testid="trader-link">
                <span className="rank-pos" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="rank-name">
                  <strong>{x.user}</strong>
                  <span className="muted">
                    {x.code || "--"} · {t("multiple", { value: x.multiple })}
                  </span>
                </span>
                <span className="rank-rate">
                  <span
                    className={x.three_week_rate >= 0 ? "price up" : "price down"}
                    data-testid="rate"
                  >
                    {formatChange(x.three_week_rate, d.lang)}
                  </span>
                  <span className="muted rank-rate-label">{t("three_week_rate")}</span>
                </span>
                <Icon name="chevron" size={18} className="flip-rtl rank-chevron" />
              </Link>
              <dl className="rank-figures">
                <div>
                  <dt>{t("three_week_win")}</dt>
                  <dd data-testid="win">{formatPercent(x.three_week_win, d.lang)}</dd>
                </div>
                <div>
                  <dt>{t("three_week_profit")}</dt>
                  <dd data-testid="profit">
                    {formatFixed(x.three_week_profit, 2, d.lang, { signed: true })}
                  </dd>
                </div>
                <div>
                  <dt>{t("total_rate")}</dt>
                  <dd>{formatChange(x.total_rate, d.lang)}</dd>
                </div>
                <div>
                  <dt>{t("total_trade_num")}</dt>
                  <dd data-testid="trades">{formatFixed(x.total_trade_num, 0, d.lang)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
