/**
 * The operator actions on money and settings, each committed with its audit row in one
 * transaction: used by the endpoints that act at once and by the four-eyes requests that act when
 * approved (four-eyes.ts).
 */
import type * as api from "@contract/api/admin";
import type { AppContext } from "../../../platform/context.js";
import { CODE_FAIL, DomainError } from "../../../platform/errors.js";
import type { OperatorCaller } from "../../../platform/http/operator-guard.js";
import { getSetting, setSetting as setStoredSetting } from "../../../platform/settings.js";
import { dec, MICRO } from "../../money/decimal.js";
import { auditRecord, writeAudit } from "../audit.js";
import { SETTINGS } from "../settings-registry.js";
import { accountRoleOf } from "../console-store.js";
import { assertMayPayOut } from "../money-controls.js";
import { notFound, receivedNote } from "./shared.js";
import { auditView } from "./views.js";

/** The action on a user's money that `audited` books, with what its audit row says. */
interface MoneyAction<T> {
  op: { actor: string };
  action: string;
  target: string;
  userId: number;
  run: () => T;
  amountMicro: (result: T) => number | null;
  remark: string | null;
  /** The four-eyes request whose approval carries it out; null or absent: one operator alone. */
  requestId?: number | null;
}

/** Runs an action on a user's money with its audit row, in one transaction. */
export function audited<T>(ctx: AppContext, a: MoneyAction<T>): T {
  const { money } = ctx;
  return money.transaction(() => {
    const before = money.balances(a.userId)!;
    const result = a.run();
    const after = money.balances(a.userId)!;
    // A withdrawal's decision moves the held amount, not the balance: its row says so too.
    const lock =
      before.lockMicro === after.lockMicro
        ? null
        : `lock_balance ${dec(before.lockMicro).div(MICRO).toFixed(2)} -> ${dec(after.lockMicro).div(MICRO).toFixed(2)}`;
    writeAudit(ctx.db, {
      actor: a.op.actor,
      action: a.action,
      target: a.target,
      userId: a.userId,
      amountMicro: a.amountMicro(result),
      balanceBeforeMicro: before.balanceMicro,
      balanceAfterMicro: after.balanceMicro,
      remark: [a.remark, lock].filter(Boolean).join("; ") || null,
      requestId: a.requestId ?? null,
    });
    return result;
  });
}

/** Deposit `id`, or the 404 refusal. */
export function chargeOwner(ctx: AppContext, id: number) {
  const c = ctx.deposits.get(id);
  if (!c) throw notFound();
  return c;
}

/** Withdrawal `id`, or the 404 refusal. */
export function drawOwner(ctx: AppContext, id: number) {
  const d = ctx.withdrawals.get(id);
  if (!d) throw notFound();
  return d;
}

/**
 * The deposit approval as booked: credited (`received`, or as declared), with its audit row, by
 * `op` (as the approver of request `requestId`, when a second operator was needed).
 */
export function approveDeposit(
  ctx: AppContext,
  op: OperatorCaller,
  id: number,
  received: number | null,
  requestId: number | null = null,
) {
  const c = chargeOwner(ctx, id);
  return audited(ctx, {
    op,
    action: "charge.approve",
    target: `charge:${id}`,
    userId: c.userId,
    run: () => ctx.deposits.approve(id, op.actor, received),
    amountMicro: (done) => done.creditedMicro,
    remark:
      received !== null && received !== c.amountMicro
        ? receivedNote(received, c.amountMicro)
        : null,
    requestId,
  });
}

/**
 * A withdrawal paid, with its audit row, by `op` (as the approver of request `requestId`, when a
 * second operator was needed); refused to an operator who put money into the account today.
 */
export function approveWithdrawal(
  ctx: AppContext,
  op: OperatorCaller,
  id: number,
  requestId: number | null = null,
) {
  const d = drawOwner(ctx, id);
  return ctx.money.transaction(() => {
    assertMayPayOut(ctx.db, { actor: op.actor, userId: d.userId, nowMs: Date.now() });
    return audited(ctx, {
      op,
      action: "draw.approve",
      target: `draw:${id}`,
      userId: d.userId,
      run: () => ctx.withdrawals.approve(id, op.actor),
      amountMicro: (r) => r.amountMicro,
      remark: null,
      requestId,
    });
  });
}

/**
 * An adjustment books only on a person's own account: a copy's account and a strategy trader's are
 * refused (adjustment_copy_account, adjustment_strategy_account), at filing and again at approval.
 */
export function assertAdjustable(db: AppContext["db"], userId: number): void {
  const role = accountRoleOf(db, userId);
  if (role === "copy") throw new DomainError("adjustment_copy_account");
  if (role === "strategy") throw new DomainError("adjustment_strategy_account");
}

/**
 * An adjustment booked with its audit row, by `op` (as the approver of request `requestId`, when a
 * second operator was needed); never takes a balance below zero.
 */
export function bookAdjustment(
  ctx: AppContext,
  op: OperatorCaller,
  p: { userId: number; amountMicro: number; remark: string },
  requestId: number | null = null,
): api.AuditRow {
  const { money, db } = ctx;
  assertAdjustable(db, p.userId);
  return money.transaction(() => {
    const before = money.balances(p.userId)!;
    money.post({
      userId: p.userId,
      amountMicro: p.amountMicro,
      kind: "adjustment",
      memo: p.remark,
      ref: "adjustment",
      floorMicro: 0,
    });
    const after = money.balances(p.userId)!;
    const id = writeAudit(db, {
      actor: op.actor,
      action: "adjustment",
      target: `user:${p.userId}`,
      userId: p.userId,
      amountMicro: p.amountMicro,
      balanceBeforeMicro: before.balanceMicro,
      balanceAfterMicro: after.balanceMicro,
      remark: p.remark,
      requestId,
    });
    return auditView(auditRecord(db, id)!);
  });
}

/** A setting operators may change; refused for any other key (own keys only: never the prototype's). */
export function settingEntry(key: string): (typeof SETTINGS)[string] {
  const entry = Object.hasOwn(SETTINGS, key) ? SETTINGS[key] : undefined;
  if (!entry) throw new DomainError("setting_unknown", CODE_FAIL, { key });
  return entry;
}

/** Refuses a value the setting's check refuses (an unknown key included). */
export function checkSetting(ctx: AppContext, key: string, value: string): void {
  const refused = settingEntry(key).check(value, ctx.db);
  if (refused) throw new DomainError(refused.key, CODE_FAIL, { key, ...refused.params });
}

/** A checked setting stored with its audit row, by `op`; the engine reads it at once. */
export function applySetting(ctx: AppContext, op: OperatorCaller, key: string, value: string) {
  const { db } = ctx;
  checkSetting(ctx, key, value);
  const before = getSetting(db, key) ?? null;
  db.transaction(() => {
    setStoredSetting(db, key, value);
    writeAudit(db, {
      actor: op.actor,
      action: "setting",
      target: `setting:${key}`,
      remark: `${before ?? "(unset)"} -> ${value}`,
    });
  })();
  ctx.engine.reloadSettings();
}
