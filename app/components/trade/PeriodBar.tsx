/** The chart period bar: 1M 5M 15M 30M 1H 4H 1D 1W MN as links (?period=1min ... 1mon). */
import { Link } from "@remix-run/react";
import { memo } from "react";
import { useTranslation } from "~/translation";
import { PERIODS } from "@contract/constants";

/**
 * The contract's periods, in its order, with their label keys: the trade screen's, then the
 * chart's (where the longer periods' labels are).
 */
const PERIOD_OPTIONS = PERIODS.map((value) => ({
  value,
  keys: [`period.${value}`, `chart:period.${value}`],
}));

/** Memoised: the trade screen renders again on every live price, the bar only for a new page. */
export const PeriodBar = memo(function PeriodBar({
  code,
  period,
}: {
  code: string;
  period: string;
}) {
  const { t } = useTranslation(["trade", "chart"]);
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
          {t(p.keys)}
        </Link>
      ))}
    </nav>
  );
});
