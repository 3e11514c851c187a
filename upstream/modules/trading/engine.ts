/**
 * The order engine of the reference upstream (trading-rules.md): an in-memory book of every pending
 * order and open position, durable on every change.
 *
 * Hot path. Open positions live per instrument in typed arrays (direction, units, open price, TP,
 * SL, last profit, account slot); a tick marks to market only the instruments that ticked, with no
 * allocation per position, accumulating each account's floating profit (float, display/risk only)
 * in a Float64Array. Take-profit / stop-loss hits and reached pending orders are collected in the
 * loop and booked after it; accounts touched by the tick are then checked for stop-out. Pending
 * orders are indexed by trigger price (book.ts PendingIndex): a tick visits only those it reaches.
 *
 * Durability. Every command (open, close, cancel, TP/SL edit, demo reset) is one better-sqlite3
 * transaction with its ledger rows, committed before the change is applied in memory and before
 * the client gets its answer. What a tick books (TP/SL closes, pending fills, stop-outs) is one
 * transaction for the whole tick (one fsync): inside it each change is applied in memory as it is
 * booked and its inverse recorded, so a failure rolls back store and memory together (atomically);
 * events wait for the commit. The database runs in WAL mode with
 * synchronous=FULL: a commit is synced to the WAL file on disk when it returns, so an acknowledged
 * order survives kill -9 of the process and a power cut of the machine. On start the
 * engine loads every pending and open order from the database.
 *
 * Money. Booked amounts are integer micro-USD computed with decimal.js (money/decimal.ts,
 * half-even). Every balance change is booked through the money service (money/service.ts), which
 * writes the ledger row in the engine's transaction and tells the engine the balance after, as it
 * does for changes booked by other modules (deposits, withdrawals), so the risk checks see them.
 *
 * Boundaries. The engine takes already-parsed typed inputs (model.ts), returns domain values
 * (model.ts; views.ts maps them to the API's shapes), refuses with DomainError, and announces what
 * happened through its events (events.ts). It imports nothing of HTTP or the websocket hub.
 *
 * Modules. This file holds the Engine, the facade that wires the parts and is the module's API:
 * core.ts (the parts every piece works on), submit.ts (placing orders) and commands.ts (close,
 * cancel, stops, demo reset), ticks.ts (the tick) and booking.ts (closes, fills, stop-outs),
 * queries.ts (account figures, my_deal), transactions.ts (commands and booking groups),
 * holdings.ts (what is held in memory: book.ts per instrument, accounts.ts), invariants.ts,
 * pricing.ts, snapshots.ts (OrderState of an order), store.ts (all of the module's SQL),
 * settings.ts, instrument-specs.ts, orders.ts and risk.ts (the rules), and platform/idempotency.ts.
 */
import assert from "node:assert/strict";
import { clearlyAboveFloor } from "./book.js";
import type { DB } from "../../platform/db.js";
import type { PriceFeed, Quote } from "../market/feed.js";
import { moneyOf, type MoneyService } from "../money/service.js";
import { MICRO, round6, type Dec } from "../money/decimal.js";
import { marginLevelPct } from "./risk.js";
import * as commands from "./commands.js";
import type { CloseItem, Closed } from "./commands.js";
import { EngineCore, type Logger } from "./core.js";
import type { EngineEvents } from "./events.js";
import { ST_OPEN, type CloseReason, type InstrumentSpec } from "./orders.js";
import { stateOfPos } from "./snapshots.js";
import * as queries from "./queries.js";
import type { Settings } from "./settings.js";
import { liveOrders } from "./store.js";
import { submit, submitMarketMany, type MarketItem, type Placed } from "./submit.js";
import { Ticks } from "./ticks.js";
import type {
  AccountFigures,
  AccountSnapshot,
  OrderPage,
  OrderRequest,
  OrderState,
  Trail,
} from "./model.js";

// The engine's public API, importable from this module.
export type { Logger } from "./core.js";
export type { Settings } from "./settings.js";
export type { MarketItem, Placed } from "./submit.js";
export type { CloseItem, Closed } from "./commands.js";
export type {
  AccountFigures,
  AccountSnapshot,
  ExpiryRequest,
  OrderPage,
  OrderRequest,
  OrderState,
  Trail,
} from "./model.js";
export { NO_TRAIL } from "./model.js";

export interface EngineOptions {
  db: DB;
  feed: PriceFeed | null;
  /** The money service of the store (default: moneyOf(db)). */
  money?: MoneyService;
  log?: Logger;
  /**
   * Queues a command the engine sets off on its own (a tick's bookings; copy trading's stop-loss
   * ends) to be run and written like a user's: the leader passes its sequencer's. Without it, such
   * a command runs at once in its own transaction (one engine on its own, as the benches run it).
   */
  schedule?: (command: () => void) => void;
}

export class Engine {
  readonly db: DB;
  /** What the engine announces (events.ts), once committed. */
  readonly events: EngineEvents;
  /** The same, once the command that caused it succeeded, inside its batch (EngineCore.decided). */
  readonly decided: EngineEvents;
  private readonly core: EngineCore;
  private readonly ticks: Ticks;
  private unsubscribeFeed: (() => void) | null = null;
  private unsubscribeMoney: (() => void) | null = null;

  constructor(opts: EngineOptions) {
    this.db = opts.db;
    const log = opts.log ?? {
      error: (o, m) => console.error(m, o),
      warn: (o, m) => console.warn(m, o),
    };
    this.core = new EngineCore(opts.db, opts.money ?? moneyOf(opts.db), log);
    this.core.schedule = opts.schedule ?? null;
    this.events = this.core.events;
    this.decided = this.core.decided;
    this.ticks = new Ticks(this.core, () => this.flushTrailedStops());
    // The feed first: loaded positions are marked at its prices as they enter the book, so the
    // hot path's floating figures (the quick margin check, the stop-out scan) hold from the start.
    this.setFeed(opts.feed);
    this.loadLiveOrders();
    // Every balance change of a loaded account, whoever booked it, reaches its in-memory account.
    this.unsubscribeMoney = this.core.money.onBalance((userId, balanceMicro, lockMicro) => {
      const a = this.core.held.accts.get(userId);
      if (a) {
        a.balanceMicro = balanceMicro;
        if (lockMicro !== undefined) a.lockMicro = lockMicro;
        this.core.held.markDirty(a);
      }
    });
  }

  /**
   * Every pending and open order of the store into memory (orders of unknown instruments left out).
   * Their accounts are loaded first, by one query per ROWS_PER_STATEMENT users: one read per
   * account made a new leader with 10,000 copies' positions take 5 s of its 6 s takeover on
   * PostgreSQL (bench:cluster failover-load).
   */
  private loadLiveOrders(): void {
    const core = this.core;
    const rows = liveOrders(core.db);
    core.accounts([...new Set(rows.map((r) => r.user_id))]);
    for (const r of rows) {
      const inst = core.specs.get(r.instrument_id);
      if (!inst) {
        core.log.warn({ order: r.id }, "order of an unknown instrument left out of the book");
        continue;
      }
      core.held.enter(core.posOfRow(r, inst));
    }
  }

  // ---------------------------------------------------------------- settings, instruments, prices

  settings(): Settings {
    return this.core.settings();
  }

  /** Forgets cached settings and instruments (after an operator changed them). */
  /**
   * Tells the engine which accounts belong to one person (copy trading: a user and their copies'
   * accounts), so that none of them opens a side another of them holds the opposite of.
   */
  setSameOwner(fn: (userId: number) => readonly number[]): void {
    this.core.sameOwner = fn;
  }

  reloadSettings(): void {
    this.core.tradeSettings.forget();
    this.core.specs.reload();
  }

  /**
   * USD per unit of the instrument's quote currency, exact: the rule of instruments.ts usdRate (a
   * CCYUSD quote's price, or 1 / a USDCCY quote's price) in decimals; null when unknown (refused).
   */
  usdRate(inst: InstrumentSpec): Dec | null {
    return this.core.usdRate(inst);
  }

  /** Attaches the price source (replacing any previous one): the engine follows its ticks. */
  setFeed(feed: PriceFeed | null): void {
    const pricing = this.core.pricing;
    if (feed === pricing.feed) return;
    this.unsubscribeFeed?.();
    this.unsubscribeFeed = null;
    pricing.feed = feed;
    if (!feed) return;
    this.unsubscribeFeed = feed.onTick((changed) => {
      try {
        this.onTick(changed);
      } catch (err) {
        this.core.log.error({ err }, "engine tick failed");
      }
    });
    this.ticks.markToFeed();
  }

  stop(): void {
    this.unsubscribeFeed?.();
    this.unsubscribeFeed = null;
    this.unsubscribeMoney?.();
    this.unsubscribeMoney = null;
  }

  // ---------------------------------------------------------------- accounts

  /** Clears the changed-since-last-look flag of the user's account; true when it was set. */
  takeChanged(userId: number): boolean {
    const accts = this.core.held.accts;
    const a = accts.get(userId);
    if (!a || !accts.dirty[a.idx]) return false;
    accts.dirty[a.idx] = 0;
    return true;
  }

  /** Balance, lock, equity, used and free margin, margin level (trading-rules.md "Account values"). */
  accountValues(userId: number): AccountFigures {
    return queries.accountValues(this.core, userId);
  }

  /** The account's figures with each open position at the current price (the FOREX_TRADE push). */
  snapshot(userId: number): AccountSnapshot {
    return queries.snapshot(this.core, userId);
  }

  // ---------------------------------------------------------------- commands

  /**
   * Reads a command's idempotency key ahead of it (off the event loop), so that the command, in the
   * sequencer, looks it up in memory (platform/idempotency.ts). Nothing without a key.
   */
  prefetchKey(userId: number, idemKey: string | null): Promise<void> {
    return this.core.idem.prefetch(userId, idemKey);
  }

  /** Forgets the idempotency keys held in memory (Idempotency.forgetKept): lookups read the store. */
  forgetKeptKeys(): void {
    this.core.idem.forgetKept();
  }

  /**
   * Places a market (status 1) or pending (status 0) order. Same idempotency key again: the first
   * result. `inTx` runs inside the order's transaction with its answer (a row of the caller's that
   * must commit with the order or not at all).
   */
  submit(
    userId: number,
    req: OrderRequest,
    idemKey: string | null = null,
    inTx?: (v: OrderState) => void,
  ): OrderState {
    return submit(this.core, userId, req, idemKey, inTx);
  }

  /**
   * Places market orders of distinct users at once (copy trading mirrors one provider fill to every
   * copy): each checked exactly as submit checks a market order, a refusal being that item's answer
   * (a DomainError, not thrown), all of them booked in one transaction with a few multi-row
   * statements. `inTx` runs inside it after each slice of the items (`slice`, by default
   * SUBMIT_SLICE where the batch goes to the store in parts, else all), with that slice's answers
   * and the index of its first item; a failure other than a refusal undoes the whole, store and
   * memory. Not inside another transaction.
   */
  submitMarketMany(
    items: readonly MarketItem[],
    inTx?: (placed: readonly Placed[], from: number) => void,
    slice?: number,
  ): Placed[] {
    return submitMarketMany(this.core, items, inTx, slice);
  }

  /**
   * Closes an open position of the user at the current price ("manual" unless another reason closed
   * it); with `lots` less than it holds, only that part (partial close: the answer is the part).
   */
  close(
    userId: number,
    id: number | null,
    idemKey: string | null = null,
    reason: CloseReason = "manual",
    inTx?: (v: OrderState) => void,
    lots: Dec | null = null,
  ): OrderState {
    return commands.close(this.core, userId, id, idemKey, reason, inTx, lots);
  }

  /** Sets or clears (0) the trailing stop and break-even of an open position or pending order. */
  setTrailing(
    userId: number,
    id: number | null,
    trail: Trail,
    idemKey: string | null = null,
  ): OrderState {
    return commands.setTrailing(this.core, userId, { id, trail }, idemKey);
  }

  /** Cancels as expired every pending order whose expiry is at or before `now`; returns how many. */
  expireDue(now: number): number {
    return commands.expireDue(this.core, now);
  }

  /** True when some pending order's expiry is at or before `now` (memory only: the sweep's check). */
  anyExpiryDue(now: number): boolean {
    for (const p of this.core.held.expiring)
      if (p.expiresAt !== null && p.expiresAt <= now) return true;
    return false;
  }

  /** Writes the stops the trailing passes moved since the last flush; returns how many. */
  flushTrailedStops(): number {
    return commands.flushTrailed(this.core);
  }

  /**
   * Closes open positions at once (copy trading mirrors a provider's close to every copy): each
   * checked and priced exactly as close does, a refusal being that item's answer (a DomainError,
   * not thrown), all of them booked in one transaction with a few multi-row statements. `inTx`
   * runs inside it with every answer; a failure other than a refusal undoes the whole, store and
   * memory. positionsClosed goes out per account after the commit. Not inside another transaction.
   */
  closeMany(
    items: readonly CloseItem[],
    reason: CloseReason,
    inTx?: (closed: readonly Closed[]) => void,
  ): Closed[] {
    return commands.closeMany(this.core, items, reason, inTx);
  }

  /** Cancels a pending order of the user. */
  cancel(userId: number, id: number | null, idemKey: string | null = null): OrderState {
    return commands.cancel(this.core, userId, id, idemKey);
  }

  /** Sets or clears (null) take-profit and stop-loss of an open position or pending order. */
  setStops(
    userId: number,
    id: number | null,
    tp: number | null,
    sl: number | null,
    idemKey: string | null = null,
  ): OrderState {
    return commands.setStops(this.core, userId, { id, tp, sl }, idemKey);
  }

  /** Demo accounts only: closes every position, cancels pending orders, restores demo.initial_balance. */
  resetDemo(userId: number, idemKey: string | null = null): AccountFigures {
    return commands.resetDemo(this.core, userId, idemKey);
  }

  /**
   * Runs several commands as one transaction, one commit for all (copy trading mirrors one
   * provider trade to many accounts). Each command inside runs in its own savepoint
   * (`db.transaction`), so that one refusal undoes only itself; memory is undone with the store if
   * the whole fails, and events wait for the commit. Not inside another transaction.
   */
  batch(fn: () => void): void {
    this.core.tx.atomically(fn);
  }

  // ---------------------------------------------------------------- the tick

  /**
   * Runs `command` as the engine runs what it sets off on its own (EngineOptions.schedule): queued
   * on the leader's sequencer, or at once. For the listeners of the ticks that write (copy trading's
   * stop-loss ends), so that their writes follow the tick's bookings in the same order.
   */
  schedule(command: () => void): void {
    const s = this.core.schedule;
    if (s) s(command);
    else command();
  }

  /** Marks to market the instruments that ticked, then books TP/SL, pending activations and stop-outs. */
  onTick(changed: Quote[]): void {
    this.ticks.onTick(changed);
  }

  // ---------------------------------------------------------------- views

  /** my_deal: status 0 pending, 1 holding, 3 history (closed and cancelled); PAGE_SIZE per page, newest first. */
  listOrders(userId: number, status: 0 | 1 | 3, page: number): OrderPage {
    return queries.listOrders(this.core, userId, status, page);
  }

  /** The instrument as the engine trades it (lot step `pip`, minimum lots, leverages), or null. */
  instrument(id: number): InstrumentSpec | null {
    return this.core.specs.get(id);
  }

  /** How many open positions of the user memory holds (no allocation: the tick's checks). */
  openPositionCount(userId: number): number {
    const a = this.core.held.accts.get(userId);
    if (!a) return 0;
    let n = 0;
    for (const p of a.positions) if (p.status === ST_OPEN) n++;
    return n;
  }

  /** Ids of the user's open positions held in memory, in the order they opened. */
  openPositionIds(userId: number): number[] {
    const a = this.core.held.accts.get(userId);
    if (!a) return [];
    const ids: number[] = [];
    for (const p of a.positions) if (p.status === ST_OPEN) ids.push(p.id);
    return ids.sort((x, y) => x - y);
  }

  /**
   * True when the held account's equity, from the hot path's float floating profit, is above
   * `floorMicro` by the float band (floatBandMicro): clearly above, no exact figure needed. False
   * when it may not be, or the account is not held: the caller decides with the exact equity.
   */
  clearlyAboveMicro(userId: number, floorMicro: number): boolean {
    const accts = this.core.held.accts;
    const a = accts.get(userId);
    return a !== undefined && clearlyAboveFloor(a.balanceMicro, accts.float[a.idx], floorMicro);
  }

  /**
   * Sets (or, null, clears) the equity floor of `userId`'s account, integer micro-USD: after each
   * tick that moves the account's equity to within the float band of it, or below, the floor
   * listeners hear of it (onEquityFloor). Copy trading's stop-loss keeps one per live copy.
   */
  setEquityFloor(userId: number, floorMicro: number | null): void {
    this.core.held.accts.setFloor(userId, floorMicro);
  }

  /**
   * Hears, after each tick (its bookings queued first), the user ids of the accounts it left at or
   * near their equity floor by the float figures; the listener decides with the exact equity.
   */
  onEquityFloor(fn: (userIds: readonly number[]) => void): () => void {
    return this.ticks.onEquityFloor(fn);
  }

  /**
   * Holds these accounts in memory from now on, those not yet held read with their stored balances
   * by one query per ROWS_PER_STATEMENT (a user with no stored row is left out): as their first
   * order would, ahead of it. Every later balance change reaches them (the money service's
   * onBalance), as for any account held.
   */
  holdAccounts(userIds: readonly number[]): void {
    this.core.accounts(userIds);
  }

  /**
   * Holds an account made just now, whose stored balance its maker knows without a read (a copy's
   * account holds exactly what moved into it), so that its first order, or its copy's first
   * mirrored trade, reads nothing: on PostgreSQL such a read inside a batch makes the whole batch
   * go on the connection while the event loop waits. An account already held is left as it is.
   * Every later balance change reaches it (the money service's onBalance), as for any account held.
   */
  holdNewAccount(userId: number, balanceMicro: number): void {
    assert(
      Number.isSafeInteger(balanceMicro) && balanceMicro >= 0,
      `a new account's balance is a whole, non-negative micro-USD amount: ${balanceMicro}`,
    );
    if (!this.core.held.accts.get(userId)) this.core.held.accts.add(userId, balanceMicro);
  }

  /** Balance plus floating profit of an account held in memory (hot path, no store read); null when not held. */
  heldEquityMicro(userId: number): number | null {
    const a = this.core.held.accts.get(userId);
    return a ? a.balanceMicro + this.core.pricing.floatingMicro(a) : null;
  }

  /**
   * Equity (balance plus floating profit, micro-USD) of each of these accounts from memory, the
   * accounts not yet held loaded first with one query; equal to accountValues(id).equityMicro, as
   * the money service tells memory every balance change. Absent: no such user.
   */
  equitiesMicro(userIds: readonly number[]): Map<number, number> {
    const out = new Map<number, number>();
    for (const [id, a] of this.core.accounts(userIds))
      out.set(id, a.balanceMicro + this.core.pricing.floatingMicro(a));
    return out;
  }

  /** Whether the order is an open position or a pending order (memory only, no store read). */
  isLive(id: number): boolean {
    return this.core.held.orders.has(id);
  }

  /**
   * Calls `fn` with each account that holds margin and its margin level (percent) from the hot
   * path's float figures (display and notices only; bookings decide on exact figures).
   */
  marginLevels(fn: (userId: number, levelPct: number) => void): void {
    const { list, float } = this.core.held.accts;
    for (const a of list) {
      if (a.usedMarginMicro <= 0) continue;
      const level = marginLevelPct(
        a.balanceMicro / MICRO + float[a.idx],
        a.usedMarginMicro / MICRO,
      );
      if (level !== null) fn(a.userId, level);
    }
  }

  /** An open position or pending order held in memory, at the current price; null when not live. */
  liveOrder(id: number): OrderState | null {
    const p = this.core.held.orders.get(id);
    return p ? stateOfPos(p, p.createdAt, this.core.pricing) : null;
  }

  // ---------------------------------------------------------------- introspection (tests, bench)

  /** Number of open positions and pending orders held in memory. */
  stats(): { open: number; pending: number; accounts: number } {
    return this.core.held.stats();
  }

  /** Float floating profit of an account from the hot path (display only). */
  hotFloating(userId: number): number {
    const accts = this.core.held.accts;
    const a = accts.get(userId);
    return a ? round6(accts.float[a.idx]) : 0;
  }
}

export function createEngine(opts: EngineOptions): Engine {
  return new Engine(opts);
}
