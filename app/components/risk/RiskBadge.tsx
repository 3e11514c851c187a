/**
 * A provider's risk score (1 to 10, contract/api/rank-rules.ts) as a badge: its band's colour
 * (low 1–3, medium 4–6, high 7–10) and its text, read as "Risk score N out of 10"; "New" before
 * the first daily computation.
 */
import { useTranslation } from "~/translation";
import { RISK_SCORE } from "@contract/api/rank-rules";

export function riskBand(score: number): "low" | "medium" | "high" {
  return score <= 3 ? "low" : score <= 6 ? "medium" : "high";
}

export function RiskBadge({ score }: { score: number | null }) {
  const { t } = useTranslation("risk");
  if (score === null)
    return (
      <span className="risk-badge risk-none" data-testid="risk-score" data-score="">
        {t("badge_none")}
      </span>
    );
  return (
    <span
      className={`risk-badge risk-${riskBand(score)}`}
      data-testid="risk-score"
      data-score={score}
      aria-label={t("badge_label", { score, max: RISK_SCORE.max })}
      role="img"
    >
      {t("badge", { score })}
    </span>
  );
}
