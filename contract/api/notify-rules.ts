/**
 * Account notifications' kinds, which pages read too (contract/api/notify.ts holds the endpoints).
 * Each kind is written once, in the transaction of the event that caused it, and shown in the app.
 */
export const NOTICE_KINDS = [
  "price_alert",
  "take_profit",
  "stop_loss",
  "trailing_stop",
  "margin_call",
  "stop_out",
  "pending_filled",
  "pending_cancelled",
  "pending_expired",
  "deposit_credited",
  "deposit_rejected",
  "withdrawal_paid",
  "withdrawal_rejected",
  "verification_approved",
  "verification_rejected",
  "copy_stopped",
  "copy_risk_rise",
  "new_device",
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
