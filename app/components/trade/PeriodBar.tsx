/** The chart period bar: 1M 5M 15M 30M 1H 1D as links (?period=1min ... 1day). */
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export const PERIOD_OPTIONS = [
  { value: "1min", key: "period.1min" },
  { value: "5min", key: "period.5min" },
  { value: "15min", key: "period.15min" },
  { value: "30min", key: "period.30min" },
  { value: "60min", key: "period.60min" },
  { value: "1day", key: "period.1day" },
] as const;

export function PeriodBar({ code, period }: { code: string; period: string }) {
  const { t } = useTranslation("trade");
  return (
    <nav className="period-bar" aria-label={t("period.label")}>
      {PERIOD_OPTIONS.map((p) => (
        <Link
          key={p.value}
          to={`/trade?code=${encodeURIComponent(code)}&period=${p.value}`}
          className={p.value === period ? "period active" : "period"}
          aria-current={p.value === period ? "page" : undefined}
          preventScrollReset
          replace
        >
          {t(p.key)}
        </Link>
      ))}
    </nav>
  );
}
