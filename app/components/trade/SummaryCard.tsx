/**
 * The account summary of /order: balance, equity, used margin, free margin, margin level and total
 * floating profit; live from FOREX_TRADE.
 */
import { useTranslation } from "~/translation";
import { formatBalance, formatPercent, formatProfit, signOf } from "~/utils/format";
import type { AccountView } from "~/upstream/views";
import { useLang } from "./hooks";

/** The card's figures: the account view model (live values merged in). */
export type Summary = AccountView;

export function SummaryCard({ s }: { s: Summary }) {
  const { t } = useTranslation("order");
  const lang = useLang();
  const items: { key: string; label: string; value: string; cls?: string }[] = [
    { key: "balance", label: t("summary.balance"), value: formatBalance(s.balance, lang) },
    { key: "equity", label: t("summary.equity"), value: formatBalance(s.equity, lang) },
    { key: "margin", label: t("summary.used_margin"), value: formatBalance(s.usedMargin, lang) },
    {
      key: "free-margin",
      label: t("summary.free_margin"),
      value: formatBalance(s.freeMargin, lang),
    },
    {
      key: "margin-level",
      label: t("summary.margin_level"),
      value: formatPercent(s.marginLevel, lang),
    },
    {
      key: "profit",
      label: t("summary.profit"),
      value: formatProfit(s.profit, lang),
      cls: `profit ${signOf(s.profit)}`,
    },
  ];
  return (
    <section className="summary-card" aria-label={t("summary.title")} data-testid="summary-card">
      <dl>
        {items.map((i) => (
          <div key={i.key} className={`summary-item summary-${i.key}`}>
            <dt>{i.label}</dt>
            <dd className={i.cls} data-testid={`summary-${i.key}`}>
              {i.value}
            </dd>
          </div>
        ))}
      </dl>
      {s.marginCall ? (
        <p className="notice notice-warn" role="alert" data-testid="margin-call">
          {t("summary.margin_call")}
        </p>
      ) : null}
    </section>
  );
}
