/**
 * Ranking (/rank) and copy trading (/rank?view=copy, the documentary tab), public;
 * product-spec.md section 2: the strategy traders (the providers one may copy) ranked by their
 * three-week rate, each with its risk score and figures formatted in the user's locale. Sorted by
 * plain links (sort=…) and filtered by a GET form (maximum risk, minimum months of history,
 * instrument class, and for a signed-in user favourites only), both working without JavaScript.
 * A signed-in user stars providers (a POST form per provider). Each trader links to its provider
 * page (/rank/provider?id=N), where the Copy button leads to the copy form.
 */
import type { LinksFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { RANK_MIN_MONTHS, RANK_SORTS, RISK_SCORE, type RankSort } from "@contract/api/rank-rules";
import { PageHeader } from "~/components/PageHeader";
import { Icon } from "~/components/Icon";
import { Hidden } from "~/components/Hidden";
import { StarGlyph } from "~/components/Star";
import { RiskBadge } from "~/components/risk/RiskBadge";
import { formatChange, formatFixed, formatPercent } from "~/utils/format";
import { providerHref } from "~/utils/copy-href";
import rankStyles from "~/styles/rank.css";
import riskStyles from "~/styles/risk.css";
import type { loader } from "./rank.server";

export { action, loader } from "./rank.server";

export const handle = { i18n: ["common", "rank", "risk"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: rankStyles },
  { rel: "stylesheet", href: riskStyles },
];

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

/** The query of a ranking page with `changes` applied (the view and every filter kept). */
function hrefWith(d: Data, changes: Record<string, string | number | null>): string {
  const q = d.query;
  const all: Record<string, string | number | null> = {
    view: d.view === "copy" ? "copy" : null,
    sort: q.sort === "rank" ? null : q.sort,
    max_risk: q.max_risk < RISK_SCORE.max ? q.max_risk : null,
    min_months: q.min_months > 0 ? q.min_months : null,
    category: q.category,
    favourites: q.favourites ? 1 : null,
    ...changes,
  };
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(all)) if (v !== null && v !== "") p.set(k, String(v));
  const s = p.toString();
  return s ? `/rank?${s}` : "/rank";
}

function SortLinks({ d }: { d: Data }) {
  const { t } = useTranslation("risk");
  return (
    <nav className="rank-sorts" aria-label={t("sort_label")}>
      <ul className="chips" data-testid="rank-sorts">
        {RANK_SORTS.map((s: RankSort) => (
          <li key={s}>
            <Link
              to={hrefWith(d, { sort: s === "rank" ? null : s })}
              className={s === d.query.sort ? "chip active" : "chip"}
              aria-current={s === d.query.sort ? "true" : undefined}
              data-sort={s}
              preventScrollReset
            >
              {t(`sort.${s}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Filters({ d }: { d: Data }) {
  const { t } = useTranslation("risk");
  const q = d.query;
  return (
    <details className="card rank-filters" open={d.filtered}>
      <summary>{t("filter_title")}</summary>
      <Form method="get" action="/rank" className="form" data-testid="rank-filters">
        {d.view === "copy" ? <Hidden name="view" value="copy" /> : null}
        {q.sort !== "rank" ? <Hidden name="sort" value={q.sort} /> : null}
        <div className="field">
          <label htmlFor="rank-max-risk">{t("max_risk")}</label>
          <select id="rank-max-risk" name="max_risk" defaultValue={String(q.max_risk)}>
            {Array.from({ length: RISK_SCORE.max - RISK_SCORE.min + 1 }, (_, i) => {
              const v = RISK_SCORE.max - i;
              return (
                <option key={v} value={v === RISK_SCORE.max ? "" : String(v)}>
                  {v === RISK_SCORE.max ? t("any") : formatFixed(v, 0, d.lang)}
                </option>
              );
            })}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rank-min-months">{t("min_months")}</label>
          <select id="rank-min-months" name="min_months" defaultValue={String(q.min_months)}>
            {RANK_MIN_MONTHS.map((m) => (
              <option key={m} value={m === 0 ? "" : String(m)}>
                {m === 0 ? t("any") : t("months", { count: m })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rank-category">{t("category")}</label>
          <select id="rank-category" name="category" defaultValue={String(q.category ?? "")}>
            <option value="">{t("any")}</option>
            {d.categories.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        {d.favourites !== null ? (
          <label className="check-row">
            <input type="checkbox" name="favourites" value="1" defaultChecked={q.favourites} />
            <span>{t("favourites_only")}</span>
          </label>
        ) : null}
        <button type="submit" className="btn btn-primary btn-block" data-testid="rank-apply">
          {t("apply")}
        </button>
      </Form>
    </details>
  );
}

function StarForm({ d, id, name }: { d: Data; id: number; name: string }) {
  const { t } = useTranslation("risk");
  const { pathname, search } = useLocation();
  if (d.favourites === null) return null;
  const on = d.favourites.includes(id);
  return (
    <Form method="post" action="/rank" className="rank-star" preventScrollReset>
      <AuthenticityTokenInput />
      <Hidden name="provider_id" value={id} />
      <Hidden name="on" value={on ? "0" : "1"} />
      <Hidden name="back" value={`${pathname}${search}`} />
      <button
        type="submit"
        className="star"
        aria-pressed={on}
        aria-label={on ? t("star_remove", { name }) : t("star_add", { name })}
        data-testid="star"
      >
        <StarGlyph />
      </button>
    </Form>
  );
}

export default function Rank() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation(["rank", "risk"]);
  const copy = d.view === "copy";
  // The ranking waits for closed positions; the providers to copy, or a filtered list, at once.
  const shown =
    copy || d.filtered || d.query.sort !== "rank"
      ? d.traders.length > 0
      : d.traders.some((x) => x.total_trade_num > 0);

  return (
    <div className="rank">
      <PageHeader title={copy ? t("copy_title") : t("title")} />
      <p className="rank-lead muted">{copy ? t("copy_lead") : t("lead")}</p>
      <SortLinks d={d} />
      <Filters d={d} />
      {d.notice ? (
        <p className="card notice" role="status" data-testid="rank-notice">
          {d.notice}
        </p>
      ) : !shown ? (
        <p className="card empty" data-testid="rank-empty">
          {d.filtered ? t("risk:empty_filtered") : t("empty")}
        </p>
      ) : (
        <ol className="rank-list" data-testid="rank-list">
          {d.traders.map((x, i) => (
            <li
              key={x.id}
              className="card rank-item"
              data-testid="trader"
              data-name={x.user}
              data-id={x.id}
            >
              <div className="rank-head">
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
                <StarForm d={d} id={x.id} name={x.user} />
              </div>
              <dl className="rank-figures">
                <div>
                  <dt>{t("risk:score_label")}</dt>
                  <dd>
                    <RiskBadge score={x.risk_score} />
                  </dd>
                </div>
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
                  <dt>{t("risk:return_12m")}</dt>
                  <dd data-testid="return-12m" data-value={x.return_12m}>
                    {formatChange(x.return_12m, d.lang)}
                  </dd>
                </div>
                <div>
                  <dt>{t("risk:max_drawdown")}</dt>
                  <dd data-testid="drawdown" data-value={x.max_drawdown}>
                    {formatPercent(x.max_drawdown, d.lang)}
                  </dd>
                </div>
                <div>
                  <dt>{t("risk:copiers")}</dt>
                  <dd data-testid="copiers" data-value={x.copiers}>
                    {formatFixed(x.copiers, 0, d.lang)}
                  </dd>
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
