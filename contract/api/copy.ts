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
import { remark } from "./admin";
import { OrderSchema } from "./trading";
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
} from "../fields";
import {
  COPY_MODES,
  COPY_STATUSES,
  COPY_STOP_REASONS,
  COPY_FUNDS_DIRECTIONS,
  PROVIDER_NAME_MAX,
  PROVIDER_DESCRIPTION_MAX,
} from "./copy-rules";
export * from "./copy-rules";

/** One copy as its owner sees it (money as USD decimal strings with 2 decimals). */
export const CopySchema = z.object({
  id: z.number().int(),
  provider_id: z.number().int(),
  provider_name: z.string(),
  status: z.enum(COPY_STATUSES),
  mode: z.enum(COPY_MODES),
  multiple: z.string().describe("the multiplier (proportional) or the lots (fixed)"),
  stop_loss_pct: z.number().int(),
  copy_open: z.boolean(),
  invested: z.string().describe("money put in minus money taken out"),
  balance: z.string(),
  equity: z.string().describe("balance plus the floating profit of the copied positions"),
  profit: z.string().describe("equity − invested"),
  stop_loss_level: z.string().describe("the equity at which the copy stop-loss fires"),
  free_margin: z.string().describe("what can be taken out now (the copy's free margin)"),
  open_positions: z.number().int(),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  stopped_at: z
    .string()
    .nullable()
    .describe('"YYYY-MM-DD HH:mm:ss" UTC, or null while not stopped'),
  stop_reason: z.enum(COPY_STOP_REASONS).nullable(),
});
export type Copy = z.infer<typeof CopySchema>;

/** A provider trade a copy did not take, and why (a translated message). */
export const SkippedTradeSchema = z.object({
  provider_order_id: z.number().int(),
  code: z.string().describe("show code of the instrument"),
  side: z.number().int().describe("ORDER_TYPE of the provider's trade"),
  lots: z.string().describe("the provider's lots"),
  reason: z.string(),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type SkippedTrade = z.infer<typeof SkippedTradeSchema>;

/** A copied position: an order as in my_deal, with the provider's position it follows. */
export const CopiedOrderSchema = OrderSchema.extend({
  provider_order_id: z.number().int().describe("the provider's position it follows"),
});

export const CopyDetailSchema = CopySchema.extend({
  positions: z
    .array(CopiedOrderSchema)
    .describe("open copied positions, each with the provider's position it follows"),
  closed: z
    .array(CopiedOrderSchema)
    .describe("closed copied positions, newest first (one page of PAGE_SIZE)"),
  skipped: z.array(SkippedTradeSchema),
});
export type CopyDetail = z.infer<typeof CopyDetailSchema>;

/** Skipped trades shown on a copy's page, newest first. */
export const COPY_SKIPPED_ROWS = 50;

/** A provider as copiers see it (GET /api/follow/provider). */
export const ProviderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  min_investment: z.string().describe("least amount a copy of this provider starts with, USD"),
  // The ranking item's statistics (three-week and total figures), as in GET /api/follow/list.
  three_week_rate: z.number(),
  three_week_win: z.number(),
  three_week_profit: z.string(),
  total_rate: z.number(),
  total_trade_num: z.number().int(),
  win_rate: z
    .number()
    .describe(
      "closed positions with a profit after fees, share of all closed, percent (2 decimals)",
    ),
  profit: z.string().describe("closed profit after fees since the start, USD"),
  max_drawdown: z
    .number()
    .describe(
      "largest fall of the closed equity curve from a previous peak, percent of that peak (2 decimals)",
    ),
  copiers: z.number().int(),
  copying: z
    .string()
    .describe("money in active and paused copies of this provider (their invested sums), USD"),
  instruments: z
    .array(z.string())
    .describe("show codes of the instruments traded, most traded first"),
  equity_curve: z
    .array(z.tuple([z.number().int(), z.number()]))
    .describe(
      "the closed equity curve: [epoch ms, equity USD], oldest first (at most EQUITY_POINTS)",
    ),
  open_positions: z
    .array(z.object({ code: z.string(), side: z.number().int() }))
    .describe("open positions, only as instrument and side"),
  last_trade: z
    .object({
      code: z.string(),
      side: z.number().int(),
      lots: z.string(),
      lot_step: z.string(),
    })
    .nullable()
    .describe("the provider's latest trade (for the copy form's example), or null"),
  equity: z.string().describe("the provider's equity now, USD (the proportional rule's divisor)"),
  risk_score: z
    .number()
    .int()
    .nullable()
    .describe("the risk score of the latest daily computation, 1 to 10 (null: not computed yet)"),
  risk: z
    .object({
      volatility: z
        .number()
        .describe("annualised volatility of daily returns, percent (2 decimals)"),
      leverage: z
        .number()
        .describe("mean leverage of the positions closed in the year (1 decimal)"),
      concentration: z
        .number()
        .describe("share of the year's closed positions in one instrument, percent (whole)"),
    })
    .nullable()
    .describe("what the risk score was computed from, null with it"),
  copy_refused: z
    .boolean()
    .describe(
      "true when the score is above the broker's limit (copy.max_risk_score): new copies are refused",
    ),
  risk_copy_max: z
    .number()
    .int()
    .describe("the broker's limit: new copies need a score at most this"),
  monthly_returns: z
    .array(z.object({ month: z.string().describe('"YYYY-MM" (UTC)'), rate: z.number() }))
    .describe(
      "each month's closed profit after fees over the equity at its start, percent (2 decimals), oldest first",
    ),
  average_holding_s: z.number().int().describe("mean time a closed position was held, seconds"),
});
export type Provider = z.infer<typeof ProviderSchema>;

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

export const followProvider = endpoint({
  data: ProviderSchema,
  method: "GET",
  path: "/api/follow/provider",
  readsEngine: true,
  auth: false,
  tag: "copy",
  summary: "A provider's figures, equity curve and open positions (instrument and side only)",
  query: providerQuery,
});

export const copyStart = endpoint({
  data: CopySchema,
  method: "POST",
  path: "/api/follow/copy",
  auth: true,
  tag: "copy",
  summary:
    "Copy a provider: the amount moves from free margin into a new copy (copy_in ledger rows)",
  idempotent: true,
  body: copyBody,
});

export const copyList = endpoint({
  data: z.array(CopySchema),
  method: "GET",
  path: "/api/follow/copies",
  readsEngine: true,
  auth: true,
  tag: "copy",
  summary: "The user's copies, newest first",
  query: z.object({ ...cacheBuster }),
});

export const copyDetail = endpoint({
  data: CopyDetailSchema,
  method: "GET",
  path: "/api/follow/copy",
  readsEngine: true,
  auth: true,
  tag: "copy",
  summary: "One copy of the user: figures, copied positions, skipped trades",
  query: z.object({ id, ...cacheBuster }),
});

export const copyPause = endpoint({
  data: CopySchema,
  method: "POST",
  path: "/api/follow/copy/:id/pause",
  auth: true,
  tag: "copy",
  summary: "Pause a copy: no new trades are mirrored; open ones still follow closes",
  idempotent: true,
  params: byId,
  body: z.object({}),
});

export const copyResume = endpoint({
  data: CopySchema,
  method: "POST",
  path: "/api/follow/copy/:id/resume",
  auth: true,
  tag: "copy",
  summary: "Resume a paused copy",
  idempotent: true,
  params: byId,
  body: z.object({}),
});

export const copyStop = endpoint({
  data: CopySchema,
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

export const copyFunds = endpoint({
  data: CopySchema,
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

export const copyClosePosition = endpoint({
  data: CopySchema,
  method: "POST",
  path: "/api/follow/copy/:id/close",
  auth: true,
  tag: "copy",
  summary: "Close one copied position at market; it is no longer mirrored",
  idempotent: true,
  params: byId,
  body: z.object({ position_id: id }),
});

/* A COPY_TRADE push (the copies with their figures) is the websocket's: contract/ws.ts. */

// ---------------------------------------------------------------- a user as a provider

/** The user's own provider settings (GET /api/follow/provider/mine). */
export const ProviderSettingsSchema = z.object({
  eligible: z
    .boolean()
    .describe(
      "whether the user may be a provider: a real (not demo) account whose real-name verification was approved",
    ),
  reason: z
    .string()
    .nullable()
    .describe("why the user may not be a provider (a translated message), null when eligible"),
  provider: z
    .object({
      id: z.number().int(),
      name: z.string(),
      description: z.string(),
      min_investment: z.string(),
      active: z.boolean().describe("false once the user stopped being a provider (no new copies)"),
      hidden: z.boolean().describe("true when an operator hid the provider"),
      copiers: z.number().int(),
    })
    .nullable()
    .describe("the settings once the user is (or was) a provider; null before"),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export const providerMine = endpoint({
  data: ProviderSettingsSchema,
  method: "GET",
  path: "/api/follow/provider/mine",
  auth: true,
  tag: "copy",
  summary: "The user's provider settings, and whether the user may be a provider",
  query: z.object({ ...cacheBuster }),
});

export const providerSave = endpoint({
  data: ProviderSettingsSchema,
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

export const providerStop = endpoint({
  data: ProviderSettingsSchema,
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
export const AdminCopySchema = CopySchema.extend({
  user_id: z.number().int(),
  uid: z.string(),
  stop_remark: z.string().nullable(),
});
export type AdminCopy = z.infer<typeof AdminCopySchema>;

/** A page of copies for operators. */
export const AdminCopyPageSchema = z.object({
  data: z.array(AdminCopySchema),
  total: z.number().int().describe("copies matching the filter"),
});

/** A provider as operators see it. */
export const AdminProviderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  style: z.string().describe('"user" for a real user, else the strategy\'s style'),
  hidden: z.boolean(),
  active: z.boolean(),
  copiers: z.number().int(),
  copying: z.string(),
});
export type AdminProvider = z.infer<typeof AdminProviderSchema>;

export const adminCopies = endpoint({
  data: AdminCopyPageSchema,
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

export const adminCopyStop = endpoint({
  data: AdminCopySchema,
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

export const adminProviders = endpoint({
  data: z.array(AdminProviderSchema),
  method: "GET",
  path: "/admin/api/providers",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every provider with its copiers and whether it is hidden",
  query: z.object({ ...cacheBuster }),
});

export const adminProviderHide = endpoint({
  data: AdminProviderSchema,
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
