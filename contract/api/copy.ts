/**
 * Copy trading (upstream/API.md "Copy trading"): a user copies a provider (a strategy trader, or a
 * real user who chose to be one) with an amount moved from free margin into a copy, its own
 * account with its own balance, equity and ledger rows (copy_in, copy_out). The provider's fills,
 * take-profit and stop-loss changes and closes are mirrored to every active copy as they happen;
 * each provider trade a copy could not take is recorded with its reason.
 *
 * The rules both programs read live here once: the modes, the multiplier's and the copy
 * stop-loss's bounds, and how a copy's lots follow the provider's (copyLots).
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { remark, type AdminPage } from "./admin";
import type { Order } from "./trading";
import { Dec } from "../exact";
import {
  AMOUNT_RULE,
  ID_DIGITS,
  LOTS_RULE,
  optionalDecimalField,
  optionalWholeField,
  optionalChoiceField,
  optionalUsdAmountField,
  pageField,
  usdAmountField,
  USD_RULE,
  wholeField,
  type DecimalRule,
} from "../fields";

export const COPY_MODES = ["proportional", "fixed"] as const;
export type CopyMode = (typeof COPY_MODES)[number];

export const COPY_STATUSES = ["active", "paused", "stopped"] as const;
export type CopyStatus = (typeof COPY_STATUSES)[number];

/** Why a copy ended: its owner stopped it, its copy stop-loss fired, or an operator stopped it. */
export const COPY_STOP_REASONS = ["user", "stop_loss", "operator"] as const;
export type CopyStopReason = (typeof COPY_STOP_REASONS)[number];

/** The proportional multiplier: 0.01 to 100, two decimals; 1 when not given. */
export const COPY_MULTIPLE = { min: "0.01", max: "100", default: "1" } as const;
export const MULTIPLE_RULE: DecimalRule = { intDigits: 3, places: 2 };

/**
 * The copy stop-loss, in percent of the money put in (5 to 95, 40 when not given): the copy ends,
 * every copied position closed at market, once its equity has lost this share of what was put in,
 * that is at an equity of invested × (100 − pct) / 100 (copyFloorMicro).
 */
export const COPY_STOP_LOSS_PCT = { min: 5, max: 95, default: 40 } as const;

/** Funds: add to the copy from free margin, or take back (never below what its positions need). */
export const COPY_FUNDS_DIRECTIONS = ["add", "remove"] as const;

/** The equity at which a copy's stop-loss fires, integer micro-USD (rounded up: never later). */
export function copyFloorMicro(investedMicro: number, stopLossPct: number): number {
  return Math.ceil((investedMicro * (100 - stopLossPct)) / 100);
}

/**
 * The lots a copy takes of a provider trade of `providerLots`, rounded down to the instrument's
 * lot step: proportional, provider lots × copy equity ÷ provider equity × multiplier; fixed, the
 * copy's own lots. Null when the provider's equity is not above 0 (nothing to scale by).
 */
export function copyLots(
  a: {
    mode: CopyMode;
    /** The multiplier (proportional) or the lots (fixed), as decimal text. */
    multiple: string;
    providerLots: string;
    copyEquityMicro: number;
    providerEquityMicro: number;
  },
  lotStep: string,
): string | null {
  const step = new Dec(lotStep);
  let lots: Dec;
  if (a.mode === "fixed") lots = new Dec(a.multiple);
  else {
    if (a.providerEquityMicro <= 0) return null;
    lots = new Dec(a.providerLots)
      .mul(Math.max(0, a.copyEquityMicro))
      .div(a.providerEquityMicro)
      .mul(a.multiple);
  }
  const steps = step.gt(0) ? lots.div(step).floor() : lots;
  return (step.gt(0) ? steps.mul(step) : steps).toFixed();
}

/** One copy as its owner sees it (money as USD decimal strings with 2 decimals). */
export interface Copy {
  id: number;
  provider_id: number;
  provider_name: string;
  status: CopyStatus;
  mode: CopyMode;
  /** The multiplier (proportional) or the lots (fixed). */
  multiple: string;
  stop_loss_pct: number;
  copy_open: boolean;
  /** Money put in minus money taken out. */
  invested: string;
  balance: string;
  /** Balance plus the floating profit of the copied positions. */
  equity: string;
  /** equity − invested. */
  profit: string;
  /** The equity at which the copy stop-loss fires. */
  stop_loss_level: string;
  /** What can be taken out now (the copy's free margin). */
  free_margin: string;
  open_positions: number;
  /** "YYYY-MM-DD HH:mm:ss" UTC. */
  created_at: string;
  stopped_at: string | null;
  stop_reason: CopyStopReason | null;
}

/** A provider trade a copy did not take, and why (a translated message). */
export interface SkippedTrade {
  provider_order_id: number;
  code: string;
  /** ORDER_TYPE of the provider's trade. */
  side: number;
  /** The provider's lots. */
  lots: string;
  reason: string;
  created_at: string;
}

export interface CopyDetail extends Copy {
  /** Open copied positions, each with the provider's position it follows. */
  positions: (Order & { provider_order_id: number })[];
  /** Closed copied positions, newest first (one page of PAGE_SIZE). */
  closed: (Order & { provider_order_id: number })[];
  skipped: SkippedTrade[];
}

/** Skipped trades shown on a copy's page, newest first. */
export const COPY_SKIPPED_ROWS = 50;

/** A provider as copiers see it (GET /api/follow/provider). */
export interface Provider {
  id: number;
  name: string;
  description: string;
  /** Least amount a copy of this provider starts with, USD. */
  min_investment: string;
  /** Statistics of the ranking item (three-week and total figures). */
  three_week_rate: number;
  three_week_win: number;
  three_week_profit: string;
  total_rate: number;
  total_trade_num: number;
  /** Closed positions with a profit after fees, share of all closed, percent (2 decimals). */
  win_rate: number;
  /** Closed profit after fees since the start, USD. */
  profit: string;
  /** Largest fall of the closed equity curve from a previous peak, percent of that peak (2 decimals). */
  max_drawdown: number;
  copiers: number;
  /** Money in active and paused copies of this provider (their invested sums), USD. */
  copying: string;
  /** Show codes of the instruments traded, most traded first. */
  instruments: string[];
  /** The closed equity curve: [epoch ms, equity USD], oldest first (at most EQUITY_POINTS). */
  equity_curve: [number, number][];
  /** Open positions, only as instrument and side. */
  open_positions: { code: string; side: number }[];
  /** The provider's latest trade (for the copy form's example), or null. */
  last_trade: { code: string; side: number; lots: string; lot_step: string } | null;
  /** The provider's equity now, USD (the proportional rule's divisor). */
  equity: string;
}

/** Points of a provider's equity curve. */
export const EQUITY_POINTS = 120;

const id = wholeField(ID_DIGITS);
const byId = z.object({ id });
/** A checkbox: "1", "on", "true" (or JSON true) on; absent, "0", "off", "false" off; else refused. */
const flag = z.preprocess(
  (v) =>
    v === undefined || v === null || v === ""
      ? undefined
      : // Only a scalar is read as text: anything else (an object, an array) is refused as it is.
        typeof v === "string" || typeof v === "number" || typeof v === "boolean"
        ? String(v)
        : v,
  z
    .enum(["1", "0", "true", "false", "on", "off"])
    .optional()
    .transform((v) => v === "1" || v === "true" || v === "on"),
);

/** A multiplier or fixed lots: plain decimal text (the service checks the bounds of its mode). */
const multipleField = optionalDecimalField(LOTS_RULE);

export const copyBody = z.object({
  provider_id: id,
  amount: usdAmountField(AMOUNT_RULE, "copy_amount_positive"),
  mode: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? "proportional" : v),
    z.enum(COPY_MODES),
  ),
  multiple: multipleField,
  stop_loss_pct: optionalWholeField(2),
  copy_open: flag,
});

export const providerQuery = z.object({ id, ...cacheBuster });

export const followProvider = endpoint<Provider>()({
  method: "GET",
  path: "/api/follow/provider",
  readsEngine: true,
  auth: false,
  tag: "copy",
  summary: "A provider's figures, equity curve and open positions (instrument and side only)",
  query: providerQuery,
});

export const copyStart = endpoint<Copy>()({
  method: "POST",
  path: "/api/follow/copy",
  auth: true,
  tag: "copy",
  summary:
    "Copy a provider: the amount moves from free margin into a new copy (copy_in ledger rows)",
  idempotent: true,
  body: copyBody,
});

export const copyList = endpoint<Copy[]>()({
  method: "GET",
  path: "/api/follow/copies",
  readsEngine: true,
  auth: true,
  tag: "copy",
  summary: "The user's copies, newest first",
  query: z.object({ ...cacheBuster }),
});

export const copyDetail = endpoint<CopyDetail>()({
  method: "GET",
  path: "/api/follow/copy",
  readsEngine: true,
  auth: true,
  tag: "copy",
  summary: "One copy of the user: figures, copied positions, skipped trades",
  query: z.object({ id, ...cacheBuster }),
});

export const copyPause = endpoint<Copy>()({
  method: "POST",
  path: "/api/follow/copy/:id/pause",
  auth: true,
  tag: "copy",
  summary: "Pause a copy: no new trades are mirrored; open ones still follow closes",
  idempotent: true,
  params: byId,
  body: z.object({}),
});

export const copyResume = endpoint<Copy>()({
  method: "POST",
  path: "/api/follow/copy/:id/resume",
  auth: true,
  tag: "copy",
  summary: "Resume a paused copy",
  idempotent: true,
  params: byId,
  body: z.object({}),
});

export const copyStop = endpoint<Copy>()({
  method: "POST",
  path: "/api/follow/copy/:id/stop",
  auth: true,
  tag: "copy",
  summary:
    "Stop a copy: its positions close at market and its equity returns to the balance (copy_out)",
  idempotent: true,
  params: byId,
  body: z.object({}),
});

export const copyFunds = endpoint<Copy>()({
  method: "POST",
  path: "/api/follow/copy/:id/funds",
  auth: true,
  tag: "copy",
  summary:
    "Add money to a copy from free margin, or take some back (never below what its positions need)",
  idempotent: true,
  params: byId,
  body: z.object({
    direction: z.enum(COPY_FUNDS_DIRECTIONS),
    amount: usdAmountField(AMOUNT_RULE, "copy_amount_positive"),
  }),
});

export const copyClosePosition = endpoint<Copy>()({
  method: "POST",
  path: "/api/follow/copy/:id/close",
  auth: true,
  tag: "copy",
  summary: "Close one copied position at market; it is no longer mirrored",
  idempotent: true,
  params: byId,
  body: z.object({ position_id: id }),
});

/** An open copied position's price and floating profit (USD, for display) at a push. */
export interface CopyPositionFigures {
  id: number;
  price: number;
  profit: number;
}

/**
 * A COPY_TRADE push (private): every copy of the user not stopped, with its figures now and each
 * open copied position's price and profit.
 */
export interface CopyTradePush {
  copies: (Copy & { positions: CopyPositionFigures[] })[];
}

// ---------------------------------------------------------------- a user as a provider

/** The least a provider may ask copiers to start with, and the most, USD. */
export const PROVIDER_MIN_INVESTMENT_MAX_USD = 1_000_000;
export const PROVIDER_NAME_MAX = 40;
export const PROVIDER_DESCRIPTION_MAX = 280;

/** The user's own provider settings (GET /api/follow/provider/mine). */
export interface ProviderSettings {
  /**
   * Whether the user may be a provider: a real (not demo) account whose real-name verification was
   * approved. `reason` says why not (a translated message), null when eligible.
   */
  eligible: boolean;
  reason: string | null;
  /** The settings once the user is (or was) a provider; null before. */
  provider: {
    id: number;
    name: string;
    description: string;
    min_investment: string;
    /** False once the user stopped being a provider (no new copies). */
    active: boolean;
    /** True when an operator hid the provider. */
    hidden: boolean;
    copiers: number;
  } | null;
}

export const providerMine = endpoint<ProviderSettings>()({
  method: "GET",
  path: "/api/follow/provider/mine",
  auth: true,
  tag: "copy",
  summary: "The user's provider settings, and whether the user may be a provider",
  query: z.object({ ...cacheBuster }),
});

export const providerSave = endpoint<ProviderSettings>()({
  method: "POST",
  path: "/api/follow/provider/mine",
  auth: true,
  realAccount: true,
  tag: "copy",
  summary:
    "Become a provider, or change the public name, description and minimum investment (verified real accounts)",
  body: z.object({
    name: text(PROVIDER_NAME_MAX, "provider_name_too_long").transform((s) => s.trim()),
    description: z
      .preprocess((v) => v ?? "", text(PROVIDER_DESCRIPTION_MAX, "provider_description_too_long"))
      .transform((s) => s.trim()),
    min_investment: optionalUsdAmountField(USD_RULE),
  }),
});

export const providerStop = endpoint<ProviderSettings>()({
  method: "POST",
  path: "/api/follow/provider/mine/stop",
  auth: true,
  tag: "copy",
  summary:
    "Stop being a provider: no new copies; existing copiers keep their copies until they stop them",
  body: z.object({}),
});

// ---------------------------------------------------------------- operators

/** A copy as operators see it: the copy's figures with its owner. */
export interface AdminCopy extends Copy {
  user_id: number;
  uid: string;
  stop_remark: string | null;
}

/** A provider as operators see it. */
export interface AdminProvider {
  id: number;
  name: string;
  /** "user" for a real user, else the strategy's style. */
  style: string;
  hidden: boolean;
  active: boolean;
  copiers: number;
  copying: string;
}

export const adminCopies = endpoint<AdminPage<AdminCopy>>()({
  method: "GET",
  path: "/admin/api/copies",
  readsEngine: true,
  auth: true,
  operator: "read",
  tag: "operators",
  summary:
    "Copies, newest first, PAGE_SIZE a page: optionally of one user (uid) or provider, or of one status",
  query: z.object({
    uid: text(64).optional(),
    provider_id: optionalWholeField(ID_DIGITS),
    /** 0 every copy (default), else COPY_STATUSES[status - 1]: 1 active, 2 paused, 3 stopped. */
    status: optionalChoiceField([0, 1, 2, 3], 0),
    page: pageField(),
    ...cacheBuster,
  }),
});

export const adminCopyStop = endpoint<AdminCopy>()({
  method: "POST",
  path: "/admin/api/copies/:id/stop",
  auth: true,
  operator: "money",
  tag: "operators",
  summary:
    "Stop a copy with a remark its owner sees: positions closed at market, money returned (audited)",
  params: byId,
  body: remark,
});

export const adminProviders = endpoint<AdminProvider[]>()({
  method: "GET",
  path: "/admin/api/providers",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every provider with its copiers and whether it is hidden",
  query: z.object({ ...cacheBuster }),
});

export const adminProviderHide = endpoint<AdminProvider>()({
  method: "POST",
  path: "/admin/api/providers/:id/hide",
  auth: true,
  operator: "support",
  tag: "operators",
  summary:
    "Hide a provider from copiers (hidden 1) or show it again (0), with a remark (audited); existing copies go on",
  params: byId,
  body: remark.extend({ hidden: optionalChoiceField([0, 1], 1) }),
});
