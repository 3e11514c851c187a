/**
 * The settings operators may change (GET/POST /admin/api/settings), each with the check its value
 * must pass; anything else is refused. Cross-setting rules (stop-out below margin call, the deposit
 * minimum below its maximum) are checked against the other value as stored.
 */
import { LIMIT_NAMES, limitSettingKey, parseLimitSpec } from "../../platform/limits.js";
import { getSetting } from "../../platform/settings.js";
import type { DB } from "../../platform/db.js";
import { parseDecimal } from "../money/decimal.js";
import { isEmail } from "../company/checks.js";

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
    return d && d.gt(0) ? null : { key: "setting_positive_number" };
  };
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    values.includes(v) ? null : { key: "setting_one_of", params: { values: values.join(", ") } };
const url: Check = (v) =>
  v === "" || (/^https?:\/\//i.test(v) && URL.canParse(v)) ? null : { key: "setting_url" };

const num = (db: DB, key: string) => Number(getSetting(db, key));

export const SETTINGS: Record<string, { check: Check; describe: string }> = {
  trade_fee_type: {
    check: oneOf("1", "2"),
    describe: "1: fee = lots x fee rate; 2: margin x fee rate",
  },
  "trade.max_lots": { check: positiveDecimal(2), describe: "most lots in one order" },
  "trade.max_orders": {
    check: intIn(1, 10_000),
    describe: "most pending and open orders per account",
  },
  "market.stale_after_s": {
    check: intIn(1, 3600),
    describe: "seconds after which a quote is stale",
  },
  "market.always_open": { check: flag, describe: "1 keeps every market open (demos)" },
  "risk.margin_call_pct": {
    check: (v, db) =>
      intIn(1, 10_000)(v, db) ??
      (Number(v) > num(db, "risk.stop_out_pct")
        ? null
        : { key: "setting_margin_call_above_stop_out" }),
    describe: "margin level (%) that flags a margin call",
  },
  "risk.stop_out_pct": {
    check: (v, db) =>
      intIn(0, 10_000)(v, db) ??
      (Number(v) < num(db, "risk.margin_call_pct")
        ? null
        : { key: "setting_margin_call_above_stop_out" }),
    describe: "margin level (%) at which positions are closed",
  },
  "demo.initial_balance": { check: positiveDecimal(2), describe: "a demo account's starting USD" },
  "deposit.min_usd": {
    check: (v, db) =>
      positiveDecimal(2)(v, db) ??
      (Number(v) < num(db, "deposit.max_usd") ? null : { key: "setting_min_below_max" }),
    describe: "smallest deposit, USD",
  },
  "deposit.max_usd": {
    check: (v, db) =>
      positiveDecimal(2)(v, db) ??
      (Number(v) > num(db, "deposit.min_usd") ? null : { key: "setting_min_below_max" }),
    describe: "largest deposit, USD",
  },
  "register.captcha": { check: flag, describe: "1 asks a captcha before sending a sign-up code" },
  is_show_mobile: { check: flag, describe: "1 offers sign-up by phone" },
  verify_reg_type: {
    check: intIn(0, 9),
    describe: "sign-up verification type, as clients read it",
  },
  service_link: { check: url, describe: "the support chat's address" },
  service_link_type: { check: oneOf("1", "2"), describe: "1 open in a frame, 2 open as a link" },
  is_main: { check: flag, describe: "1: /product searches companies (company mode)" },
  complaint_email: {
    check: (v) => (isEmail(v) ? null : { key: "setting_email" }),
    describe: "the complaint e-mail shown with the company search",
  },
  ...Object.fromEntries(
    LIMIT_NAMES.map((n) => [
      limitSettingKey(n),
      {
        check: ((v: string) => (parseLimitSpec(v) ? null : { key: "setting_limit" })) as Check,
        describe: `abuse limit ${n}: POINTS/SECONDS[/BLOCK_SECONDS]`,
      },
    ]),
  ),
};
