/**
 * Booking what ends or fills an order: closing an open position (realised profit, and negative
 * balance protection when it was the account's last), cancelling a pending order, filling a
 * reached pending order (or cancelling it for want of free margin), and the stop-out of an account.
 * Each is one transaction, or one step of the tick's booking group (ticks.ts); memory changes once
 * the store took the change, and events go out after the commit (transactions.ts).
 */
import assert from "node:assert/strict";
import { DomainError } from "../../platform/errors.js";
import { toMicro } from "../money/decimal.js";
import type { Account, Pos } from "./book.js";
import type { EngineCore } from "./core.js";
import { assertPrice } from "./invariants.js";
import type { OrderState } from "./model.js";
import { ST_CANCELLED, ST_OPEN, openAmounts, profitUsd, type CloseReason } from "./orders.js";
import { ONE } from "./pricing.js";
import { protectionAmount, stopOutOrder } from "./risk.js";
import { stateClosed, stateOfPos } from "./snapshots.js";
import { cancelOrder, closeOrder, fillOrder } from "./store.js";

/** Realised profit of closing `p` at `price`, micro-USD (an unknown USD rate counts as 1). */
export function realisedProfit(core: EngineCore, p: Pos, price: number): number {
  const rate = core.usdRate(p.inst) ?? ONE;
  return toMicro(profitUsd(p.orderType, p.openPrice, price, p.units, rate));
}

/** Books realised profit of `p` (none when 0); returns the balance after. */
export function postProfit(core: EngineCore, p: Pos, profitMicro: number, at: number): number {
  if (profitMicro === 0) return core.balance(p.userId);
  return core.money.post({
    userId: p.userId,
    amountMicro: profitMicro,
    kind: "realised_profit",
    ref: `order:${p.id}`,
    at,
  });
}

/**
 * Closes an open position at `price` in one transaction: the order row, its realised profit ledger
 * row, and negative balance protection when it was the account's last position. `inTx` runs inside
 * the transaction with the answer (the command's idempotency key is stored there).
 */
export function closePosition(
  core: EngineCore,
  p: Pos,
  price: number,
  reason: CloseReason,
  inTx?: (v: OrderState) => void,
): OrderState {
  assertPrice(price, `close of order ${p.id}`);
  const profit = realisedProfit(core, p, price);
  const now = Date.now();
  const view = core.tx.run(() => {
    const closed = closeOrder(core.db, {
      id: p.id,
      closePrice: price,
      profitMicro: profit,
      reason,
      closedAt: now,
    });
    if (!closed) throw new DomainError("order_not_open");
    let bal = postProfit(core, p, profit, now);
    const prot = protectionAmount(bal, p.acc.positions.size - 1);
    if (prot !== 0)
      bal = core.money.post({
        userId: p.userId,
        amountMicro: prot,
        kind: "protection",
        ref: `order:${p.id}`,
        at: now,
      });
    p.acc.balanceMicro = bal;
    const v = stateClosed(p, core.createdAt(p.id), core.pricing, price, profit, reason, now);
    inTx?.(v);
    return v;
  });
  core.held.close(p);
  core.tx.emit("positionsClosed", { userId: p.userId, orderIds: [p.id], reason });
  return view;
}

/** Cancels a pending order in one transaction; `inTx` as for closePosition. */
export function cancelPending(
  core: EngineCore,
  p: Pos,
  reason: CloseReason,
  inTx?: (v: OrderState) => void,
): OrderState {
  const now = Date.now();
  const view = core.tx.run(() => {
    if (!cancelOrder(core.db, { id: p.id, reason, closedAt: now }))
      throw new DomainError("order_not_pending");
    const v: OrderState = {
      ...stateOfPos(p, core.createdAt(p.id), core.pricing),
      status: ST_CANCELLED,
      closeReason: reason,
      closedAt: now,
    };
    inTx?.(v);
    return v;
  });
  core.held.cancel(p);
  core.tx.emit("orderCancelled", { userId: p.userId, orderId: p.id, reason });
  return view;
}

/**
 * Fills a reached pending order at the tick's price, or cancels it when the account's free margin
 * cannot take its margin and fee. Left pending while its market is closed or its quote currency
 * has no USD rate.
 */
export function activate(core: EngineCore, p: Pos, price: number): void {
  if (core.pricing.feed && !core.pricing.feed.isOpen(p.inst.id)) return;
  const rate = core.usdRate(p.inst);
  if (rate === null) return;
  const feeType = core.settings().feeType;
  const amounts = openAmounts(p.lots, p.inst, price, p.leverage, feeType, rate);
  const now = Date.now();
  const filled = core.tx.run(() => bookFill(core, p, price, amounts, now));
  if (filled) {
    core.held.fill(p, price, amounts.marginMicro, amounts.feeMicro);
    core.tx.emit("orderActivated", { userId: p.userId, orderId: p.id, price });
  } else {
    core.held.cancel(p);
    const e = { userId: p.userId, orderId: p.id, reason: "insufficient_margin" as const };
    core.tx.emit("orderCancelled", e);
  }
}

/** The store side of activate (inside its transaction); true when filled, false when cancelled. */
function bookFill(
  core: EngineCore,
  p: Pos,
  price: number,
  { marginMicro, feeMicro }: { marginMicro: number; feeMicro: number },
  now: number,
): boolean {
  const a = p.acc;
  const bal = core.balance(p.userId);
  a.balanceMicro = bal;
  const free = bal + core.pricing.floatingMicro(a) - a.usedMarginMicro;
  if (marginMicro + feeMicro > free) {
    const cancelled = cancelOrder(core.db, {
      id: p.id,
      reason: "insufficient_margin",
      closedAt: now,
    });
    assert(cancelled, `order ${p.id} held pending is not pending in the store`);
    return false;
  }
  const stored = fillOrder(core.db, {
    id: p.id,
    openPrice: price,
    marginMicro,
    feeMicro,
    openedAt: now,
  });
  assert(stored, `order ${p.id} held pending is not pending in the store`);
  if (feeMicro !== 0)
    a.balanceMicro = core.money.post({
      userId: p.userId,
      amountMicro: -feeMicro,
      kind: "fee",
      ref: `order:${p.id}`,
      at: now,
    });
  return true;
}

/** Stop-out of one account: closes the largest loser first, re-checking, at current prices. */
export function stopOut(core: EngineCore, a: Account, stopOutPct: number): void {
  const list = [...a.positions].map((p) => ({
    id: p.id,
    profit: core.pricing.floatingMicroOf(p),
    margin: p.marginMicro,
  }));
  const ids = stopOutOrder(core.balance(a.userId), list, stopOutPct);
  for (const id of ids) {
    const p = core.held.orders.get(id);
    if (!p || p.status !== ST_OPEN) continue;
    closePosition(core, p, core.pricing.price(p.inst) ?? p.openPrice, "stop_out");
  }
}
