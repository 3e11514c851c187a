/** Money calls of the upstream (upstream/API.md "Money"): one typed function per call. */
import * as financeApi from "@contract/api/finance";
import type { LedgerPage } from "@contract/api/finance";
import { type Caller, type UpstreamResult, send } from "./client.server";

export type { LedgerItem, LedgerPage } from "@contract/api/finance";

/** One page of the account's ledger, newest first (demo accounts are refused by the upstream). */
export function forexChange(c: Caller, page: number): Promise<UpstreamResult<LedgerPage>> {
  return send<LedgerPage>(c, financeApi.forexChange, { page });
}

export type { DrawCurrency, DrawMethod } from "@contract/api/finance";
import type { DrawCurrency, DrawMethod } from "@contract/api/finance";

/** Withdrawal currencies of a type (1 address, 2 bank). */
export function drawSymbolList(c: Caller, type: 1 | 2): Promise<UpstreamResult<DrawCurrency[]>> {
  return send<DrawCurrency[]>(c, financeApi.drawSymbolList, { type });
}

/** The wallet's destinations of a type. */
export function getDrawMethod(c: Caller, type: 1 | 2): Promise<UpstreamResult<DrawMethod[]>> {
  return send<DrawMethod[]>(c, financeApi.getDrawMethod, { draw_type: type });
}

export type BindParams =
  | { type: 1; draw_id: number; dc_address: string }
  | {
      type: 2;
      draw_id: number;
      bank_name: string;
      bank_address: string;
      bank_swift: string;
      payee_name: string;
      payee_account: string;
      remark?: string;
    };

/** Adds a destination (the upstream checks the address for its network, and the bank fields). */
export function bindDrawMethod(c: Caller, p: BindParams): Promise<UpstreamResult<DrawMethod>> {
  return send<DrawMethod>(c, financeApi.bindDrawMethod, { ...p });
}

/** Deletes a destination no withdrawal under review uses. */
export function delDrawMethod(c: Caller, id: number): Promise<UpstreamResult<null>> {
  return send<null>(c, financeApi.delDrawMethod, { id });
}

export type { ChargeChannel, ChargePage, ChargeRecord, WireAccount } from "@contract/api/finance";
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
