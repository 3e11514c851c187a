/**
 * The operator API (upstream/API.md "Operators"): under /admin/api/ only, the same envelope, and
 * never reachable with a user's token. Authorization: `Bearer <token>` where the token is the
 * upstream's OPERATOR_TOKEN (for scripts). Every action writes an append-only audit row.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { DRAW_FEE_TYPE, DRAW_TYPE } from "../enums";
import {
  choiceField,
  COIN_PRICE_RULE,
  decimalField,
  ID_DIGITS,
  optionalChoiceField,
  optionalUsdAmountField,
  optionalWholeField,
  pageField,
  RATE_RULE,
  signedUsdField,
  usdAmountField,
  USD_RULE,
  wholeField,
} from "../fields";
import { SWIFT } from "./finance";
import { OPERATOR_ROLES, PERMISSIONS } from "../operators";
import { REQUEST_STATUS, REQUEST_TABS, REQUEST_KINDS } from "./admin-rules";
import type { RequestKind } from "./admin-rules";
export * from "./admin-rules";

/** Who a queue item belongs to. */
export const AdminUserRefSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
});
export type AdminUserRef = z.infer<typeof AdminUserRefSchema>;

/** A deposit in the operators' queue. */
export const AdminChargeSchema = z.object({
  id: z.number().int(),
  user: AdminUserRefSchema,
  type: z.number().int().describe("CHANNEL_TYPE: 0 coin, 1 bank"),
  currency_code: z.string(),
  address: z.string().nullable(),
  number: z.number().describe("declared, USD"),
  credited: z.number().nullable().describe("credited, USD; null until approved"),
  status: z
    .number()
    .int()
    .describe("CHARGE_STATUS: 0 unchecked, 1 finished, 2 rejected, 3 invalid"),
  remark: z.string().nullable(),
  proof_url: z
    .string()
    .describe("where an operator reads the proof image (GET with the operator's token)"),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  decided_at: z.string().nullable().describe('"YYYY-MM-DD HH:mm:ss" UTC, or null while undecided'),
  decided_by: z.string().nullable(),
});
export type AdminCharge = z.infer<typeof AdminChargeSchema>;

/** A withdrawal in the operators' queue. */
export const AdminDrawSchema = z.object({
  id: z.number().int(),
  user: AdminUserRefSchema,
  type: z.number().int().describe("DRAW_TYPE: 1 to an address, 2 to a bank account"),
  currency: z
    .object({ id: z.number().int(), code: z.string(), protocol: z.string() })
    .describe("the currency and network as requested (kept on the withdrawal's own row)"),
  number: z.number().describe("requested, USD"),
  fee: z.number().describe("USD"),
  real_number: z.string().describe("what is paid, in the currency's units (decimal text)"),
  address: z.string().nullable(),
  bank_name: z.string().nullable(),
  payee_name: z.string().nullable(),
  payee_account: z.string().nullable(),
  notes: z.string().nullable().describe("the user's memo"),
  status: z
    .number()
    .int()
    .describe("WITHDRAW_STATUS: 0 reviewing, 1 paid, 2 rejected, 3 cancelled"),
  remark: z.string().nullable(),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  decided_at: z.string().nullable().describe('"YYYY-MM-DD HH:mm:ss" UTC, or null while undecided'),
  decided_by: z.string().nullable(),
});
export type AdminDraw = z.infer<typeof AdminDrawSchema>;

export interface AdminPage<T> {
  data: T[];
  total: number;
}
/** The schema of a page of an operators' list: PAGE_SIZE items and the list's total. */
export const adminPage = <S extends z.ZodTypeAny>(item: S) =>
  z.object({ data: z.array(item), total: z.number().int().describe("items in the list") });

/** A user found by the operators' search, with the account's money. */
export const AdminUserSchema = AdminUserRefSchema.extend({
  is_demo: z.number().int().describe("IS_DEMO: 1 a demo account"),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  balance: z.number().describe("USD"),
  lock_balance: z.number().describe("held by withdrawals under review, USD"),
  equity: z.number().describe("balance + floating profit, USD"),
  used_margin: z.number().describe("USD"),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

/** One audit row: who did what to what, the balance before and after, why, when. */
export const AuditRowSchema = z.object({
  id: z.number().int(),
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  user_id: z.number().int().nullable(),
  amount: z.number().nullable().describe("USD"),
  balance_before: z.number().nullable().describe("USD"),
  balance_after: z.number().nullable().describe("USD"),
  remark: z.string().nullable(),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type AuditRow = z.infer<typeof AuditRowSchema>;

/** Text as its trimmed value, at most `max` characters (`tooLong` as for `text`). */
const trimmed = (max: number, tooLong?: string) => text(max, tooLong).transform((s) => s.trim());

const byId = z.object({ id: wholeField(ID_DIGITS) });
/** A decision's reason: required (absent or blank is remark_required), at most 500 characters. */
export const remark = z.object({
  remark: z
    .preprocess((v) => v ?? "", trimmed(500))
    .refine((r) => r !== "", { message: "remark_required" }),
});
/**
 * The deciding operator's optional words on an approval: when the approval waits for a second
 * operator (four-eyes), the approver reads them beside the request.
 */
const approvalRemark = { remark: z.preprocess((v) => v ?? "", trimmed(500)) };
/** A queue's status (CHARGE_STATUS or WITHDRAW_STATUS, 0 to 3; default 0) and page. */
const queue = z.object({
  status: optionalChoiceField([0, 1, 2, 3], 0),
  page: pageField(),
  ...cacheBuster,
});

/**
 * Whose money a request moves (an adjustment, a deposit credited, a withdrawal paid), as the
 * approver must see it to judge: never only an internal id.
 */
export const RequestSubjectSchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  balance: z.string().describe("the user's balance as it stands now, USD (decimal text)"),
  amount: z
    .string()
    .describe(
      "what the request moves, USD (decimal text): signed for an adjustment, the amount credited or paid otherwise",
    ),
});
export type RequestSubject = z.infer<typeof RequestSubjectSchema>;

/** An action waiting for (or decided by) a second operator. */
export const OperatorRequestSchema = z.object({
  id: z.number().int(),
  kind: z.enum(REQUEST_KINDS),
  permission: z.enum(PERMISSIONS).describe("what approving needs (contract/operators.ts)"),
  target: z
    .string()
    .describe(
      'what it acts on: "charge_channel:3", "setting:limit.login_ip", "user:12", "charge:7"',
    ),
  summary: z.string().describe("what changes, as the approver reads it"),
  note: z
    .string()
    .nullable()
    .describe(
      "the requesting operator's own words (an adjustment's reason, an approval's remark), or null",
    ),
  subject: RequestSubjectSchema.nullable().describe(
    "the user whose money it moves, as it stands now; null for a catalogue or setting change",
  ),
  status: z.number().int().describe("REQUEST_STATUS: 0 pending, 1 approved, 2 rejected"),
  requested_by: z.string(),
  requested_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable().describe('"YYYY-MM-DD HH:mm:ss" UTC, or null while pending'),
  remark: z.string().nullable().describe("the deciding operator's remark, or null while pending"),
});
export type OperatorRequest = z.infer<typeof OperatorRequestSchema>;

/**
 * The answer of an action that needs a second operator: nothing changed yet; `msg` says it waits
 * for approval. Endpoints that may answer it say so in their summary.
 */
export const PendingApprovalSchema = z
  .object({ pending_request: OperatorRequestSchema })
  .describe("filed for a second operator: nothing changed yet");
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

/** An action's answer when it took effect, or the request filed when it needs a second operator. */
const orPending = <S extends z.ZodTypeAny>(done: S) => z.union([done, PendingApprovalSchema]);

/** True when an operator action's answer is a request waiting for a second operator. */
export function isPendingApproval(data: unknown): data is PendingApproval {
  return !!data && typeof data === "object" && "pending_request" in data;
}

export const charges = endpoint({
  data: adminPage(AdminChargeSchema),
  method: "GET",
  path: "/admin/api/charges",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Deposits by status (default 0, unchecked), PAGE_SIZE a page, oldest first",
  query: queue,
});

export const approveCharge = endpoint({
  data: orPending(AdminChargeSchema),
  method: "POST",
  path: "/admin/api/charges/:id/approve",
  auth: true,
  operator: "money",
  tag: "operators",
  summary:
    "Credit a deposit: the amount actually received (default the declared one), one ledger row (another amount, above deposit.max_usd or the four-eyes amounts: pending_request, a second operator credits it)",
  params: byId,
  body: z.object({
    amount: optionalUsdAmountField(USD_RULE, "deposit_amount_positive"),
    ...approvalRemark,
  }),
});

export const rejectCharge = endpoint({
  data: AdminChargeSchema,
  method: "POST",
  path: "/admin/api/charges/:id/reject",
  auth: true,
  operator: "money",
  tag: "operators",
  summary: "Reject a deposit with a remark the user sees; nothing is credited",
  params: byId,
  body: remark,
});

export const invalidCharge = endpoint({
  data: AdminChargeSchema,
  method: "POST",
  path: "/admin/api/charges/:id/invalid",
  auth: true,
  operator: "money",
  tag: "operators",
  summary: "Mark a deposit invalid with a remark; nothing is credited",
  params: byId,
  body: remark,
});

export const draws = endpoint({
  data: adminPage(AdminDrawSchema),
  method: "GET",
  path: "/admin/api/draws",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Withdrawals by status (default 0, under review), PAGE_SIZE a page, oldest first",
  query: queue,
});

export const approveDraw = endpoint({
  data: orPending(AdminDrawSchema),
  method: "POST",
  path: "/admin/api/draws/:id/approve",
  auth: true,
  operator: "money",
  tag: "operators",
  summary:
    "Mark a withdrawal paid: the amount leaves lock_balance (above the four-eyes amounts, a second operator pays it)",
  params: byId,
  body: z.object(approvalRemark),
});

export const rejectDraw = endpoint({
  data: AdminDrawSchema,
  method: "POST",
  path: "/admin/api/draws/:id/reject",
  auth: true,
  operator: "money",
  tag: "operators",
  summary: "Reject a withdrawal with a remark: the amount returns to the balance",
  params: byId,
  body: remark,
});

export const adjustments = endpoint({
  data: orPending(AuditRowSchema),
  method: "POST",
  path: "/admin/api/adjustments",
  auth: true,
  operator: "money",
  tag: "operators",
  summary:
    "Book a signed adjustment (ledger kind adjustment) with its reason; the same Idempotency-Key books it once (above the four-eyes amounts: pending_request, a second operator books it)",
  body: z.object({ uid: trimmed(64), amount: signedUsdField(USD_RULE), ...remark.shape }),
  idempotent: true,
});

export const resetTwoFactor = endpoint({
  data: PendingApprovalSchema,
  method: "POST",
  path: "/admin/api/users/two_factor_reset",
  auth: true,
  operator: "support",
  tag: "operators",
  summary:
    "Turn a user's two-factor sign-in off after checking who they are (the remark says how): always filed for a second operator; once approved the user's sessions end and the user is told by e-mail",
  body: z.object({ uid: trimmed(64), ...remark.shape }),
});

export const users = endpoint({
  data: z.array(AdminUserSchema),
  method: "GET",
  path: "/admin/api/users",
  readsEngine: true,
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Find users by uid, e-mail or phone (at most 20), with balance, lock_balance and equity",
  query: z.object({ q: trimmed(128).optional(), ...cacheBuster }),
});

/** One row of a user's ledger, for operators. */
export const AdminLedgerRowSchema = z.object({
  id: z.number().int(),
  amount: z.number().describe("signed, USD"),
  balance_after: z.number().describe("USD"),
  kind: z.string().describe("the ledger kind (deposit, fee, adjustment ...)"),
  kind_name: z.string().describe("the kind in the request's language"),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type AdminLedgerRow = z.infer<typeof AdminLedgerRowSchema>;

export const userLedger = endpoint({
  data: adminPage(AdminLedgerRowSchema),
  method: "GET",
  path: "/admin/api/users/:uid/ledger",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "A user's ledger by uid, PAGE_SIZE rows a page, newest first",
  params: z.object({ uid: trimmed(64) }),
  query: z.object({ page: pageField(), ...cacheBuster }),
});

export const audit = endpoint({
  data: adminPage(AuditRowSchema),
  method: "GET",
  path: "/admin/api/audit",
  auth: true,
  operator: "read",
  tag: "operators",
  summary:
    "The audit log, PAGE_SIZE rows a page, newest first; optionally only one actor's rows (an operator's name, or `token` for the scripts)",
  query: z.object({ page: pageField(), actor: trimmed(40).optional(), ...cacheBuster }),
});

export const OperatorSessionSchema = z.object({
  token: z.string().describe("send as `Authorization: Bearer <token>`"),
  name: z.string(),
  role: z
    .enum(OPERATOR_ROLES)
    .describe("what the operator may do (contract/operators.ts); a new role ends the session"),
  expires_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type OperatorSession = z.infer<typeof OperatorSessionSchema>;

export const login = endpoint({
  data: OperatorSessionSchema,
  method: "POST",
  path: "/admin/api/login",
  auth: false,
  tag: "operators",
  summary: "Operator sign-in: name, password and the authenticator's current code",
  body: z.object({ name: trimmed(40), password: text(128), code: trimmed(6) }),
});

export const logout = endpoint({
  data: z.null(),
  method: "POST",
  path: "/admin/api/logout",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "End the operator's sign-in (its token stops working)",
  body: z.object({}),
});

/** A setting operators may change, with its current value. */
export const AdminSettingSchema = z.object({
  key: z.string(),
  value: z.string().nullable().describe("null while unset"),
  describe: z.string().describe("what it governs (for the console), in the request's language"),
});
export type AdminSetting = z.infer<typeof AdminSettingSchema>;

export const settings = endpoint({
  data: z.array(AdminSettingSchema),
  method: "GET",
  path: "/admin/api/settings",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every setting operators may change, with its value",
  query: z.object({ ...cacheBuster }),
});

export const setSetting = endpoint({
  data: orPending(AdminSettingSchema),
  method: "POST",
  path: "/admin/api/settings",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary:
    "Change one setting: the value is checked for its key; audited with old and new value (a risk or security setting: pending_request, a second operator changes it)",
  body: z.object({ key: trimmed(64), value: trimmed(500) }),
});

/*
 * The money catalogue operators keep: coin deposit channels, bank accounts for wire deposits and
 * withdrawal currencies. Entries are never deleted (deposits and withdrawals name them); `enabled`
 * 0 hides one from users. Creating takes every required field; updating takes any of them and
 * checks the whole entry again. Each change is audited with the fields before and after.
 */

/** 1 shown to users, 0 hidden; a new entry is shown unless it says otherwise. */
const enabled = choiceField([0, 1]);
const newEnabled = optionalChoiceField([0, 1], 1);
/** The place in the users' lists, 0 to 99,999; a new entry's is 0 unless given. */
const SORT_MAX = 99_999;
const sort = wholeField(ID_DIGITS).refine((n) => n <= SORT_MAX);
const newSort = optionalWholeField(ID_DIGITS)
  .refine((n) => n === undefined || n <= SORT_MAX)
  .transform((n) => n ?? 0);
/** A required line of text: trimmed, not empty, at most `max` characters. */
const line = (max: number) => trimmed(max).refine((s) => s !== "");
/** A currency code: 2 to 10 letters or digits, as capitals ("usdt" is "USDT"). */
const code = trimmed(10)
  .transform((s) => s.toUpperCase())
  .refine((s) => /^[A-Z0-9]{2,10}$/.test(s));
/** A network name ("TRC20"): letters and digits, at most 16, as capitals; empty where allowed. */
const network = (required: boolean) =>
  trimmed(16)
    .transform((s) => s.toUpperCase())
    .refine((s) => /^[A-Z0-9]{0,16}$/.test(s) && (!required || s !== ""));
/** A price in USD of one coin (or coins per USD): above 0. */
const coinPrice = decimalField(COIN_PRICE_RULE).refine((v) => Number(v) > 0);
/** A bank's SWIFT/BIC, as capitals; anything else is wallet_swift_invalid. */
const swift = trimmed(11, "wallet_swift_invalid")
  .transform((s) => s.toUpperCase())
  .refine((s) => SWIFT.test(s), { message: "wallet_swift_invalid" });

/** An entry's flag: 1 shown to users, 0 hidden. */
const enabledFlag = z.number().int().describe("1 shown to users, 0 hidden");
/** An entry's place in the users' lists, lowest first. */
const sortPlace = z.number().int().describe("the place in the users' lists, lowest first");

/** A coin deposit channel as operators see it. */
export const AdminChargeChannelSchema = z.object({
  id: z.number().int(),
  currency_code: z.string(),
  protocol_code: z.string().describe('the network ("TRC20")'),
  address: z.string(),
  usd_price: z.string().describe("USD value of one coin (decimal text, exact)"),
  enabled: enabledFlag,
  sort: sortPlace,
});
export type AdminChargeChannel = z.infer<typeof AdminChargeChannelSchema>;

/** A bank account for wire deposits as operators see it. */
export const AdminWireAccountSchema = z.object({
  id: z.number().int(),
  bank_coin: z.string().describe('the currency wired ("USD")'),
  bank_name: z.string(),
  bank_address: z.string(),
  bank_swift: z.string(),
  payee_name: z.string(),
  payee_account: z.string(),
  bank_remark: z.string().describe("shown to the user; may be empty"),
  enabled: enabledFlag,
  sort: sortPlace,
});
export type AdminWireAccount = z.infer<typeof AdminWireAccountSchema>;

/** A withdrawal currency as operators see it. */
export const AdminDrawCurrencySchema = z.object({
  id: z.number().int(),
  type: z.number().int().describe("DRAW_TYPE: 1 to an address, 2 to a bank account"),
  code: z.string(),
  protocol: z.string().describe("a coin's network; empty for a bank currency"),
  draw_rate: z
    .string()
    .describe(
      "DRAW_FEE_TYPE 1: fixed fee in USD; otherwise the fee's share of the amount (decimal text)",
    ),
  fee_type: z.number().int().describe("DRAW_FEE_TYPE: 1 fixed, 2 a share of the amount"),
  usd_price: z.string().describe("units of the currency paid per USD (decimal text)"),
  min: z.number().describe("smallest withdrawal, USD"),
  max: z.number().describe("largest withdrawal, USD"),
  enabled: enabledFlag,
  sort: sortPlace,
});
export type AdminDrawCurrency = z.infer<typeof AdminDrawCurrencySchema>;

const channelFields = {
  currency_code: code,
  protocol_code: network(true),
  /** Checked for its network with the whole entry. */
  address: line(128),
  usd_price: coinPrice,
  enabled,
  sort,
};
const wireFields = {
  bank_coin: code,
  bank_name: line(120),
  bank_address: line(200),
  bank_swift: swift,
  payee_name: line(120),
  payee_account: line(64),
  /** May be empty. */
  bank_remark: trimmed(200),
  enabled,
  sort,
};
const drawCurrencyFields = {
  /** DRAW_TYPE. */
  type: choiceField([DRAW_TYPE.ADDRESS, DRAW_TYPE.BANK]),
  code,
  /** A coin's network; empty for a bank currency (checked with the whole entry). */
  protocol: network(false),
  /** At least 0; a share (fee_type 2) below 1 (checked with the whole entry). */
  draw_rate: decimalField(RATE_RULE),
  /** DRAW_FEE_TYPE. */
  fee_type: choiceField([DRAW_FEE_TYPE.FIXED, DRAW_FEE_TYPE.RATE]),
  usd_price: coinPrice,
  /** Not above max (checked with the whole entry). */
  min: usdAmountField(USD_RULE),
  max: usdAmountField(USD_RULE),
  enabled,
  sort,
};
const optional = <S extends z.ZodRawShape>(shape: S) => z.object(shape).partial();

export const chargeChannels = endpoint({
  data: z.array(AdminChargeChannelSchema),
  method: "GET",
  path: "/admin/api/charge_channels",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every coin deposit channel, hidden ones included",
  query: z.object({ ...cacheBuster }),
});

export const addChargeChannel = endpoint({
  data: PendingApprovalSchema,
  method: "POST",
  path: "/admin/api/charge_channels",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary:
    "Add a coin deposit channel (the address is checked for its network); always pending_request: a second operator adds it",
  body: z.object({ ...channelFields, enabled: newEnabled, sort: newSort }),
});

export const updateChargeChannel = endpoint({
  data: orPending(AdminChargeChannelSchema),
  method: "POST",
  path: "/admin/api/charge_channels/:id",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary:
    "Change a coin deposit channel: any of its fields; the whole entry is checked again (anything but hiding or sorting: pending_request)",
  params: byId,
  body: optional(channelFields),
});

export const wireAccounts = endpoint({
  data: z.array(AdminWireAccountSchema),
  method: "GET",
  path: "/admin/api/wire_accounts",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every bank account for wire deposits, hidden ones included",
  query: z.object({ ...cacheBuster }),
});

export const addWireAccount = endpoint({
  data: PendingApprovalSchema,
  method: "POST",
  path: "/admin/api/wire_accounts",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary:
    "Add a bank account for wire deposits; always pending_request: a second operator adds it",
  body: z.object({
    ...wireFields,
    bank_remark: wireFields.bank_remark.optional(),
    enabled: newEnabled,
    sort: newSort,
  }),
});

export const updateWireAccount = endpoint({
  data: orPending(AdminWireAccountSchema),
  method: "POST",
  path: "/admin/api/wire_accounts/:id",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary:
    "Change a bank account for wire deposits: any of its fields (anything but hiding or sorting: pending_request)",
  params: byId,
  body: optional(wireFields),
});

export const drawCurrencies = endpoint({
  data: z.array(AdminDrawCurrencySchema),
  method: "GET",
  path: "/admin/api/draw_currencies",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every withdrawal currency, hidden ones included",
  query: z.object({ ...cacheBuster }),
});

export const addDrawCurrency = endpoint({
  data: PendingApprovalSchema,
  method: "POST",
  path: "/admin/api/draw_currencies",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary:
    "Add a withdrawal currency: type, code, network, fee, price and bounds; always pending_request: a second operator adds it",
  body: z.object({
    ...drawCurrencyFields,
    protocol: drawCurrencyFields.protocol.optional(),
    enabled: newEnabled,
    sort: newSort,
  }),
});

export const updateDrawCurrency = endpoint({
  data: orPending(AdminDrawCurrencySchema),
  method: "POST",
  path: "/admin/api/draw_currencies/:id",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary:
    "Change a withdrawal currency: any of its fields except type; checked again as a whole (anything but hiding or sorting: pending_request)",
  params: byId,
  body: optional({
    ...(({ type: _type, ...rest }) => rest)(drawCurrencyFields),
    /** A currency's type is fixed once made: sending one is refused. */
    type: z.undefined(),
  }),
});

export const requests = endpoint({
  data: adminPage(OperatorRequestSchema),
  method: "GET",
  path: "/admin/api/requests",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Four-eyes requests by status (default 0, pending), PAGE_SIZE a page, newest first",
  query: z.object({
    status: optionalChoiceField(REQUEST_TABS, REQUEST_STATUS.PENDING),
    page: pageField(),
    ...cacheBuster,
  }),
});

/** An approved request of kind `kind`, with what its action answered. */
const approved = <K extends RequestKind, R extends z.ZodTypeAny>(kind: K, result: R) =>
  OperatorRequestSchema.extend({
    kind: z.literal(kind),
    result: result.describe("what the action answered when it was carried out"),
  });

/** An approved request, with what its action answered (by its kind). */
export const ApprovedRequestSchema = z.discriminatedUnion("kind", [
  approved(
    "catalog",
    z.union([AdminChargeChannelSchema, AdminWireAccountSchema, AdminDrawCurrencySchema]),
  ),
  approved("setting", AdminSettingSchema),
  approved("adjustment", AuditRowSchema),
  approved("charge.approve", AdminChargeSchema),
  approved("draw.approve", AdminDrawSchema),
  approved("two_factor.reset", z.object({ uid: z.string().describe("whose two-factor is off") })),
]);
/** A rejected request: nothing was carried out. */
export const RejectedRequestSchema = OperatorRequestSchema.extend({
  result: z.null().describe("nothing was carried out"),
});
/** A decided request, with what its action answered when approved (null when rejected). */
export type DecidedRequest =
  z.infer<typeof ApprovedRequestSchema> | z.infer<typeof RejectedRequestSchema>;

export const approveRequest = endpoint({
  data: ApprovedRequestSchema,
  method: "POST",
  path: "/admin/api/requests/:id/approve",
  auth: true,
  // Every role may reach it; the request's own permission decides (and nobody approves their own).
  operator: "read",
  tag: "operators",
  summary:
    "Approve a pending request with a remark: its action takes effect now, as requested (another operator's only, with the request's permission)",
  params: byId,
  body: remark,
});

export const rejectRequest = endpoint({
  data: RejectedRequestSchema,
  method: "POST",
  path: "/admin/api/requests/:id/reject",
  auth: true,
  operator: "read",
  tag: "operators",
  summary:
    "Reject a pending request with a remark: nothing changes (another operator's only, with the request's permission)",
  params: byId,
  body: remark,
});
