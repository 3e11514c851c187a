/**
 * Money of a real account (upstream/API.md "Money"): withdrawal currencies, the wallet's withdrawal
 * destinations, withdrawals and the ledger. Every call needs the session token; demo accounts are
 * refused with `user.only_true_account`'s message. Amounts are USD unless named otherwise.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { CHANNEL_TYPE, DRAW_TYPE } from "../enums";
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
export interface DrawCurrency {
  id: number;
  /** DRAW_TYPE: 1 to an address, 2 to a bank account. */
  type: number;
  code: string;
  /** Network of a coin ("TRC20"); empty for a bank currency. */
  protocol: string;
  /** DRAW_FEE_TYPE 1: the fixed fee in USD; otherwise the fee's share of the amount. */
  draw_rate: number;
  fee_type: number;
  /** Units of the currency paid per USD (net = (amount - fee) x usd_price). */
  usd_price: number;
  /** Smallest and largest withdrawal, USD. */
  min: number;
  max: number;
}

/** A withdrawal destination of the wallet (get_draw_method). */
export interface DrawMethod {
  id: number;
  /** DRAW_TYPE. */
  type: number;
  dc_address: string | null;
  bank_name: string | null;
  bank_address: string | null;
  bank_swift: string | null;
  payee_name: string | null;
  payee_account: string | null;
  remark: string | null;
  draw_currency: { id: number; code: string; protocol: string };
}

/** A withdrawal (draw_list item, and the answer of draw and draw_cancel). */
export interface DrawRecord {
  id: number;
  /** Amount requested, USD. */
  number: number;
  /** What arrives, in the currency's units (decimal text, exact). */
  real_number: string;
  fee: number;
  draw_currency: { id: number; code: string; protocol: string };
  /** WITHDRAW_STATUS: 0 reviewing, 1 paid, 2 rejected, 3 cancelled. */
  status: number;
  /** The status in the request's language. */
  status_name: string;
  /** The operator's reason of a rejection. */
  remark: string | null;
  /** "YYYY-MM-DD HH:mm:ss" UTC. */
  created_at: string;
  /** DRAW_TYPE. */
  type: number;
  address: string | null;
  payee_account: string | null;
  /** The user's memo. */
  notes: string | null;
}

export interface DrawPage {
  data: DrawRecord[];
  total: number;
}

/** A ledger row (forexChange item). */
export interface LedgerItem {
  id: number;
  /** Signed amount, USD. */
  Value: number;
  /** Balance after this row, USD. */
  Balance: number;
  /** What the row is, in the request's language. */
  MemoTran: string;
  /** When, in the request's language (UTC). */
  CreatedAtTran: string;
  /** The row's kind (deposit, withdrawal_request, fee, ...). */
  Kind: string;
}

export interface LedgerPage {
  data: LedgerItem[];
  total: number;
}

export const drawSymbolList = endpoint<DrawCurrency[]>()({
  method: "GET",
  path: "/api/account/draw_symbol_list",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Currencies a withdrawal can be made in (type 1 address, 2 bank)",
  query: z.object({ type: drawType, ...cacheBuster }),
});

export const draw = endpoint<DrawRecord>()({
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
  }),
});

export const drawCancel = endpoint<DrawRecord>()({
  method: "POST",
  path: "/api/account/draw_cancel",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Cancel a withdrawal still under review: the amount returns to the balance",
  idempotent: true,
  body: z.object({ id }),
});

export const drawList = endpoint<DrawPage>()({
  method: "GET",
  path: "/api/account/draw_list",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Withdrawals of one type, PAGE_SIZE a page, newest first",
  query: z.object({ type: drawType, page: pageField(), ...cacheBuster }),
});

export const getDrawMethod = endpoint<DrawMethod[]>()({
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

export const bindDrawMethod = endpoint<DrawMethod>()({
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
  }),
});

export const delDrawMethod = endpoint<null>()({
  method: "POST",
  path: "/api/wallet/del_draw_method",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Delete a destination no withdrawal under review uses",
  body: z.object({ id }),
});

export const forexChange = endpoint<LedgerPage>()({
  method: "GET",
  path: "/v1/api/main/accountLog/forexChange",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "The account's ledger, PAGE_SIZE rows a page, newest first",
  query: z.object({ page: pageField(), ...cacheBuster }),
});

/** A coin deposit channel (quickCharge info). */
export interface ChargeChannel {
  id: number;
  currency_code: string;
  protocol_code: string;
  address: string;
  /** USD value of one coin: a deposit of N USD is N / usd_price coins. */
  usd_price: number;
}

/** A bank account to wire a deposit to (wire_info). */
export interface WireAccount {
  id: number;
  bank_coin: string;
  bank_name: string;
  bank_address: string;
  bank_swift: string;
  payee_name: string;
  payee_account: string;
  bank_remark: string;
}

/** A deposit (quick_ist item, and the answer of submit and wire_submit). */
export interface ChargeRecord {
  id: number;
  /** Amount declared, USD. */
  number: number;
  /** Amount credited (once finished), USD. */
  credited: number | null;
  /** DEPOSIT tab: 0 coin, 1 bank. */
  type: number;
  currency_code: string;
  /** CHARGE_STATUS: 0 unchecked, 1 finished, 2 rejected, 3 invalid. */
  status: number;
  /** The status in the request's language. */
  status_name: string;
  remark: string | null;
  /** "YYYY-MM-DD HH:mm:ss" UTC. */
  created_at: string;
}

export interface ChargePage {
  data: ChargeRecord[];
  total: number;
}

export const quickChargeInfo = endpoint<{ channels: ChargeChannel[]; min: number; max: number }>()({
  method: "GET",
  path: "/api/quickCharge/info",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Coin deposit channels (currency, network, address) and the deposit bounds",
  query: z.object({ ...cacheBuster }),
});

export const quickChargeSymbols = endpoint<string[]>()({
  method: "GET",
  path: "/api/quickCharge/symbols",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Currencies that can be deposited by coin",
  query: z.object({ ...cacheBuster }),
});

export const quickChargeSubmit = endpoint<ChargeRecord>()({
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

export const wireInfo = endpoint<WireAccount[]>()({
  method: "GET",
  path: "/api/quickCharge/wire_info",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Bank accounts to wire a deposit to, optionally of one currency (bank_coin)",
  query: z.object({ bank_coin: trimmed(16).optional(), ...cacheBuster }),
});

export const wireSubmit = endpoint<ChargeRecord>()({
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

export const quickList = endpoint<ChargePage>()({
  method: "GET",
  path: "/api/quickCharge/quick_ist",
  auth: true,
  realAccount: true,
  tag: "money",
  summary: "Deposits of one type (0 coin, 1 bank), PAGE_SIZE a page, newest first",
  query: z.object({ type: chargeType, page: pageField(), ...cacheBuster }),
});
