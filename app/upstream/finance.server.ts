/** Money calls of the upstream (upstream/API.md "Money"): one typed function per call. */
import * as financeApi from "@contract/api/finance";
import type { LedgerPage } from "@contract/api/finance";
import { type Caller, type UpstreamResult, send } from "./client.server";

export type { LedgerItem, LedgerPage } from "@contract/api/finance";

/** One page of the account's ledger, newest first (demo accounts are refused by the upstream). */
export function forexChange(c: Caller, page: number): Promise<UpstreamResult<LedgerPage>> {
  return send<LedgerPage>(c, financeApi.forexChange, { page });
}
