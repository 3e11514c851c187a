/** The operator API's views (contract/api/admin.ts) of deposits, withdrawals, requests and audit rows. */
import type * as api from "@contract/api/admin";
import { REQUEST_STATUS } from "@contract/api/admin";
import type { AppContext } from "../../../platform/context.js";
import { wireTime } from "../../../platform/wire.js";
import type { AuditRecord } from "../audit.js";
import { dec, MICRO } from "../../money/decimal.js";
import {
  chargeWithUser,
  drawUserAndDecider,
  userRefById,
  type UserRefRow,
} from "../console-store.js";
import type { RequestRecord } from "../requests.js";
import { catalogChangeNow, type CatalogPayload } from "../catalog.js";
import { usd } from "./shared.js";

const userRef = (r: UserRefRow): api.AdminUserRef => ({
  id: r.user_id,
  uid: r.uid,
  email: r.email,
  mobile: r.mobile,
});

/** Deposit `id` (which exists) with its user. */
export function chargeView(ctx: AppContext, id: number): api.AdminCharge {
  const r = chargeWithUser(ctx.db, { id })!;
  return {
    id: r.id as number,
    user: userRef(r),
    type: r.type as number,
    currency_code: r.currency_code as string,
    address: r.address as string | null,
    number: usd(r.amount_micro as number)!,
    credited: usd(r.credited_micro as number | null),
    status: r.status as number,
    remark: r.remark as string | null,
    proof_url: `/admin/api/uploads/${r.proof as string}`,
    created_at: wireTime(r.created_at as number),
    decided_at: r.decided_at ? wireTime(r.decided_at as number) : null,
    decided_by: r.decided_by as string | null,
  };
}

/** Withdrawal `id` (which exists) with its user. */
export function drawView(ctx: AppContext, id: number): api.AdminDraw {
  const d = ctx.withdrawals.get(id)!;
  const r = drawUserAndDecider(ctx.db, { id })!;
  return {
    id: d.id,
    user: userRef(r),
    type: d.type,
    currency: { id: d.currency.id, code: d.currency.code, protocol: d.currency.protocol },
    number: usd(d.amountMicro)!,
    fee: usd(d.feeMicro)!,
    real_number: d.net,
    address: d.address,
    bank_name: d.bankName,
    payee_name: d.payeeName,
    payee_account: d.payeeAccount,
    notes: d.memo,
    status: d.status,
    remark: d.remark,
    created_at: wireTime(d.createdAt),
    decided_at: d.decidedAt ? wireTime(d.decidedAt) : null,
    decided_by: r.decided_by,
  };
}

const usdText = (micro: number) => dec(micro).div(MICRO).toFixed(2);

/** The user and the amount a request moves (micro-USD), or null for a catalogue or setting change. */
function movedBy(
  ctx: AppContext,
  r: RequestRecord,
): { userId: number; amountMicro: number } | null {
  switch (r.kind) {
    case "adjustment": {
      const p = r.payload as { userId: number; amountMicro: number };
      return { userId: p.userId, amountMicro: p.amountMicro };
    }
    case "charge.approve": {
      const p = r.payload as { id: number; received: number | null };
      const c = ctx.deposits.get(p.id);
      return c && { userId: c.userId, amountMicro: p.received ?? c.amountMicro };
    }
    case "draw.approve": {
      const d = ctx.withdrawals.get((r.payload as { id: number }).id);
      return d && { userId: d.userId, amountMicro: d.amountMicro };
    }
    default:
      return null;
  }
}

/** Whose money a request moves, as it stands now (the approver judges today's balance). */
function subjectOf(ctx: AppContext, r: RequestRecord): api.RequestSubject | null {
  const moved = movedBy(ctx, r);
  const user = moved && userRefById(ctx.db, { userId: moved.userId });
  if (!moved || !user) return null;
  return {
    uid: user.uid,
    email: user.email,
    mobile: user.mobile,
    balance: usdText(ctx.money.balances(moved.userId)?.balanceMicro ?? 0),
    amount: usdText(moved.amountMicro),
  };
}

export const requestView = (ctx: AppContext, r: RequestRecord): api.OperatorRequest => ({
  id: r.id,
  kind: r.kind,
  permission: r.permission,
  target: r.target,
  // A pending catalogue change reads as it would change the entry now, not as filed.
  summary:
    (r.kind === "catalog" && r.status === REQUEST_STATUS.PENDING
      ? catalogChangeNow(ctx.db, r.payload as unknown as CatalogPayload)
      : null) ?? r.summary,
  note: r.note,
  subject: subjectOf(ctx, r),
  status: r.status,
  requested_by: r.requestedBy,
  requested_at: wireTime(r.requestedAt),
  decided_by: r.decidedBy,
  decided_at: r.decidedAt ? wireTime(r.decidedAt) : null,
  remark: r.remark,
});

export const auditView = (r: AuditRecord): api.AuditRow => ({
  id: r.id,
  actor: r.actor,
  action: r.action,
  target: r.target,
  user_id: r.userId,
  amount: usd(r.amountMicro),
  balance_before: usd(r.balanceBeforeMicro),
  balance_after: usd(r.balanceAfterMicro),
  remark: r.remark,
  created_at: wireTime(r.createdAt),
});
