/**
 * Ranking (/rank) and copy trading (/rank?view=copy), public; product-spec.md section 2: the
 * strategy traders ranked by their three-week rate, each with its figures formatted in the user's
 * locale. Tapping a trader shows the coming-soon message: without JavaScript a <details> opens
 * under the row; with it, the same tap opens a native modal <dialog>.
 */
import { useRef, useState, type MouseEvent } from "react";
import type { LinksFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/PageHeader";
import { formatChange, formatFixed, formatPercent } from "~/utils/format";
import rankStyles from "~/styles/rank.css";
import type { loader } from "./rank.server";

export { loader } from "./rank.server";

export const handle = { i18n: ["common", "rank"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: rankStyles }];

export default function Rank() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("rank");
  const dialog = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState("");
  const copy = d.view === "copy";
  const anyClosed = d.traders.some((x) => x.total_trade_num > 0);

  /** With JavaScript the tap opens the modal dialog instead of the row's <details>. */
  const openDialog = (e: MouseEvent, name: string) => {
    const el = dialog.current;
    if (!el || typeof el.showModal !== "function") return;
    e.preventDefault();
    setChosen(name);
    el.showModal();
  };

  return (
    <div className="rank">
      <PageHeader title={copy ? t("copy_title") : t("title")} />
      <p className="rank-lead muted">{copy ? t("copy_lead") : t("lead")}</p>
      {d.notice ? (
        <p className="card notice" role="status" data-testid="rank-notice">
          {d.notice}
        </p>
      ) : !anyClosed ? (
        <p className="card empty" data-testid="rank-empty">
          {t("empty")}
        </p>
      ) : (
        <ol className="rank-list" data-testid="rank-list">
          {d.traders.map((x, i) => (
            <li key={x.user} className="card rank-item" data-testid="trader" data-name={x.user}>
              <details className="rank-details">
                <summary className="rank-summary" onClick={(e) => openDialog(e, x.user)}>
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
                </summary>
                <p className="rank-soon" data-testid="coming-soon">
                  {t("coming_soon")}
                </p>
              </details>
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
      <dialog
        ref={dialog}
        className="card rank-dialog"
        aria-labelledby="rank-dialog-title"
        data-testid="rank-dialog"
      >
        <h2 id="rank-dialog-title">{chosen}</h2>
        <p>{t("coming_soon")}</p>
        <form method="dialog">
          <button type="submit" className="btn btn-primary">
            {t("ok")}
          </button>
        </form>
      </dialog>
    </div>
  );
}
