/**
 * The commands on orders a user holds: close an open position, cancel a pending order, set or
 * clear take-profit and stop-loss, and reset a demo account. Each is one transaction with its
 * ledger rows and its idempotency key's answer, committed before memory changes and before the
 * answer; the same key again answers the first result.
 */
import assert from "node:assert/strict";
import { IS_DEMO } from "@contract/enums";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { dec, toMicro, type Dec } from "../money/decimal.js";
import type { Pos } from "./book.js";
import {
  bookCloses,
  cancelPending,
  closePart,
  closePosition,
  postProfit,
  realisedProfit,
  type PricedClose,
} from "./booking.js";
import type { EngineCore } from "./core.js";
import type { AccountFigures, OrderState, Trail } from "./model.js";
import {
  ST_OPEN,
  ST_PENDING,
  validatePartLots,
  validateStops,
  validateTrail,
  type CloseReason,
} from "./orders.js";
import { assertPrice } from "./invariants.js";
import { accountValues, figuresWithoutPositions } from "./queries.js";
import { stateOfPos } from "./snapshots.js";
import { refusalOr } from "./submit.js";
import {
  cancelOrder,
  closeOrder,
  orderById,
  readUser,
  setOrderStops,
  setOrderTrail,
  setStopLosses,
} from "./store.js";

/** The user's live order `id`; refused as not pending / not open / not found otherwise. */
function ownOrder(core: EngineCore, userId: number, id: number | null): Pos {
  const p = id === null ? undefined : core.held.orders.get(id);
  if (p && p.userId === userId) return p;
  if (id !== null) {
    const r = orderById(core.db, { id });
    if (r && r.user_id === userId)
      throw new DomainError(r.status === ST_PENDING ? "order_not_pending" : "order_not_open");
  }
  throw new DomainError("order_not_found", CODE_NOT_FOUND);
}

/**
 * Closes an open position of the user at the current price; `reason` is "manual" for the user's
 * own close, or what closed it for them (copy trading mirrors a provider's close, stops a copy).
 */
export function close(
  core: EngineCore,
  userId: number,
  id: number | null,
  idemKey: string | null,
  reason: CloseReason = "manual",
  inTx?: (v: OrderState) => void,
  lots: Dec | null = null,
): OrderState {
  const params = lots === null ? { id } : { id, lots: lots.toString() };
  const replay = core.idem.lookup<OrderState>(userId, idemKey, "close", params);
  if (replay) return replay;
  const p = ownOrder(core, userId, id);
  if (p.status !== ST_OPEN) throw new DomainError("order_not_open");
  const q = core.liveQuote(p.inst);
  core.assertTradable(p.inst, q, Date.now());
  const stored = (view: OrderState) => {
    core.idem.store(userId, idemKey, "close", params, view);
    inTx?.(view);
  };
  // All of it is a full close; less is a partial close of checked lots.
  if (lots !== null && !lots.eq(p.lots))
    return closePart(core, p, validatePartLots(lots, p.lots, p.inst), q.price, reason, stored);
  return closePosition(core, p, q.price, reason, stored);
}

/** One position of a bulk close: its user and order id. */
export interface CloseItem {
  userId: number;
  id: number;
}

/** A bulk close's answer for one item, in the items' order: the closed order, or why it was refused. */
export type Closed = OrderState | DomainError;

/**
 * Closes open positions at once (copy trading mirrors a provider's close to every copy): each
 * checked and priced in memory exactly as close does (own order, open, live and tradable quote),
 * a refusal being that item's answer (a DomainError, not thrown); then all of them booked in one
 * booking group (bookCloses). `inTx` runs inside the group with every answer. Anything else that
 * fails undoes the whole, store and memory. Not inside another transaction.
 */
export function closeMany(
  core: EngineCore,
  items: readonly CloseItem[],
  reason: CloseReason,
  inTx?: (closed: readonly Closed[]) => void,
): Closed[] {
  const out: (Closed | undefined)[] = new Array<Closed | undefined>(items.length);
  const priced: PricedClose[] = [];
  const taken = new Set<number>();
  items.forEach((it, i) => {
    const r = refusalOr(() => {
      const p = ownOrder(core, it.userId, it.id);
      // The same position twice: the second finds it closed, as one by one.
      if (p.status !== ST_OPEN || taken.has(p.id)) throw new DomainError("order_not_open");
      const q = core.liveQuote(p.inst);
      core.assertTradable(p.inst, q, Date.now());
      assertPrice(q.price, `close of order ${p.id}`);
      taken.add(p.id);
      priced.push({ i, p, price: q.price, profit: realisedProfit(core, p, q.price) });
    });
    if (r) out[i] = r;
  });
  const answers = () =>
    out.map((v, i) => {
      assert(v !== undefined, `item ${i} of closeMany has no answer`);
      return v;
    });
  if (priced.length === 0) {
    inTx?.(answers());
    return answers();
  }
  core.tx.atomically(() => {
    bookCloses(core, priced, reason, out);
    inTx?.(answers());
  });
  return answers();
}

/** Cancels a pending order of the user. */
export function cancel(
  core: EngineCore,
  userId: number,
  id: number | null,
  idemKey: string | null,
): OrderState {
  const replay = core.idem.lookup<OrderState>(userId, idemKey, "cancel_trade", { id });
  if (replay) return replay;
  const p = ownOrder(core, userId, id);
  if (p.status !== ST_PENDING) throw new DomainError("order_not_pending");
  return cancelPending(core, p, "cancelled", (view) =>
    core.idem.store(userId, idemKey, "cancel_trade", { id }, view),
  );
}

/**
 * Sets or clears (null) take-profit and stop-loss of an open position (checked against the current
 * price) or a pending order (against its target).
 */
export function setStops(
  core: EngineCore,
  userId: number,
  stops: { id: number | null; tp: number | null; sl: number | null },
  idemKey: string | null,
): OrderState {
  const { id, tp, sl } = stops;
  const params = { id, tp, sl };
  const replay = core.idem.lookup<OrderState>(userId, idemKey, "set_stop_price", params);
  if (replay) return replay;
  const p = ownOrder(core, userId, id);
  let ref = p.originPrice;
  if (p.status === ST_OPEN) {
    const price = core.pricing.price(p.inst);
    if (price === null) throw new DomainError("quote_stale");
    ref = price;
  }
  validateStops(p.orderType, ref, tp, sl, p.inst.precision);
  const createdAt = p.createdAt;
  const view = core.tx.run(() => {
    const stored = setOrderStops(core.db, { id: p.id, takeProfit: tp, stopLoss: sl });
    assert(stored, `order ${p.id} held live is not live in the store`);
    const v = { ...stateOfPos(p, createdAt, core.pricing), takeProfit: tp ?? 0, stopLoss: sl ?? 0 };
    core.idem.store(userId, idemKey, "set_stop_price", params, v);
    return v;
  });
  core.held.setStops(p, tp ?? 0, sl ?? 0);
  core.tx.emit("stopsChanged", { userId, orderId: p.id });
  return view;
}

/**
 * Sets or clears (0) the trailing stop and break-even of an open position (checked against the
 * current price) or a pending order (against its target; they work once it fills).
 */
export function setTrailing(
  core: EngineCore,
  userId: number,
  r: { id: number | null; trail: Trail },
  idemKey: string | null,
): OrderState {
  const params = { id: r.id, ...r.trail };
  const replay = core.idem.lookup<OrderState>(userId, idemKey, "set_trailing", params);
  if (replay) return replay;
  const p = ownOrder(core, userId, r.id);
  let ref = p.originPrice;
  if (p.status === ST_OPEN) {
    const price = core.pricing.price(p.inst);
    if (price === null) throw new DomainError("quote_stale");
    ref = price;
  }
  const t = validateTrail(r.trail, p.inst.precision, ref);
  const view = core.tx.run(() => {
    const stored = setOrderTrail(core.db, {
      id: p.id,
      trailDistance: t.distance || null,
      trailActivation: t.activation || null,
      breakEven: t.breakEven || null,
    });
    assert(stored, `order ${p.id} held live is not live in the store`);
    const next = { ...p, trail: t.distance, trailAct: t.activation, breakEven: t.breakEven };
    const v = stateOfPos(next, p.createdAt, core.pricing);
    core.idem.store(userId, idemKey, "set_trailing", params, v);
    return v;
  });
  core.held.setTrail(p, t.distance, t.activation, t.breakEven);
  core.tx.emit("stopsChanged", { userId, orderId: p.id });
  return view;
}

/**
 * Cancels, as expired, every pending order whose expiry is at or before `now` (one booking group);
 * returns how many. The leader runs it every second through its sequencer.
 */
export function expireDue(core: EngineCore, now: number): number {
  const due: Pos[] = [];
  for (const p of core.held.expiring)
    if (p.status === ST_PENDING && p.expiresAt !== null && p.expiresAt <= now) due.push(p);
  if (due.length === 0) return 0;
  due.sort((a, b) => a.id - b.id);
  core.tx.atomically(() => {
    for (const p of due) cancelPending(core, p, "expired");
  });
  return due.length;
}

/**
 * Writes the stops the ticks' trailing passes moved since the last flush, as their books flag them
 * (one multi-row UPDATE per ROWS_PER_STATEMENT positions); a position closed meanwhile is left as
 * its close wrote it. The flags are cleared once the store has them. Returns how many.
 */
export function flushTrailed(core: EngineCore): number {
  const rows: { id: number; stopLoss: number }[] = [];
  for (const book of core.held.books.values()) book.collectMovedStops(rows);
  if (rows.length === 0) return 0;
  core.tx.run(() => setStopLosses(core.db, rows));
  for (const book of core.held.books.values()) book.clearMovedStops();
  return rows.length;
}

/** Demo accounts only: closes every position, cancels pending orders, restores demo.initial_balance. */
export function resetDemo(
  core: EngineCore,
  userId: number,
  idemKey: string | null,
): AccountFigures {
  const replay = core.idem.lookup<AccountFigures>(userId, idemKey, "reset_demo", {});
  if (replay) return replay;
  const u = readUser(core.db, { userId });
  if (!u) throw new DomainError("not_found", CODE_NOT_FOUND);
  if (u.is_demo !== IS_DEMO.DEMO) throw new DomainError("only_demo");
  const a = core.account(userId);
  const initial = toMicro(dec(core.settings().demoInitial));
  const open = [...a.positions];
  const pend = [...a.pendings];
  core.tx.run(() => {
    bookDemoReset(core, userId, { open, pend, initial, now: Date.now() });
    core.idem.store(userId, idemKey, "reset_demo", {}, figuresWithoutPositions(core, userId));
  });
  for (const p of open) core.held.close(p);
  for (const p of pend) core.held.cancel(p);
  a.balanceMicro = initial;
  core.held.markDirty(a);
  if (open.length) {
    const orderIds = open.map((p) => p.id);
    core.tx.emit("positionsClosed", { userId, orderIds, reason: "demo_reset" });
  }
  for (const p of pend)
    core.tx.emit("orderCancelled", { userId, orderId: p.id, reason: "demo_reset" });
  return accountValues(core, userId);
}

/**
 * The store side of a demo reset (inside its transaction): each position closed at the current
 * price with its realised profit, each pending order cancelled, then one demo_reset row bringing
 * the balance to `initial`.
 */
function bookDemoReset(
  core: EngineCore,
  userId: number,
  r: { open: Pos[]; pend: Pos[]; initial: number; now: number },
): void {
  const { now } = r;
  for (const p of r.open) {
    const price = core.pricing.price(p.inst) ?? p.openPrice;
    const profit = realisedProfit(core, p, price);
    const closed = closeOrder(core.db, {
      id: p.id,
      closePrice: price,
      profitMicro: profit,
      reason: "demo_reset",
      closedAt: now,
    });
    assert(closed, `order ${p.id} held open is not open in the store`);
    if (profit !== 0) postProfit(core, p, profit, now);
  }
  for (const p of r.pend) {
    const cancelled = cancelOrder(core.db, { id: p.id, reason: "demo_reset", closedAt: now });
    assert(cancelled, `order ${p.id} held pending is not pending in the store`);
  }
  const bal = core.balance(userId);
  if (bal !== r.initial)
    core.money.post({
      userId,
      amountMicro: r.initial - bal,
      kind: "demo_reset",
      ref: "demo_reset",
      at: now,
    });
}
