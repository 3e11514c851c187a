/**
 * Money controls: no money enters or leaves a user's account on one operator's word above a bound.
 *
 * A deposit credited, a withdrawal paid or an adjustment booked waits for a second operator (a
 * four-eyes request, requests.ts) when:
 * - it is above its own amount: risk.deposit_four_eyes_usd, risk.withdrawal_four_eyes_usd,
 *   risk.adjustment_four_eyes_usd (an adjustment of either sign);
 * - with what the same operator moved alone in the UTC day so far, it passes
 *   risk.operator_daily_usd (deposits credited, withdrawals paid and adjustments booked, each by its
 *   size);
 * - it is an adjustment and, with the user's adjustments booked alone that day, it passes the
 *   adjustment amount: an adjustment split in parts needs the same second operator as the whole.
 *
 * And an operator who put money into a user's account in the UTC day (credited a deposit or booked an
 * adjustment: alone, as an approver, or by filing the request another approved) does not also pay
 * that user out (draw_own_money_in, 403).
 *
 * Money moved through an approved request counts toward nobody's running total: two operators
 * answered for it. The totals are read from the audit log (audit-store.ts), written in the same
 * transaction as each move, so they hold across upstream nodes and restarts.
 */
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import { getSetting } from "../../platform/settings.js";
import { dec, MICRO, toMicro } from "../money/decimal.js";
import { putMoneyIn, soloAdjustedMicro, soloMovedMicro } from "./audit-store.js";

export const DAY_MS = 86_400_000;

/** The start (ms) of the UTC day holding `nowMs`. */
export const utcDayStartMs = (nowMs: number): number => nowMs - (nowMs % DAY_MS);

export type MoneyMove = "deposit" | "withdrawal" | "adjustment";

/** Each move's own four-eyes amount (USD), with the default a store without the row gets. */
const OWN_LIMIT: Record<MoneyMove, { key: string; fallback: string }> = {
  deposit: { key: "risk.deposit_four_eyes_usd", fallback: "10000" },
  withdrawal: { key: "risk.withdrawal_four_eyes_usd", fallback: "10000" },
  adjustment: { key: "risk.adjustment_four_eyes_usd", fallback: "1000" },
};
const DAILY = { key: "risk.operator_daily_usd", fallback: "50000" };

const settingMicro = (db: DB, s: { key: string; fallback: string }): number =>
  toMicro(dec(getSetting(db, s.key) ?? s.fallback));

const usdText = (micro: number): string => dec(micro).div(MICRO).toFixed(2);

/** The four-eyes amount of one kind of move (micro-USD). */
export const ownLimitMicro = (db: DB, move: MoneyMove): number => settingMicro(db, OWN_LIMIT[move]);

/**
 * Why moving `amountMicro` (either sign) of `userId`'s money needs a second operator, as the
 * approver reads it ("above risk.deposit_four_eyes_usd 10000.00"), or null when `actor` may move
 * it alone. Read in the transaction that then books it, so two moves cannot both pass one bound.
 */
export function secondOperatorReason(
  db: DB,
  p: { move: MoneyMove; actor: string; userId: number; amountMicro: number; nowMs: number },
): string | null {
  const size = Math.abs(p.amountMicro);
  const from = utcDayStartMs(p.nowMs);
  const own = OWN_LIMIT[p.move];
  const ownMicro = settingMicro(db, own);
  if (size > ownMicro) return `above ${own.key} ${usdText(ownMicro)}`;
  if (p.move === "adjustment") {
    const userDay = soloAdjustedMicro(db, { userId: p.userId, from }) + size;
    if (userDay > ownMicro)
      return `the user's adjustments today ${usdText(userDay)}, above ${own.key} ${usdText(ownMicro)}`;
  }
  const dailyMicro = settingMicro(db, DAILY);
  const operatorDay = soloMovedMicro(db, { actor: p.actor, from }) + size;
  if (operatorDay > dailyMicro)
    return `${p.actor}'s money moved alone today ${usdText(operatorDay)}, above ${DAILY.key} ${usdText(dailyMicro)}`;
  return null;
}

/**
 * Refuses `actor` paying out `userId` when `actor` put money into that account in the UTC day
 * (credited a deposit or booked an adjustment, alone, approving or filing).
 */
export function assertMayPayOut(db: DB, p: { actor: string; userId: number; nowMs: number }): void {
  if (putMoneyIn(db, { actor: p.actor, userId: p.userId, from: utcDayStartMs(p.nowMs) }))
    throw new DomainError("draw_own_money_in", CODE.FORBIDDEN, {}, 403);
}
