/**
 * The risk disclosure of the trading screens (GET /api/risk/disclosure): the share of real retail
 * accounts that lost money over the last 12 months ("N% of retail accounts lose money"), the
 * operator's own text where their regulator asks for another, nothing when the operator turned it
 * off; with a link to the negative balance protection notice.
 */
import { Link } from "@remix-run/react";
import { memo } from "react";
import { useTranslation } from "~/translation";
import type { RiskDisclosure as Disclosure } from "@contract/api/follow";
import { formatFixed } from "~/utils/format";

export const PROTECTION_HREF = "/protection";

/** Memoised: it changes with the page, not with the live prices the trade screen renders on. */
export const RiskDisclosure = memo(function RiskDisclosure({
  d,
  lang,
}: {
  d: Disclosure | null;
  lang: string;
}) {
  const { t } = useTranslation("risk");
  if (!d || !d.show) return null;
  const text =
    d.text ??
    (d.losing_pct === null
      ? t("disclosure_generic")
      : t("disclosure_share", { pct: `${formatFixed(d.losing_pct, 0, lang)}%` }));
  return (
    <aside className="risk-disclosure" data-testid="risk-disclosure">
      <p>{text}</p>
      <Link to={PROTECTION_HREF} data-testid="protection-link">
        {t("protection_link")}
      </Link>
    </aside>
  );
});
