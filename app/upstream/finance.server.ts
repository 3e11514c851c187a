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
