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
import type { OperatorRole, Permission } from "../operators";

/** Who a queue item belongs to. */
export interface AdminUserRef {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
}

/** A deposit in the operators' queue. */
export interface AdminCharge {
  id: number;
  user: AdminUserRef;
  /** 0 coin, 1 bank. */
  type: number;
  currency_code: string;
  address: string | null;
  /** Declared, USD. */
  number: number;
  credited: number | null;
  status: number;
  remark: string | null;
  /** Where an operator reads the proof image (GET with the operator's token). */
  proof_url: string;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

/** A withdrawal in the operators' queue. */
export interface AdminDraw {
  id: number;
  user: AdminUserRef;
  type: number;
  currency: { id: number; code: string; protocol: string };
  number: number;
  fee: number;
  real_number: string;
  address: string | null;
  bank_name: string | null;
  payee_name: string | null;
  payee_account: string | null;
  notes: string | null;
  status: number;
  remark: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

export interface AdminPage<T> {
  data: T[];
  total: number;
}

/** A user found by the operators' search, with the account's money. */
export interface AdminUser extends AdminUserRef {
  is_demo: number;
  created_at: string;
  balance: number;
  lock_balance: number;
  equity: number;
  used_margin: number;
}

/** One audit row: who did what to what, the balance before and after, why, when. */
export interface AuditRow {
  id: number;
  actor: string;
  action: string;
  target: string;
  user_id: number | null;
  amount: number | null;
  balance_before: number | null;
  balance_after: number | null;
  remark: string | null;
  created_at: string;
}

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

export const charges = endpoint<AdminPage<AdminCharge>>()({
  method: "GET",
  path: "/admin/api/charges",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Deposits by status (default 0, unchecked), PAGE_SIZE a page, oldest first",
  query: queue,
});

export const approveCharge = endpoint<AdminCharge>()({
  method: "POST",
  path: "/admin/api/charges/:id/approve",
  auth: true,
  operator: "money",
  tag: "operators",
  summary:
    "Credit a deposit: the amount actually received (default the declared one), one ledger row",
  params: byId,
  body: z.object({
    amount: optionalUsdAmountField(USD_RULE, "deposit_amount_positive"),
    ...approvalRemark,
  }),
});

export const rejectCharge = endpoint<AdminCharge>()({
  method: "POST",
  path: "/admin/api/charges/:id/reject",
  auth: true,
  operator: "money",
  tag: "operators",
  summary: "Reject a deposit with a remark the user sees; nothing is credited",
  params: byId,
  body: remark,
});

export const invalidCharge = endpoint<AdminCharge>()({
  method: "POST",
  path: "/admin/api/charges/:id/invalid",
  auth: true,
  operator: "money",
  tag: "operators",
  summary: "Mark a deposit invalid with a remark; nothing is credited",
  params: byId,
  body: remark,
});

export const draws = endpoint<AdminPage<AdminDraw>>()({
  method: "GET",
  path: "/admin/api/draws",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Withdrawals by status (default 0, under review), PAGE_SIZE a page, oldest first",
  query: queue,
});

export const approveDraw = endpoint<AdminDraw>()({
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

export const rejectDraw = endpoint<AdminDraw>()({
  method: "POST",
  path: "/admin/api/draws/:id/reject",
  auth: true,
  operator: "money",
  tag: "operators",
  summary: "Reject a withdrawal with a remark: the amount returns to the balance",
  params: byId,
  body: remark,
});

export const adjustments = endpoint<AuditRow>()({
  method: "POST",
  path: "/admin/api/adjustments",
  auth: true,
  operator: "money",
  tag: "operators",
  summary:
    "Book a signed adjustment (ledger kind adjustment) with its reason; the same Idempotency-Key books it once",
  body: z.object({ uid: trimmed(64), amount: signedUsdField(USD_RULE), ...remark.shape }),
  idempotent: true,
});

export const users = endpoint<AdminUser[]>()({
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
export interface AdminLedgerRow {
  id: number;
  /** Signed, USD. */
  amount: number;
  balance_after: number;
  /** The ledger kind (deposit, fee, adjustment ...). */
  kind: string;
  /** The kind in the request's language. */
  kind_name: string;
  created_at: string;
}

export const userLedger = endpoint<AdminPage<AdminLedgerRow>>()({
  method: "GET",
  path: "/admin/api/users/:uid/ledger",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "A user's ledger by uid, PAGE_SIZE rows a page, newest first",
  params: z.object({ uid: trimmed(64) }),
  query: z.object({ page: pageField(), ...cacheBuster }),
});

export const audit = endpoint<AdminPage<AuditRow>>()({
  method: "GET",
  path: "/admin/api/audit",
  auth: true,
  operator: "read",
  tag: "operators",
  summary:
    "The audit log, PAGE_SIZE rows a page, newest first; optionally only one actor's rows (an operator's name, or `token` for the scripts)",
  query: z.object({ page: pageField(), actor: trimmed(40).optional(), ...cacheBuster }),
});

export interface OperatorSession {
  /** Send as `Authorization: Bearer <token>`. */
  token: string;
  name: string;
  /** What the operator may do (contract/operators.ts); a new role ends the session. */
  role: OperatorRole;
  /** "YYYY-MM-DD HH:mm:ss" UTC. */
  expires_at: string;
}

export const login = endpoint<OperatorSession>()({
  method: "POST",
  path: "/admin/api/login",
  auth: false,
  tag: "operators",
  summary: "Operator sign-in: name, password and the authenticator's current code",
  body: z.object({ name: trimmed(40), password: text(128), code: trimmed(6) }),
});

export const logout = endpoint<null>()({
  method: "POST",
  path: "/admin/api/logout",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "End the operator's sign-in (its token stops working)",
  body: z.object({}),
});

/** A setting operators may change, with its current value. */
export interface AdminSetting {
  key: string;
  value: string | null;
  /** What it governs (for the console). */
  describe: string;
}

export const settings = endpoint<AdminSetting[]>()({
  method: "GET",
  path: "/admin/api/settings",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every setting operators may change, with its value",
  query: z.object({ ...cacheBuster }),
});

export const setSetting = endpoint<AdminSetting>()({
  method: "POST",
  path: "/admin/api/settings",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary: "Change one setting: the value is checked for its key; audited with old and new value",
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

/** A coin deposit channel as operators see it. */
export interface AdminChargeChannel {
  id: number;
  currency_code: string;
  protocol_code: string;
  address: string;
  /** USD value of one coin (decimal text, exact). */
  usd_price: string;
  enabled: number;
  sort: number;
}

/** A bank account for wire deposits as operators see it. */
export interface AdminWireAccount {
  id: number;
  bank_coin: string;
  bank_name: string;
  bank_address: string;
  bank_swift: string;
  payee_name: string;
  payee_account: string;
  bank_remark: string;
  enabled: number;
  sort: number;
}

/** A withdrawal currency as operators see it. */
export interface AdminDrawCurrency {
  id: number;
  /** DRAW_TYPE. */
  type: number;
  code: string;
  protocol: string;
  /** DRAW_FEE_TYPE 1: fixed fee in USD; otherwise the fee's share of the amount (decimal text). */
  draw_rate: string;
  fee_type: number;
  /** Units of the currency paid per USD (decimal text). */
  usd_price: string;
  /** Smallest and largest withdrawal, USD. */
  min: number;
  max: number;
  enabled: number;
  sort: number;
}

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

export const chargeChannels = endpoint<AdminChargeChannel[]>()({
  method: "GET",
  path: "/admin/api/charge_channels",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every coin deposit channel, hidden ones included",
  query: z.object({ ...cacheBuster }),
});

export const addChargeChannel = endpoint<AdminChargeChannel>()({
  method: "POST",
  path: "/admin/api/charge_channels",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary: "Add a coin deposit channel (the address is checked for its network)",
  body: z.object({ ...channelFields, enabled: newEnabled, sort: newSort }),
});

export const updateChargeChannel = endpoint<AdminChargeChannel>()({
  method: "POST",
  path: "/admin/api/charge_channels/:id",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary: "Change a coin deposit channel: any of its fields; the whole entry is checked again",
  params: byId,
  body: optional(channelFields),
});

export const wireAccounts = endpoint<AdminWireAccount[]>()({
  method: "GET",
  path: "/admin/api/wire_accounts",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every bank account for wire deposits, hidden ones included",
  query: z.object({ ...cacheBuster }),
});

export const addWireAccount = endpoint<AdminWireAccount>()({
  method: "POST",
  path: "/admin/api/wire_accounts",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary: "Add a bank account for wire deposits",
  body: z.object({
    ...wireFields,
    bank_remark: wireFields.bank_remark.optional(),
    enabled: newEnabled,
    sort: newSort,
  }),
});

export const updateWireAccount = endpoint<AdminWireAccount>()({
  method: "POST",
  path: "/admin/api/wire_accounts/:id",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary: "Change a bank account for wire deposits: any of its fields",
  params: byId,
  body: optional(wireFields),
});

export const drawCurrencies = endpoint<AdminDrawCurrency[]>()({
  method: "GET",
  path: "/admin/api/draw_currencies",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every withdrawal currency, hidden ones included",
  query: z.object({ ...cacheBuster }),
});

export const addDrawCurrency = endpoint<AdminDrawCurrency>()({
  method: "POST",
  path: "/admin/api/draw_currencies",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary: "Add a withdrawal currency: type, code, network, fee, price and bounds",
  body: z.object({
    ...drawCurrencyFields,
    protocol: drawCurrencyFields.protocol.optional(),
    enabled: newEnabled,
    sort: newSort,
  }),
});

export const updateDrawCurrency = endpoint<AdminDrawCurrency>()({
  method: "POST",
  path: "/admin/api/draw_currencies/:id",
  auth: true,
  operator: "admin",
  tag: "operators",
  summary: "Change a withdrawal currency: any of its fields except type; checked again as a whole",
  params: byId,
  body: optional({
    ...(({ type: _type, ...rest }) => rest)(drawCurrencyFields),
    /** A currency's type is fixed once made: sending one is refused. */
    type: z.undefined(),
  }),
});

/** A four-eyes request's state. */
export const REQUEST_STATUS = { PENDING: 0, APPROVED: 1, REJECTED: 2 } as const;
export const REQUEST_TABS = [0, 1, 2] as const;

/** What a request does when approved. */
export const REQUEST_KINDS = [
  "catalog",
  "setting",
  "adjustment",
  "charge.approve",
  "draw.approve",
] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/**
 * Whose money a request moves (an adjustment, a deposit credited, a withdrawal paid), as the
 * approver must see it to judge: never only an internal id.
 */
export interface RequestSubject {
  uid: string;
  email: string | null;
  mobile: string | null;
  /** The user's balance as it stands now, USD. */
  balance: string;
  /** What the request moves, USD: signed for an adjustment, the amount credited or paid otherwise. */
  amount: string;
}

/** An action waiting for (or decided by) a second operator. */
export interface OperatorRequest {
  id: number;
  kind: RequestKind;
  /** What approving needs (contract/operators.ts). */
  permission: Permission;
  /** What it acts on: "charge_channel:3", "setting:limit.login_ip", "user:12", "charge:7". */
  target: string;
  /** What changes, as the approver reads it. */
  summary: string;
  /** The requesting operator's own words (an adjustment's reason, an approval's remark), or null. */
  note: string | null;
  /** The user whose money it moves, as it stands now; null for a catalogue or setting change. */
  subject: RequestSubject | null;
  status: number;
  requested_by: string;
  /** "YYYY-MM-DD HH:mm:ss" UTC. */
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
  remark: string | null;
}

/**
 * The answer of an action that needs a second operator: nothing changed yet; `msg` says it waits
 * for approval. Endpoints that may answer it say so in their summary.
 */
export interface PendingApproval {
  pending_request: OperatorRequest;
}

/** True when an operator action's answer is a request waiting for a second operator. */
export function isPendingApproval(data: unknown): data is PendingApproval {
  return !!data && typeof data === "object" && "pending_request" in data;
}

export const requests = endpoint<AdminPage<OperatorRequest>>()({
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

/** A decided request, with what its action answered when approved (null when rejected). */
export type DecidedRequest = OperatorRequest & { result: unknown };

export const approveRequest = endpoint<DecidedRequest>()({
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

export const rejectRequest = endpoint<DecidedRequest>()({
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
