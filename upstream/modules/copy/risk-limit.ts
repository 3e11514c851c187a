/**
 * The broker's limit on a provider's risk score for new copies (setting copy.max_risk_score,
 * default RISK_COPY_MAX_DEFAULT; four-eyes): a provider whose latest daily score is above it takes
 * no new copy. Existing copies go on; their owners were told of the rise (follow/risk.ts).
 */
import { RISK_COPY_MAX_DEFAULT } from "@contract/api/rank-rules";
import type { DB } from "../../platform/db.js";
import { DomainError } from "../../platform/errors.js";
import { getNumberSetting } from "../../platform/settings.js";
import { latestDailyOf } from "../follow/risk-store.js";

export function riskCopyMax(db: DB): number {
  return getNumberSetting(db, "copy.max_risk_score", RISK_COPY_MAX_DEFAULT);
}

/** Refuses a new copy of a provider whose latest risk score is above the limit. */
export function checkCopyRisk(db: DB, provider: { user_id: number; name: string }): void {
  const score = latestDailyOf(db, provider.user_id)?.risk_score;
  const max = riskCopyMax(db);
  if (score !== undefined && score > max)
    throw new DomainError("copy_risk_too_high", 0, { name: provider.name, score, max });
}
