/**
 * A provider page's risk section: the score with what it means in plain words and what it was
 * computed from, and whether new copies are refused; and the monthly returns as a table (months
 * by year, UTC months, the month names in the reader's language).
 */
import { useTranslation } from "~/translation";
import type { Provider } from "@contract/api/copy";
import { formatChange, formatFixed } from "~/utils/format";
import { RiskBadge } from "./RiskBadge";

export function ProviderRisk({ p, lang }: { p: Provider; lang: string }) {
  const { t } = useTranslation("risk");
  return (
    <section
      className="card provider-card"
      aria-labelledby="provider-risk"
      data-testid="provider-risk"
    >
      <h2 id="provider-risk">
        {t("score_label")} <RiskBadge score={p.risk_score} />
      </h2>
      <p>{t("explain")}</p>
      {p.risk ? (
        <p className="muted" data-testid="risk-inputs">
          {t("explain_inputs", {
            volatility: `${formatFixed(p.risk.volatility, 2, lang)}%`,
            lev: formatFixed(p.risk.leverage, 1, lang),
            concentration: `${formatFixed(p.risk.concentration, 0, lang)}%`,
          })}
        </p>
      ) : (
        <p className="muted">{t("explain_none")}</p>
      )}
      {p.copy_refused ? (
        <p className="notice" role="status" data-testid="copy-refused">
          {t("copy_refused", { max: p.risk_copy_max })}
        </p>
      ) : null}
    </section>
  );
}

export function MonthlyReturns({ p, lang }: { p: Provider; lang: string }) {
  const { t } = useTranslation("risk");
  const byYear = new Map<string, Map<number, number>>();
  for (const m of p.monthly_returns) {
    const [y, mo] = m.month.split("-");
    if (!byYear.has(y)) byYear.set(y, new Map());
    byYear.get(y)!.set(Number(mo), m.rate);
  }
  const months = Array.from({ length: 12 }, (_, i) =>
    new Intl.DateTimeFormat(lang, { month: "short", timeZone: "UTC" }).format(Date.UTC(2000, i, 1)),
  );
  return (
    <section className="card provider-card" aria-labelledby="provider-monthly">
      <h2 id="provider-monthly">{t("monthly_title")}</h2>
      {byYear.size === 0 ? (
        <p className="muted">{t("monthly_empty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="monthly-returns" data-testid="monthly-returns">
            <thead>
              <tr>
                <th scope="col">{t("year")}</th>
                {months.map((m) => (
                  <th key={m} scope="col">
                    {m}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...byYear.entries()].map(([y, rates]) => (
                <tr key={y}>
                  <th scope="row">{y}</th>
                  {months.map((m, i) => {
                    const r = rates.get(i + 1);
                    return (
                      <td key={m} className={r === undefined ? "" : r >= 0 ? "up" : "down"}>
                        {r === undefined ? "" : formatChange(r, lang)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
