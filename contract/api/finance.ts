/**
 * Money of a real account (upstream/API.md "Money"): withdrawal currencies, the wallet's withdrawal
 * destinations, withdrawals and the ledger. Every call needs the session token; demo accounts are
 * refused with `user.only_true_account`'s message. Amounts are USD unless named otherwise.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { CHANNEL_TYPE, DRAW_TYPE } from "../enums";
import { totpCodeField } from "./security";
import {
  AMOUNT_RULE,
  ID_DIGITS,
  optionalChoiceField,
  optionalWholeField,
  pageField,
  usdAmountField,
  wholeField,
} from "../fields";

/** A row's id (a currency, a destination, a withdrawal, a channel). */
const id = wholeField(ID_DIGITS);
/** A destination or currency type (DRAW_TYPE): 1 address (the default) or 2 bank. */
const drawType = optionalChoiceField([DRAW_TYPE.ADDRESS, DRAW_TYPE.BANK], DRAW_TYPE.ADDRESS);
/** A deposit type (CHANNEL_TYPE): 0 coin (the default) or 1 bank. */
const chargeType = optionalChoiceField([CHANNEL_TYPE.COIN, CHANNEL_TYPE.BANK], CHANNEL_TYPE.COIN);
/** Text as its trimmed value, at most `max` characters (`tooLong` as for `text`). */
const trimmed = (max: number, tooLong?: string) => text(max, tooLong).transform((s) => s.trim());

/** SWIFT/BIC: 4 bank letters, 2 country letters, 2 location characters, optional 3 branch ones. */
export const SWIFT = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/** A currency users withdraw in (draw_symbol_list). */
export const DrawCurrencySchema = z.object({
  id: z.number().int(),
  type: z.number().int().describe("DRAW_TYPE: 1 to an address, 2 to a bank account"),
  code: z.string(),
  protocol: z.string().describe('network of a coin ("TRC20"); empty for a bank currency'),
  draw_rate: z
    .number()
    .describe("DRAW_FEE_TYPE 1: the fixed fee in USD; otherwise the fee's share of the amount"),
  fee_type: z.number().int().describe("DRAW_FEE_TYPE: 1 fixed, 2 a share of the amount"),
  usd_price: z
    .number()
    .describe("units of the currency paid per USD (net = (amount - fee) x usd_price)"),
  min: z.number().describe("smallest withdrawal, USD"),
  max: z.number().describe("largest withdrawal, USD"),
});
export type DrawCurrency = z.infer<typeof DrawCurrencySchema>;

/** The withdrawal currency of a destination or a withdrawal. */
const DrawCurrencyRefSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  protocol: z.string(),
});

/** A withdrawal destination of the wallet (get_draw_method). */
export const DrawMethodSchema = z.object({
  id: z.number().int(),
  type: z.number().int().describe("DRAW_TYPE"),
  dc_address: z.string().nullable(),
  bank_name: z.string().nullable(),
  bank_address: z.string().nullable(),
  bank_swift: z.string().nullable(),
  payee_name: z.string().nullable(),
  payee_account: z.string().nullable(),
  remark: z.string().nullable(),
  draw_currency: DrawCurrencyRefSchema,
});
export type DrawMethod = z.infer<typeof DrawMethodSchema>;

/** A withdrawal (draw_list item, and the answer of draw and draw_cancel). */
export const DrawRecordSchema = z.object({
  id: z.number().int(),
  number: z.number().describe("amount requested, USD"),
  real_number: z.string().describe("what arrives, in the currency's units (decimal text, exact)"),
  fee: z.number(),
  draw_currency: DrawCurrencyRefSchema,
  status: z
    .number()
    .int()
    .describe("WITHDRAW_STATUS: 0 reviewing, 1 paid, 2 rejected, 3 cancelled"),
  status_name: z.string().describe("the status in the request's language"),
  remark: z.string().nullable().describe("the operator's reason of a rejection"),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  type: z.number().int().describe("DRAW_TYPE"),
  address: z.string().nullable(),
  payee_account: z.string().nullable(),
  notes: z.string().nullable().describe("the user's memo"),
});
export type DrawRecord = z.infer<typeof DrawRecordSchema>;

export const DrawPageSchema = z.object({
  data: z.array(DrawRecordSchema),
  total: z.number().int(),
});
export type DrawPage = z.infer<typeof DrawPageSchema>;

/** A ledger row (forexChange item). */
export const LedgerItemSchema = z.object({
  id: z.number().int(),
  Value: z.number().describe("signed amount, USD"),
  Balance: z.number().describe("balance after this row, USD"),
  MemoTran: z.string().describe("what the row is, in the request's language"),
  CreatedAtTran: z.string().describe("when, in the request's language (UTC)"),
  Kind: z.string().describe("the row's kind (deposit, withdrawal_request, fee, ...)"),
});
export type LedgerItem = z.infer<typeof LedgerItemSchema>;

export const LedgerPageSchema = z.object({
  data: z.array(LedgerItemSchema),
  total: z.number().int(),
});
export type LedgerPage = z.infer<typeof LedgerPageSchema>;

export const drawSymbolList = endpoint({
  data: z.array(DrawCurrencySchema),
  method: "GET",
  path: "/api/account/draw_symbol_list",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Currencies a withdrawal can be made in (type 1 address, 2 bank)",
  query: z.object({ type: drawType, ...cacheBuster }),
});

export const draw = endpoint({
  data: DrawRecordSchema,
  method: "POST",
  path: "/api/account/draw",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Request a withdrawal: the amount moves from balance to lock_balance until reviewed",
  idempotent: true,
  body: z.object({
    draw_currency_id: id,
    /** Amount, USD: to the cent, above 0. */
    number: usdAmountField(AMOUNT_RULE, "withdraw_amount_positive"),
    draw_method_id: id,
    memo: trimmed(200).optional(),
    /** Required when the account has two-factor sign-in on: the app's code or a backup code. */
    totp_code: totpCodeField(),
  }),
});

export const drawCancel = endpoint({
  data: DrawRecordSchema,
  method: "POST",
  path: "/api/account/draw_cancel",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Cancel a withdrawal still under review: the amount returns to the balance",
  idempotent: true,
  body: z.object({ id }),
});

export const drawList = endpoint({
  data: DrawPageSchema,
  method: "GET",
  path: "/api/account/draw_list",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Withdrawals of one type, PAGE_SIZE a page, newest first",
  query: z.object({ type: drawType, page: pageField(), ...cacheBuster }),
});

export const getDrawMethod = endpoint({
  data: z.array(DrawMethodSchema),
  method: "GET",
  path: "/api/wallet/get_draw_method",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "The wallet's destinations of a type (draw_type), optionally of one currency (draw_id)",
  query: z.object({
    draw_type: drawType,
    draw_id: optionalWholeField(ID_DIGITS),
    ...cacheBuster,
  }),
});

export const bindDrawMethod = endpoint({
  data: DrawMethodSchema,
  method: "POST",
  path: "/api/wallet/bind_draw_method",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Add a destination: a coin address (type 1) or a bank account (type 2)",
  body: z.object({
    /** DRAW_TYPE: 1 address (the default), 2 bank. */
    type: drawType,
    /** The withdrawal currency it receives. */
    draw_id: id,
    /** An address: required for type 1 and checked for the currency's network (a service rule). */
    dc_address: trimmed(128).optional(),
    /** A bank account (type 2): every field but the remark required (a service rule). */
    bank_name: trimmed(120, "wallet_bank_required").optional(),
    bank_address: trimmed(200, "wallet_bank_required").optional(),
    bank_swift: trimmed(11, "wallet_swift_invalid").optional(),
    payee_name: trimmed(120, "wallet_bank_required").optional(),
    payee_account: trimmed(64, "wallet_bank_required").optional(),
    remark: trimmed(200).optional(),
    /** Required when the account has two-factor sign-in on: the app's code or a backup code. */
    totp_code: totpCodeField(),
  }),
});

export const delDrawMethod = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/wallet/del_draw_method",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Delete a destination no withdrawal under review uses",
  body: z.object({ id }),
});

export const forexChange = endpoint({
  data: LedgerPageSchema,
  method: "GET",
  path: "/v1/api/main/accountLog/forexChange",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "The account's ledger, PAGE_SIZE rows a page, newest first",
  query: z.object({ page: pageField(), ...cacheBuster }),
});

/** A coin deposit channel (quickCharge info). */
export const ChargeChannelSchema = z.object({
  id: z.number().int(),
  currency_code: z.string(),
  protocol_code: z.string(),
  address: z.string(),
  usd_price: z
    .number()
    .describe("USD value of one coin: a deposit of N USD is N / usd_price coins"),
});
export type ChargeChannel = z.infer<typeof ChargeChannelSchema>;

/** A bank account to wire a deposit to (wire_info). */
export const WireAccountSchema = z.object({
  id: z.number().int(),
  bank_coin: z.string(),
  bank_name: z.string(),
  bank_address: z.string(),
  bank_swift: z.string(),
  payee_name: z.string(),
  payee_account: z.string(),
  bank_remark: z.string(),
});
export type WireAccount = z.infer<typeof WireAccountSchema>;

/** A deposit (quick_ist item, and the answer of submit and wire_submit). */
export const ChargeRecordSchema = z.object({
  id: z.number().int(),
  number: z.number().describe("amount declared, USD"),
  credited: z.number().nullable().describe("amount credited (once finished), USD"),
  type: z.number().int().describe("DEPOSIT tab: 0 coin, 1 bank"),
  currency_code: z.string(),
  status: z
    .number()
    .int()
    .describe("CHARGE_STATUS: 0 unchecked, 1 finished, 2 rejected, 3 invalid"),
  status_name: z.string().describe("the status in the request's language"),
  remark: z.string().nullable(),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type ChargeRecord = z.infer<typeof ChargeRecordSchema>;

export const ChargePageSchema = z.object({
  data: z.array(ChargeRecordSchema),
  total: z.number().int(),
});
export type ChargePage = z.infer<typeof ChargePageSchema>;

export const quickChargeInfo = endpoint({
  data: z.object({
    channels: z.array(ChargeChannelSchema),
    min: z.number().describe("smallest deposit, USD"),
    max: z.number().describe("largest deposit, USD"),
  }),
  method: "GET",
  path: "/api/quickCharge/info",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Coin deposit channels (currency, network, address) and the deposit bounds",
  query: z.object({ ...cacheBuster }),
});

export const quickChargeSymbols = endpoint({
  data: z.array(z.string()),
  method: "GET",
  path: "/api/quickCharge/symbols",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Currencies that can be deposited by coin",
  query: z.object({ ...cacheBuster }),
});

export const quickChargeSubmit = endpoint({
  data: ChargeRecordSchema,
  method: "POST",
  path: "/api/quickCharge/submit",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Declare a coin deposit with its proof image; credited once an operator approves it",
  idempotent: true,
  body: z.object({
    /** Amount, USD: to the cent, above 0. */
    number: usdAmountField(AMOUNT_RULE, "withdraw_amount_positive"),
    /** The uploaded proof's name (image_upload). */
    proofImg: trimmed(200),
    /** The channel's address, as shown when the user sent the coins. */
    address: text(128).optional(),
    /** The channel. */
    charge_id: id,
  }),
});

export const wireInfo = endpoint({
  data: z.array(WireAccountSchema),
  method: "GET",
  path: "/api/quickCharge/wire_info",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Bank accounts to wire a deposit to, optionally of one currency (bank_coin)",
  query: z.object({ bank_coin: trimmed(16).optional(), ...cacheBuster }),
});

export const wireSubmit = endpoint({
  data: ChargeRecordSchema,
  method: "POST",
  path: "/api/quickCharge/wire_submit",
  auth: true,
  realAccount: true,
  tag: "money",
  summary:
    "Declare a bank wire deposit with its proof image; credited once an operator approves it",
  idempotent: true,
  body: z.object({
    number: usdAmountField(AMOUNT_RULE, "deposit_amount_positive"),
    proofImg: trimmed(200),
    wire_id: id,
  }),
});

export const quickList = endpoint({
  data: ChargePageSchema,
  method: "GET",
  path: "/api/quickCharge/quick_ist",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Deposits of one type (0 coin, 1 bank), PAGE_SIZE a page, newest first",
  query: z.object({ type: chargeType, page: pageField(), ...cacheBuster }),
});
