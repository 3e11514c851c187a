/** Money calls of the upstream (upstream/API.md "Money"): one typed function per call. */
import * as financeApi from "@contract/api/finance";
import type { LedgerPage } from "@contract/api/finance";
import { DRAW_TYPE } from "@contract/enums";
import { type Caller, type UpstreamResult, send } from "./client.server";

/** One page of the account's ledger, newest first (demo accounts are refused by the upstream). */
export function forexChange(c: Caller, page: number): Promise<UpstreamResult<LedgerPage>> {
  return send<LedgerPage>(c, financeApi.forexChange, { page });
}

import type { DrawCurrency, DrawMethod, DrawPage, DrawRecord } from "@contract/api/finance";

/** A withdrawal's kind: DRAW_TYPE.ADDRESS (a coin address) or DRAW_TYPE.BANK (a bank account). */
export type DrawType = (typeof DRAW_TYPE)[keyof typeof DRAW_TYPE];

/** Withdrawal currencies of a type. */
export function drawSymbolList(c: Caller, type: DrawType): Promise<UpstreamResult<DrawCurrency[]>> {
  return send<DrawCurrency[]>(c, financeApi.drawSymbolList, { type });
}

/** The wallet's destinations of a type, optionally only those of one withdrawal currency. */
export function getDrawMethod(
  c: Caller,
  type: DrawType,
  drawId?: number,
): Promise<UpstreamResult<DrawMethod[]>> {
  return send<DrawMethod[]>(c, financeApi.getDrawMethod, { draw_type: type, draw_id: drawId });
}

type BindParams = (
  | { type: typeof DRAW_TYPE.ADDRESS; draw_id: number; dc_address: string }
  | {
      type: typeof DRAW_TYPE.BANK;
      draw_id: number;
      bank_name: string;
      bank_address: string;
      bank_swift: string;
      payee_name: string;
      payee_account: string;
      remark?: string;
    }
) & {
  /** The second factor's code, when the account has two-factor sign-in on. */
  totp_code?: string;
};

/** Adds a destination (the upstream checks the address for its network, and the bank fields). */
export function bindDrawMethod(c: Caller, p: BindParams): Promise<UpstreamResult<DrawMethod>> {
  return send<DrawMethod>(c, financeApi.bindDrawMethod, { ...p });
}

/** Deletes a destination no withdrawal under review uses. */
export function delDrawMethod(c: Caller, id: number): Promise<UpstreamResult<null>> {
  return send<null>(c, financeApi.delDrawMethod, { id });
}

interface DrawParams {
  draw_currency_id: number;
  /** Amount, USD (decimal text as entered). */
  number: string;
  draw_method_id: number;
  memo?: string;
  /** The second factor's code, when the account has two-factor sign-in on. */
  totp_code?: string;
}

/** Requests a withdrawal (the form's idempotency key makes a repeated submit one withdrawal). */
export function draw(
  c: Caller,
  p: DrawParams,
  idempotencyKey: string | null,
): Promise<UpstreamResult<DrawRecord>> {
  return send<DrawRecord>(
    c,
    financeApi.draw,
    { ...p },
    {
      idempotencyKey: idempotencyKey ?? undefined,
    },
  );
}

/** Cancels a withdrawal still under review: the amount returns to the balance. */
export function drawCancel(
  c: Caller,
  id: number,
  idempotencyKey: string | null,
): Promise<UpstreamResult<DrawRecord>> {
  return send<DrawRecord>(
    c,
    financeApi.drawCancel,
    { id },
    {
      idempotencyKey: idempotencyKey ?? undefined,
    },
  );
}

/** One page of the account's withdrawals of a type, newest first. */
export function drawList(
  c: Caller,
  type: DrawType,
  page: number,
): Promise<UpstreamResult<DrawPage>> {
  return send<DrawPage>(c, financeApi.drawList, { type, page });
}

import type { ChargeChannel, ChargePage, ChargeRecord, WireAccount } from "@contract/api/finance";
import * as commonApi from "@contract/api/common";
import type { Upload } from "@contract/api/common";

/** Coin deposit channels and the deposit bounds (USD). */
export function quickChargeInfo(
  c: Caller,
): Promise<UpstreamResult<{ channels: ChargeChannel[]; min: number; max: number }>> {
  return send(c, financeApi.quickChargeInfo, {});
}

/** Bank accounts to wire a deposit to. */
export function wireInfo(c: Caller): Promise<UpstreamResult<WireAccount[]>> {
  return send<WireAccount[]>(c, financeApi.wireInfo, {});
}

/** One page of the account's deposits of a type (CHANNEL_TYPE), newest first. */
export function quickList(
  c: Caller,
  type: number,
  page: number,
): Promise<UpstreamResult<ChargePage>> {
  return send<ChargePage>(c, financeApi.quickList, { type, page });
}

/** Uploads one image (multipart, field `file`); the answer names it for a deposit's proofImg. */
export function imageUpload(c: Caller, file: File): Promise<UpstreamResult<Upload>> {
  const body = new FormData();
  body.append("file", file, file.name || "proof");
  return send<Upload>(c, commonApi.imageUpload, {}, { body });
}

/** Declares a coin deposit with its uploaded proof. */
export function quickChargeSubmit(
  c: Caller,
  p: { number: string; proofImg: string; address?: string; charge_id: number },
  idempotencyKey: string | null,
): Promise<UpstreamResult<ChargeRecord>> {
  return send<ChargeRecord>(c, financeApi.quickChargeSubmit, p, {
    idempotencyKey: idempotencyKey ?? undefined,
  });
}

/** Declares a bank wire deposit with its uploaded proof. */
export function wireSubmit(
  c: Caller,
  p: { number: string; proofImg: string; wire_id: number },
  idempotencyKey: string | null,
): Promise<UpstreamResult<ChargeRecord>> {
  return send<ChargeRecord>(c, financeApi.wireSubmit, p, {
    idempotencyKey: idempotencyKey ?? undefined,
  });
}
