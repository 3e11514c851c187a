/**
 * Verification calls of the upstream (contract/api/verify.ts): the account's own (with the user's
 * token) and the operators' queue (with the console session's token, through opCall).
 */
import * as verifyApi from "@contract/api/verify";
import type { AdminPage } from "@contract/api/admin";
import { pathOf } from "@contract/api/endpoint";
import { type Caller, type UpstreamResult, send } from "./client.server";
import { opCall, type Ctx } from "./operator.server";

import type { AdminRealName, RealNameCenter } from "@contract/api/verify";

/** The account's verification state. */
export function realNameCenter(c: Caller): Promise<UpstreamResult<RealNameCenter>> {
  return send<RealNameCenter>(c, verifyApi.realNameCenter, {});
}

/** Submits the verification with the names of the two uploaded images. */
export function realName(
  c: Caller,
  p: { name: string; card_id: string; front_pic: string; reverse_pic: string },
): Promise<UpstreamResult<RealNameCenter>> {
  return send<RealNameCenter>(c, verifyApi.realName, p);
}

/** One page of the operators' queue of a REAL_NAME_REQUEST status. */
export const realNames = ({ request, op }: Ctx, status: number, page: number) =>
  opCall<AdminPage<AdminRealName>>(request, op, verifyApi.realNames, verifyApi.realNames.path, {
    review_status: status,
    page,
  });

export const approveRealName = ({ request, op }: Ctx, id: number) =>
  opCall<AdminRealName>(
    request,
    op,
    verifyApi.approveRealName,
    pathOf(verifyApi.approveRealName, { id }),
  );

export const rejectRealName = ({ request, op }: Ctx, id: number, remark: string) =>
  opCall<AdminRealName>(
    request,
    op,
    verifyApi.rejectRealName,
    pathOf(verifyApi.rejectRealName, { id }),
    { remark },
  );
