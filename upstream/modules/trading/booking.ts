/**
 * Booking what ends or fills an order: closing an open position (realised profit, and negative
 * balance protection when it was the account's last), cancelling a pending order, filling a
 * reached pending order (or cancelling it for want of free margin), and the stop-out of an account.
 * Each is one transaction, or one step of the tick's booking group (ticks.ts); memory changes once
 * the store took the change, and events go out after the commit (transactions.ts).
 */
import assert from "node:assert/strict";
import { DomainError } from "../../platform/errors.js";
import { Dec, dec, toMicro } from "../money/decimal.js";
import { clearlyAffordable, type Account, type Pos } from "./book.js";
import type { EngineCore } from "./core.js";
import { assertPrice } from "./invariants.js";
import { NO_TRAIL, type OrderState } from "./model.js";
import {
  ST_CANCELLED,
  ST_OPEN,
  openAmounts,
  profitUsd,
  unitsOf,
  type CloseReason,
} from "./orders.js";
import { ONE } from "./pricing.js";
import { protectionAmount, stopOutOrder } from "./risk.js";
import { stateClosed, stateOfPos } from "./snapshots.js";
import {
  cancelOrder,
  closeOrder,
  closeOrders,
  fillOrder,
  insertPart,
  shrinkOrder,
} from "./store.js";

/** Realised profit of closing `p` at `price`, micro-USD (an unknown USD rate counts as 1). */
export function realisedProfit(core: EngineCore, p: Pos, price: number): number {
  const rate = core.usdRate(p.inst) ?? ONE;
  return toMicro(profitUsd(p.orderType, p.openPrice, price, p.units, rate));
}

/** Books realised profit of `p` (none when 0); returns the balance after. */
export function postProfit(core: EngineCore, p: Pos, profitMicro: number, at: number): number {
  if (profitMicro === 0) return p.acc.balanceMicro;
  return core.money.post({
    userId: p.userId,
    amountMicro: profitMicro,
    kind: "realised_profit",
    ref: `order:${p.id}`,
    at,
    heldMicro: p.acc.balanceMicro,
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
        heldMicro: bal,
      });
    p.acc.balanceMicro = bal;
    const v = stateClosed(p, p.createdAt, core.pricing, price, profit, reason, now);
    inTx?.(v);
    return v;
  });
  core.held.close(p);
  core.tx.emit("positionsClosed", { userId: p.userId, orderIds: [p.id], reason });
  return view;
}

/**
 * The split of a partial close (trading-rules.md "Partial close"): the part's share of the
 * position's margin and fee is `amount × part lots / lots` in micro-USD rounded half to even, and
 * what stays open keeps the rest (`amount - share`), so the two always add up to the whole. Exact.
 */
export function splitShare(amountMicro: number, partLots: Dec, lots: Dec): number {
  return dec(amountMicro)
    .mul(partLots)
    .div(lots)
    .toDecimalPlaces(0, Dec.ROUND_HALF_EVEN)
    .toNumber();
}

/**
 * Closes `partLots` of the open position `p` at `price` in one transaction: the part is stored as a
 * closed order of its own (parent_id p's id) with its share of margin and fee and its realised
 * profit (its ledger row refers to the part), and p keeps the rest of its lots, margin and fee,
 * its take-profit, stop-loss and trailing stop. The lots were checked by the caller (closePartOf).
 * `inTx` runs inside the transaction with the part's answer.
 */
export function closePart(
  core: EngineCore,
  p: Pos,
  partLots: Dec,
  price: number,
  reason: CloseReason,
  inTx?: (v: OrderState) => void,
): OrderState {
  assertPrice(price, `partial close of order ${p.id}`);
  const lotsBefore = p.lots;
  const part = splitPart(core, p, partLots, price);
  const rest = {
    lots: p.lots.minus(partLots),
    units: p.units.minus(part.units),
    marginMicro: p.marginMicro - part.marginMicro,
    feeMicro: p.feeMicro - part.feeMicro,
  };
  const now = Date.now();
  const view = core.tx.run(() => {
    const partId = bookPart(core, p, { ...part, lots: partLots, rest, price, reason, now });
    const v: OrderState = {
      ...stateClosed(p, p.createdAt, core.pricing, price, part.profitMicro, reason, now),
      id: partId,
      lots: partLots.toString(),
      marginMicro: part.marginMicro,
      feeMicro: part.feeMicro,
      trail: NO_TRAIL,
      parentId: p.id,
    };
    inTx?.(v);
    return v;
  });
  core.held.resize(p, rest);
  core.held.markDirty(p.acc);
  core.tx.emit("positionReduced", {
    userId: p.userId,
    orderId: p.id,
    partId: view.id,
    lots: partLots.toString(),
    lotsBefore: lotsBefore.toString(),
    reason,
  });
  return view;
}

/** The part's units, its share of margin and fee (splitShare), and its realised profit at `price`. */
function splitPart(core: EngineCore, p: Pos, partLots: Dec, price: number) {
  const units = unitsOf(partLots, p.inst.contNum);
  const rate = core.usdRate(p.inst) ?? ONE;
  return {
    units,
    marginMicro: splitShare(p.marginMicro, partLots, p.lots),
    feeMicro: splitShare(p.feeMicro, partLots, p.lots),
    profitMicro: toMicro(profitUsd(p.orderType, p.openPrice, price, units, rate)),
  };
}

/**
 * The store side of a partial close (inside its transaction): the part as a closed order of its
 * own, the position's new size, and the part's realised profit; returns the part's id.
 */
function bookPart(
  core: EngineCore,
  p: Pos,
  x: {
    lots: Dec;
    units: Dec;
    marginMicro: number;
    feeMicro: number;
    profitMicro: number;
    rest: { lots: Dec; units: Dec; marginMicro: number; feeMicro: number };
    price: number;
    reason: CloseReason;
    now: number;
  },
): number {
  const partId = insertPart(core.db, {
    parentId: p.id,
    lots: x.lots.toString(),
    units: x.units.toString(),
    marginMicro: x.marginMicro,
    feeMicro: x.feeMicro,
    closePrice: x.price,
    profitMicro: x.profitMicro,
    reason: x.reason,
    closedAt: x.now,
  });
  if (partId === null) throw new DomainError("order_not_open");
  const shrunk = shrinkOrder(core.db, {
    id: p.id,
    lots: x.rest.lots.toString(),
    units: x.rest.units.toString(),
    marginMicro: x.rest.marginMicro,
    feeMicro: x.rest.feeMicro,
  });
  assert(shrunk, `order ${p.id} held open is not open in the store`);
  if (x.profitMicro !== 0)
    p.acc.balanceMicro = core.money.post({
      userId: p.userId,
      amountMicro: x.profitMicro,
      kind: "realised_profit",
      ref: `order:${partId}`,
      at: x.now,
      heldMicro: p.acc.balanceMicro,
    });
  return partId;
}

/** An open position of a bulk close priced in memory: where its answer goes, its price and profit. */
export interface PricedClose {
  i: number;
  p: Pos;
  price: number;
  profit: number;
}

/**
 * Closes priced positions at once inside the caller's booking group, each booked as closePosition
 * books it (order row, realised_profit row unless 0, protection when it was the account's last
 * position), in rounds of distinct accounts (a position's round is how many of its account's
 * positions came before it): per round one UPDATE of the orders and at most two postMany, per
 * ROWS_PER_STATEMENT rows. A position the store no longer holds open is refused (order_not_open)
 * and books nothing. Answers go to `out`; memory changes (undoable) and positionsClosed is emitted
 * per account after the commit.
 */
export function bookCloses(
  core: EngineCore,
  priced: readonly PricedClose[],
  reason: CloseReason,
  out: (OrderState | DomainError | undefined)[],
): void {
  const now = Date.now();
  const closedIds = new Map<number, number[]>();
  for (const round of rounds(priced)) {
    const closed = closeOrders(
      core.db,
      round.map((x) => ({
        id: x.p.id,
        closePrice: x.price,
        profitMicro: x.profit,
        reason,
        closedAt: now,
      })),
    );
    const ok = round.filter((x) => closed.has(x.p.id));
    for (const x of round) if (!closed.has(x.p.id)) out[x.i] = new DomainError("order_not_open");
    const bal = postProfits(core, ok, now);
    const prots: { x: PricedClose; amount: number }[] = [];
    for (const x of ok) {
      // Memory closed the account's earlier rounds already: what is left besides this one.
      const amount = protectionAmount(bal.get(x.p.userId)!, x.p.acc.positions.size - 1);
      if (amount !== 0) prots.push({ x, amount });
    }
    const after = core.money.postMany(
      prots.map(({ x, amount }) => ({
        userId: x.p.userId,
        amountMicro: amount,
        kind: "protection" as const,
        ref: `order:${x.p.id}`,
        at: now,
        heldMicro: bal.get(x.p.userId),
      })),
    );
    prots.forEach(({ x }, k) => bal.set(x.p.userId, after[k]));
    for (const x of ok) {
      x.p.acc.balanceMicro = bal.get(x.p.userId)!;
      out[x.i] = stateClosed(x.p, x.p.createdAt, core.pricing, x.price, x.profit, reason, now);
      core.held.close(x.p);
      const ids = closedIds.get(x.p.userId) ?? [];
      closedIds.set(x.p.userId, ids.concat(x.p.id));
    }
  }
  for (const [userId, orderIds] of closedIds)
    core.tx.emit("positionsClosed", { userId, orderIds, reason });
}

/** `priced` in rounds where each account appears at most once, each account's positions in order. */
function rounds(priced: readonly PricedClose[]): PricedClose[][] {
  const out: PricedClose[][] = [];
  const seen = new Map<number, number>();
  for (const x of priced) {
    const k = seen.get(x.p.userId) ?? 0;
    seen.set(x.p.userId, k + 1);
    (out[k] ??= []).push(x);
  }
  return out;
}

/**
 * Books the realised profits of closed positions of distinct accounts as postProfit does (no row
 * for 0); returns every account's balance after, by user (as held in memory when nothing moved).
 */
function postProfits(
  core: EngineCore,
  ok: readonly PricedClose[],
  at: number,
): Map<number, number> {
  const gains = ok.filter((x) => x.profit !== 0);
  const after = core.money.postMany(
    gains.map((x) => ({
      userId: x.p.userId,
      amountMicro: x.profit,
      kind: "realised_profit" as const,
      ref: `order:${x.p.id}`,
      at,
      heldMicro: x.p.acc.balanceMicro,
    })),
  );
  const bal = new Map(gains.map((x, k) => [x.p.userId, after[k]]));
  // The leader's memory holds every balance as booked (placeMarket's check reads it too).
  for (const x of ok) if (x.profit === 0) bal.set(x.p.userId, x.p.acc.balanceMicro);
  return bal;
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
      ...stateOfPos(p, p.createdAt, core.pricing),
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
    core.held.fill(p, price, amounts.marginMicro, amounts.feeMicro, now);
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
  const bal = a.balanceMicro;
  // The float figure answers most fills; near the line, the exact one decides (as submit does).
  const affordable =
    clearlyAffordable(a, core.held.accts.float[a.idx], bal, marginMicro + feeMicro) ||
    marginMicro + feeMicro <= bal + core.pricing.floatingMicro(a) - a.usedMarginMicro;
  if (!affordable) {
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
      heldMicro: a.balanceMicro,
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
