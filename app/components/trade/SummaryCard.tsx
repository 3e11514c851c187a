/**
 * The account summary of /order: balance, equity (total), used margin (all_caution_money), free
 * margin (can_use), margin level (HazardRate) and total floating profit; live from FOREX_TRADE.
 */
import { useTranslation } from "react-i18next";
import { formatBalance, formatPercent, formatProfit, signOf } from "~/utils/format";
import { useLang } from "./hooks";

export interface Summary {
  balance: number | null;
  total: number | null;
  all_caution_money: number | null;
  can_use: number | null;
  HazardRate: number | null;
  profit: number | null;
  marginCall?: boolean;
}

export function SummaryCard({ s }: { s: Summary }) {
  const { t } = useTranslation("order");
  const lang = useLang();
  const items: { key: string; label: string; value: string; cls?: string }[] = [
    { key: "balance", label: t("summary.balance"), value: formatBalance(s.balance, lang) },
    { key: "equity", label: t("summary.equity"), value: formatBalance(s.total, lang) },
    { key: "margin", label: t("summary.used_margin"), value: formatBalance(s.all_caution_money, lang) },
    { key: "free-margin", label: t("summary.free_margin"), value: formatBalance(s.can_use, lang) },
    { key: "margin-level", label: t("summary.margin_level"), value: formatPercent(s.HazardRate, lang) },
    { key: "profit", label: t("summary.profit"), value: formatProfit(s.profit, lang), cls: `profit ${signOf(s.profit)}` },
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
