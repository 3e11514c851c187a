/**
 * The enumerations both programs must read the same way (product-spec.md sections 3, 4 and 9, and
 * upstream/API.md where the spec leaves a value open).
 */

/** Order side (submit `type`, order `OrderType`): 1 buy, anything else sell. */
export const ORDER_TYPE = { BUY: 1, SELL: 2 } as const;
export type OrderType = (typeof ORDER_TYPE)[keyof typeof ORDER_TYPE];

/** Submit `status`: 1 a market order (filled now), 0 a pending order (needs `target_price`). */
export const ORDER_MODE = { PENDING: 0, MARKET: 1 } as const;
export type OrderMode = (typeof ORDER_MODE)[keyof typeof ORDER_MODE];

/** Order `Status` as stored and shown. */
export const ORDER_STATUS = {
  PENDING: 0,
  /** A holding (open) position. */
  OPEN: 1,
  CLOSED: 3,
  /** A pending order that never filled. */
  CANCELLED: 4,
} as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/** my_deal `status` (the orders screen's tabs): 1 holding, 0 pending, 3 history (closed and cancelled). */
export const ORDER_TAB = { PENDING: 0, HOLDING: 1, HISTORY: 3 } as const;
export type OrderTab = (typeof ORDER_TAB)[keyof typeof ORDER_TAB];
/** The tabs in the order the orders screen shows them. */
export const ORDER_TABS: readonly OrderTab[] = [
  ORDER_TAB.HOLDING,
  ORDER_TAB.PENDING,
  ORDER_TAB.HISTORY,
];

/** Order statuses listed under each tab. */
export const STATUSES_OF_TAB: Readonly<Record<OrderTab, readonly OrderStatus[]>> = {
  [ORDER_TAB.PENDING]: [ORDER_STATUS.PENDING],
  [ORDER_TAB.HOLDING]: [ORDER_STATUS.OPEN],
  [ORDER_TAB.HISTORY]: [ORDER_STATUS.CLOSED, ORDER_STATUS.CANCELLED],
};

/** Order `PendingType`, inferred from the side and the target against the market. */
export const PENDING_TYPES = ["buy_limit", "buy_stop", "sell_limit", "sell_stop"] as const;
export type PendingType = (typeof PENDING_TYPES)[number];

/** Order `CloseReason`. */
export const CLOSE_REASONS = [
  "manual",
  "take_profit",
  "stop_loss",
  "stop_out",
  "demo_reset",
  "cancelled",
  "insufficient_margin",
  /** Copy trading: the provider closed the position this one follows. */
  "copy_provider_closed",
  /** Copy trading: the copy was stopped (by its owner or an operator). */
  "copy_stopped",
  /** Copy trading: the copy's stop-loss fired. */
  "copy_stop_loss",
  /** The position's trailing stop was reached. */
  "trailing_stop",
  /** A pending order reached its expiry unfilled. */
  "expired",
] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

/** Setting `trade_fee_type`: 1 a fixed fee per lot, otherwise margin x rate. */
export const FEE_TYPE = { PER_LOT: 1, MARGIN_RATE: 2 } as const;
export type FeeType = (typeof FEE_TYPE)[keyof typeof FEE_TYPE];
/** The fee type in force when the setting is absent (the upstream seeds it; clients fall back to it). */
export const DEFAULT_FEE_TYPE: FeeType = FEE_TYPE.MARGIN_RATE;

/** Instrument `MarginMode`: 1 fixed margin (lots x units per lot), otherwise leverage based. */
export const MARGIN_MODE = { FIXED: 1, LEVERAGE: 2 } as const;

/** Instrument and quote `MarketStatus`: 1 open, anything else closed. */
export const MARKET_STATUS = { CLOSED: 0, OPEN: 1 } as const;

/** send_email / send_sms `type`: 1 a sign-up code, 2 a password-reset code. */
export const CODE_PURPOSE = { REGISTER: 1, RESET: 2 } as const;
export type CodePurpose = (typeof CODE_PURPOSE)[keyof typeof CODE_PURPOSE];

/** How an identity is given: loginForU `login_type`, register and forget_password `type`. */
export const LOGIN_TYPES = ["email", "mobile"] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

/** User `is_demo`: 1 a demo (mock) account. */
export const IS_DEMO = { REAL: 0, DEMO: 1 } as const;

/** Deposit and withdrawal tabs (`type`): 0 coin, 1 bank. */
export const CHANNEL_TYPE = { COIN: 0, BANK: 1 } as const;
export type ChannelType = (typeof CHANNEL_TYPE)[keyof typeof CHANNEL_TYPE];

/** Charge (deposit) record `status`. */
export const CHARGE_STATUS = {
  UNCHECKED: 0,
  FINISHED: 1,
  /** Rejected, with a remark. */
  REJECTED: 2,
  INVALID: 3,
} as const;
export type ChargeStatus = (typeof CHARGE_STATUS)[keyof typeof CHARGE_STATUS];
/** The alternative status words of a charge record, by status. */
export const CHARGE_STATUS_WORD: Readonly<Record<ChargeStatus, string>> = {
  [CHARGE_STATUS.UNCHECKED]: "uncheck",
  [CHARGE_STATUS.FINISHED]: "isfinish",
  [CHARGE_STATUS.REJECTED]: "isreject",
  [CHARGE_STATUS.INVALID]: "unuseful",
};

/**
 * Withdrawal record status: funds move from balance to lock_balance when it is requested
 * (REVIEWING), leave lock_balance when it is paid, and return to balance when it is rejected or
 * cancelled by the user.
 */
export const WITHDRAW_STATUS = { REVIEWING: 0, PAID: 1, REJECTED: 2, CANCELLED: 3 } as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUS)[keyof typeof WITHDRAW_STATUS];

/** Withdrawal and draw-method `type`: 1 a crypto address, otherwise a bank account. */
export const DRAW_TYPE = { ADDRESS: 1, BANK: 2 } as const;

/** Withdrawal-currency `fee_type`: 1 a fixed fee, otherwise rate x amount. */
export const DRAW_FEE_TYPE = { FIXED: 1, RATE: 2 } as const;

/** Identity verification `review_status`: 0 not submitted, 1 waiting, anything else certified. */
export const REVIEW_STATUS = { NOT_SUBMITTED: 0, WAITING: 1, CERTIFIED: 2 } as const;
