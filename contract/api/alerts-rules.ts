/**
 * Price alerts' rules that pages read too (contract/api/alerts.ts holds the endpoints).
 *
 * - `above`: the instrument's price is at or above `target`; `below`: at or below it;
 *   `change`: its change from the day's open reaches `target` percent, up or down.
 * - `once`: the alert ends when it fires; `every`: it fires again after its cool-down, as long as
 *   the condition holds.
 * The reference engine quotes one price per instrument (no spread), so a bid alert and an ask alert
 * are the same alert: the price the app shows.
 */
export const ALERT_CONDITIONS = ["above", "below", "change"] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

export const ALERT_REPEATS = ["once", "every"] as const;
export type AlertRepeat = (typeof ALERT_REPEATS)[number];

/** A target change, percent: 0.01 to 100, two decimals. */
export const ALERT_PERCENT = { min: 0.01, max: 100 } as const;
/** The cool-down of an `every` alert, minutes: 1 to 1440 (a day); 60 when not given. */
export const ALERT_COOLDOWN_MIN = { min: 1, max: 1440, default: 60 } as const;
