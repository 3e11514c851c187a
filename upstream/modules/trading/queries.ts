/**
 * What the engine answers without booking: an account's figures (trading-rules.md "Account
 * values"), its live snapshot for the FOREX_TRADE push, and the pages of my_deal (live orders from
 * memory at the current price, the rest as stored).
 */
import assert from "node:assert/strict";
import { ORDER_TAB } from "@contract/enums";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { stopLossOf } from "./book.js";
import type { EngineCore } from "./core.js";
import type { AccountFigures, AccountSnapshot, OrderPage, OrderState } from "./model.js";
import { ST_OPEN, ST_PENDING } from "./orders.js";
import { isMarginCall, marginLevelPct } from "./risk.js";
import { stateOfPos, stateOfRow } from "./snapshots.js";
import { PAGE_SIZE, dealPage, readBalance, readUser, type ListedOrderRow } from "./store.js";

/** The figures of an account of stored balance and lock, floating profit and used margin. */
function figuresOf(
  core: EngineCore,
  u: { balance_micro: number; lock_balance_micro: number },
  floatingMicro: number,
  usedMarginMicro: number,
): AccountFigures {
  const equity = u.balance_micro + floatingMicro;
  const level = marginLevelPct(equity, usedMarginMicro);
  return {
    balanceMicro: u.balance_micro,
    lockMicro: u.lock_balance_micro,
    equityMicro: equity,
    floatingMicro,
    usedMarginMicro,
    freeMarginMicro: equity - usedMarginMicro,
    marginLevelPct: level,
    marginCall: isMarginCall(level, core.settings().marginCallPct),
  };
}

/**
 * Balance, lock, equity, used and free margin, margin level (trading-rules.md "Account values").
 * An account the engine holds is answered from memory (its balance and lock are kept current by
 * the money service): the push loops and the copy checks read no store. Another account, or a held
 * one whose lock was never asked for, is read once.
 */
export function accountValues(core: EngineCore, userId: number): AccountFigures {
  const a = core.held.accts.get(userId);
  if (a?.lockMicro !== undefined)
    return figuresOf(
      core,
      { balance_micro: a.balanceMicro, lock_balance_micro: a.lockMicro },
      core.pricing.floatingMicro(a),
      a.usedMarginMicro,
    );
  const u = readUser(core.db, { userId });
  if (!u) throw new DomainError("not_found", CODE_NOT_FOUND);
  if (!a) return figuresOf(core, u, 0, 0);
  // Invariant: the balance the engine holds is the one the store holds.
  assert.equal(a.balanceMicro, u.balance_micro, `balance of account ${userId} in memory`);
  a.lockMicro = u.lock_balance_micro;
  return figuresOf(core, u, core.pricing.floatingMicro(a), a.usedMarginMicro);
}

/** The account's figures once it holds no position (read inside the transaction that emptied it). */
export function figuresWithoutPositions(core: EngineCore, userId: number): AccountFigures {
  const u = readUser(core.db, { userId });
  if (!u) throw new DomainError("not_found", CODE_NOT_FOUND);
  return figuresOf(core, u, 0, 0);
}

/** The account's figures with each open position at the current price (the FOREX_TRADE push). */
export function snapshot(core: EngineCore, userId: number): AccountSnapshot {
  const figures = accountValues(core, userId);
  const a = core.held.accts.get(userId);
  const positions: AccountSnapshot["positions"] = [];
  if (a)
    for (const p of a.positions)
      positions.push({
        id: p.id,
        price: core.pricing.price(p.inst) ?? p.openPrice,
        profitMicro: core.pricing.floatingMicroOf(p),
        stopLoss: stopLossOf(p),
      });
  return { figures, positions };
}

/** my_deal: status 0 pending, 1 holding, 3 history (closed and cancelled); PAGE_SIZE per page, newest first. */
export function listOrders(
  core: EngineCore,
  userId: number,
  status: 0 | 1 | 3,
  page: number,
): OrderPage {
  const balanceMicro = readBalance(core.db, { userId });
  if (balanceMicro === null) throw new DomainError("not_found", CODE_NOT_FOUND);
  const offset = (page - 1) * PAGE_SIZE;
  const { rows, total, historyProfitMicro } = dealPage(core.db, { userId, status, offset });
  let profitMicro = historyProfitMicro;
  if (status === ORDER_TAB.HOLDING) {
    const a = core.held.accts.get(userId);
    profitMicro = a ? core.pricing.floatingMicro(a) : 0;
  }
  return { orders: rows.map((r) => stateOfListed(core, r)), total, profitMicro, balanceMicro };
}

/** A listed row: live orders from memory (current price), the rest as stored. */
function stateOfListed(core: EngineCore, r: ListedOrderRow): OrderState {
  const live = core.held.orders.get(r.id);
  if (live && (r.status === ST_OPEN || r.status === ST_PENDING))
    return stateOfPos(live, r.created_at, core.pricing);
  return stateOfRow(r);
}
