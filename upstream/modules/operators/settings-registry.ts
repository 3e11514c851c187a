/**
 * The settings operators may change (GET/POST /admin/api/settings), each with the check its value
 * must pass; anything else is refused. Cross-setting rules (stop-out below margin call, the deposit
 * minimum below its maximum) are checked against the other value as stored.
 */
import { RISK_DISCLOSURE_TEXT_MAX, RISK_SCORE } from "@contract/api/rank-rules";
import { LIMIT_NAMES, limitSettingKey, parseLimitSpec } from "../../platform/limits.js";
import { getSetting } from "../../platform/settings.js";
import type { DB } from "../../platform/db.js";
import { inMoneyRange, parseDecimal } from "../money/decimal.js";
import { isEmail } from "../company/checks.js";
import { translate, type Lang } from "../../platform/i18n.js";

/** A refusal: the message key and its parameters, or null when the value is accepted. */
type Check = (v: string, db: DB) => { key: string; params?: Record<string, string> } | null;

const flag: Check = (v) => (v === "0" || v === "1" ? null : { key: "setting_flag" });
const intIn =
  (min: number, max: number): Check =>
  (v) =>
    /^\d{1,9}$/.test(v) && Number(v) >= min && Number(v) <= max
      ? null
      : { key: "setting_int_range", params: { min: String(min), max: String(max) } };
const positiveDecimal =
  (dp: number): Check =>
  (v) => {
    const d = parseDecimal(v, dp);
    return d && d.gt(0) && inMoneyRange(d) ? null : { key: "setting_positive_number" };
  };
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    values.includes(v) ? null : { key: "setting_one_of", params: { values: values.join(", ") } };
const url: Check = (v) =>
  v === "" || (/^https?:\/\//i.test(v) && URL.canParse(v)) ? null : { key: "setting_url" };

const textUpTo =
  (max: number): Check =>
  (v) =>
    [...v].length <= max ? null : { key: "setting_text_max", params: { max: String(max) } };

const num = (db: DB, key: string) => Number(getSetting(db, key));

/**
 * `fourEyes`: a change waits for a second operator (requests.ts): every risk setting (`risk.*`:
 * margin call and stop-out levels, the money controls' amounts, the risk disclosure), the copy
 * limit on a provider's risk score, the fee rule, the market's hours
 * and quote age, the abuse limits, the sign-up captcha and verification, where users are sent for
 * support and complaints, and the deposit bounds.
 */
export const SETTINGS: Record<string, { check: Check; limit?: string; fourEyes?: boolean }> = {
  trade_fee_type: {
    check: oneOf("1", "2"),
    fourEyes: true,
  },
  "trade.max_lots": { check: positiveDecimal(2) },
  "trade.max_orders": {
    check: intIn(1, 10_000),
  },
  "market.stale_after_s": {
    check: intIn(1, 3600),
    fourEyes: true,
  },
  "market.always_open": { check: flag, fourEyes: true },
  "risk.margin_call_pct": {
    fourEyes: true,
    check: (v, db) =>
      intIn(1, 10_000)(v, db) ??
      (Number(v) > num(db, "risk.stop_out_pct")
        ? null
        : { key: "setting_margin_call_above_stop_out" }),
  },
  "risk.stop_out_pct": {
    fourEyes: true,
    check: (v, db) =>
      intIn(0, 10_000)(v, db) ??
      (Number(v) < num(db, "risk.margin_call_pct")
        ? null
        : { key: "setting_margin_call_above_stop_out" }),
  },
  "demo.initial_balance": { check: positiveDecimal(2) },
  "risk.adjustment_four_eyes_usd": { check: positiveDecimal(2), fourEyes: true },
  "risk.deposit_four_eyes_usd": { check: positiveDecimal(2), fourEyes: true },
  "risk.withdrawal_four_eyes_usd": { check: positiveDecimal(2), fourEyes: true },
  "risk.operator_daily_usd": { check: positiveDecimal(2), fourEyes: true },
  "upload.max_megapixels": { check: intIn(1, 40) },
  "copy.min_usd": { check: positiveDecimal(2) },
  "copy.max_per_user": { check: intIn(1, 1000) },
  // Who may be copied, and what the trading screens warn of: decided with the regulator.
  "copy.max_risk_score": { check: intIn(RISK_SCORE.min, RISK_SCORE.max), fourEyes: true },
  "risk.disclosure_show": { check: flag, fourEyes: true },
  "risk.disclosure_text": { check: textUpTo(RISK_DISCLOSURE_TEXT_MAX), fourEyes: true },
  "alerts.max_active": { check: intIn(1, 1000) },
  "deposit.min_usd": {
    fourEyes: true,
    check: (v, db) =>
      positiveDecimal(2)(v, db) ??
      (Number(v) < num(db, "deposit.max_usd") ? null : { key: "setting_min_below_max" }),
  },
  "deposit.max_usd": {
    fourEyes: true,
    check: (v, db) =>
      positiveDecimal(2)(v, db) ??
      (Number(v) > num(db, "deposit.min_usd") ? null : { key: "setting_min_below_max" }),
  },
  "register.captcha": { check: flag, fourEyes: true },
  is_show_mobile: { check: flag },
  verify_reg_type: {
    fourEyes: true,
    check: intIn(0, 9),
  },
  service_link: {
    fourEyes: true,
    check: url,
  },
  service_link_type: {
    fourEyes: true,
    check: oneOf("1", "2"),
  },
  is_main: { check: flag },
  complaint_email: {
    fourEyes: true,
    check: (v) => (isEmail(v) ? null : { key: "setting_email" }),
  },
  ...Object.fromEntries(
    LIMIT_NAMES.map((n) => [
      limitSettingKey(n),
      {
        check: ((v: string) => (parseLimitSpec(v) ? null : { key: "setting_limit" })) as Check,
        limit: n,
        fourEyes: true,
      },
    ]),
  ),
};

/**
 * What a setting governs, in the operator's language (upstream/locales/<lang>/settings-help.json):
 * `setting_help.<key>`, and one text for every abuse limit with its name.
 */
export function describeSetting(lang: Lang, key: string): string {
  const limit = SETTINGS[key]?.limit;
  return limit
    ? translate(lang, "setting_help.limit", { name: limit })
    : translate(lang, `setting_help.${key}`);
}
