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
 * Modules. This file holds the Engine (commands, booking, the tick, loading). Its parts: book.ts
 * (per-instrument Book and Pos, the hot loop), accounts.ts (accounts and their per-slot typed
 * arrays), pricing.ts (prices, USD rates, floating profit), snapshots.ts (OrderState of an order),
 * sql.ts (its statements and my_deal paging), settings.ts, instrument-specs.ts, orders.ts and
 * risk.ts (the rules), and platform/idempotency.ts.
 */
import assert from "node:assert/strict";
import { IS_DEMO, ORDER_TAB } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import type { PriceFeed, Quote } from "../market/feed.js";
import { DomainError, CODE_FAIL, CODE_NOT_FOUND } from "../../platform/errors.js";
import { Idempotency } from "../../platform/idempotency.js";
import { moneyOf, type MoneyService } from "../money/service.js";
import {
  MICRO,
  dec,
  decConst,
  microToNumber,
  round6,
  toMicro,
  type Dec,
} from "../money/decimal.js";
import {
  BUY,
  ST_CANCELLED,
  ST_OPEN,
  ST_PENDING,
  openAmounts,
  pendingKind,
  pendingReached,
  profitUsd,
  validateLeverage,
  validateLots,
  validateStops,
  type CloseReason,
  type InstrumentSpec,
} from "./orders.js";
import { isMarginCall, marginLevelPct, protectionAmount, stopOutOrder } from "./risk.js";
import { Book, type Pos, type StopHits } from "./book.js";
import { AccountTable, aggregate, type Account } from "./accounts.js";
import { ONE, Pricing } from "./pricing.js";
import { InstrumentSpecs } from "./instrument-specs.js";
import { TradeSettings, type Settings } from "./settings.js";
import {
  DealPages,
  PAGE_SIZE,
  engineStatements,
  type ListedOrderRow,
  type OrderRow,
} from "./sql.js";
import { stateClosed, stateOfPos, stateOfRow } from "./snapshots.js";
import { EngineEvents, type EngineEventMap, type EngineEventName } from "./events.js";
import type {
  AccountFigures,
  AccountSnapshot,
  OrderPage,
  OrderRequest,
  OrderState,
} from "./model.js";

// The engine's public API, importable from this module.
export type { Settings } from "./settings.js";
export type {
  AccountFigures,
  AccountSnapshot,
  OrderPage,
  OrderRequest,
  OrderState,
} from "./model.js";

export interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface EngineOptions {
  db: DB;
  feed: PriceFeed | null;
  /** The money service of the store (default: moneyOf(db)). */
  money?: MoneyService;
  log?: Logger;
}

export class Engine {
  readonly db: DB;
  private unsubscribeFeed: (() => void) | null = null;
  private log: Logger;

  private readonly pricing = new Pricing();
  private readonly specs: InstrumentSpecs;
  private readonly tradeSettings: TradeSettings;
  private readonly idem: Idempotency;
  private readonly deals: DealPages;
  private readonly money: MoneyService;
  private unsubscribeMoney: (() => void) | null = null;
  /** What the engine announces (events.ts). */
  readonly events: EngineEvents;

  private books = new Map<number, Book>();
  /** Loaded accounts, with the hot path's per-account typed arrays. */
  private readonly accts = new AccountTable();
  private orders = new Map<number, Pos>();

  private st: ReturnType<typeof engineStatements>;

  constructor(opts: EngineOptions) {
    this.db = opts.db;
    this.log = opts.log ?? {
      error: (o, m) => console.error(m, o),
      warn: (o, m) => console.warn(m, o),
    };
    this.st = engineStatements(this.db);
    this.money = opts.money ?? moneyOf(this.db);
    this.events = new EngineEvents((err, event) =>
      this.log.error({ err, event }, "engine event listener failed"),
    );
    this.specs = new InstrumentSpecs(this.db);
    this.tradeSettings = new TradeSettings(this.db);
    this.idem = new Idempotency(this.db);
    this.deals = new DealPages(this.db);
    // The feed first: loaded positions are marked at its prices as they enter the book, so the
    // hot path's floating figures (the quick margin check, the stop-out scan) hold from the start.
    this.setFeed(opts.feed);
    this.loadOpenOrders();
    // Every balance change of a loaded account, whoever booked it, reaches its in-memory account.
    this.unsubscribeMoney = this.money.onBalance((userId, balanceMicro) => {
      const a = this.accts.get(userId);
      if (a) {
        a.balanceMicro = balanceMicro;
        this.accts.dirty[a.idx] = 1;
      }
    });
  }

  /** Runs fn in one transaction of the money service (a rollback re-announces the balances). */
  private runTx<T>(fn: () => T): T {
    return this.money.transaction(fn);
  }

  /**
   * The group of bookings under way (a tick's closes, fills and stop-outs in one transaction): the
   * steps that undo its in-memory changes, newest last, and its events, held until the commit.
   * Null outside a group.
   */
  private group: { undo: (() => void)[]; events: (() => void)[] } | null = null;

  /**
   * Runs fn as one transaction whose in-memory changes are undone when it fails: every change of
   * the book made inside (addOpen, removeOpen, addPending, removePending, an activation's fields)
   * records its inverse; balances come back through the money service, which re-announces them
   * from the store after a rollback. Events are emitted only once the commit has returned.
   */
  private atomically(fn: () => void): void {
    assert(this.group === null, "booking groups do not nest");
    assert(!this.db.inTransaction, "a booking group is its own transaction");
    const g: { undo: (() => void)[]; events: (() => void)[] } = { undo: [], events: [] };
    this.group = g;
    try {
      this.runTx(fn);
    } catch (err) {
      this.group = null;
      for (let i = g.undo.length - 1; i >= 0; i--) g.undo[i]();
      throw err;
    }
    this.group = null;
    assert(!this.db.inTransaction, "the group committed");
    for (const e of g.events) e();
  }

  /** Records the inverse of an in-memory change while a booking group is under way. */
  private undoable(step: () => void): void {
    this.group?.undo.push(step);
  }

  /** Announces an event: at once outside a group, after the group's commit inside one. */
  private emit<K extends EngineEventName>(name: K, e: EngineEventMap[K]): void {
    if (this.group) {
      this.group.events.push(() => this.events.emit(name, e));
      return;
    }
    assert(!this.db.inTransaction, `event ${name} emitted before the commit`);
    this.events.emit(name, e);
  }

  // ---------------------------------------------------------------- settings, instruments, prices

  settings(): Settings {
    return this.tradeSettings.get();
  }

  /** Forgets cached settings and instruments (after an operator changed them). */
  reloadSettings(): void {
    this.tradeSettings.forget();
    this.specs.reload();
  }

  private book(inst: InstrumentSpec): Book {
    let b = this.books.get(inst.id);
    if (!b) this.books.set(inst.id, (b = new Book(inst)));
    return b;
  }

  /**
   * USD per unit of the instrument's quote currency, exact: the rule of instruments.ts usdRate (a
   * CCYUSD quote's price, or 1 / a USDCCY quote's price) in decimals; null when unknown (refused).
   */
  usdRate(inst: InstrumentSpec): Dec | null {
    return this.pricing.usdRate(inst);
  }

  /** Attaches the price source (replacing any previous one): the engine follows its ticks. */
  setFeed(feed: PriceFeed | null): void {
    if (feed === this.pricing.feed) return;
    this.unsubscribeFeed?.();
    this.unsubscribeFeed = null;
    this.pricing.feed = feed;
    if (feed) {
      this.unsubscribeFeed = feed.onTick((changed) => {
        try {
          this.onTick(changed);
        } catch (err) {
          this.log.error({ err }, "engine tick failed");
        }
      });
      this.markToFeed();
    }
  }

  /**
   * Marks every open position to the attached feed's current prices, booking nothing (the next tick
   * of each instrument books what its price reaches). Holds the invariant that each account's
   * hot-path floating figure is the sum of its positions at the feed's prices, also for positions
   * loaded before the feed was attached.
   */
  private markToFeed(): void {
    const accts = this.accts;
    let tn = accts.touchedN;
    for (const book of this.books.values()) {
      if (book.n === 0) continue;
      const price = this.pricing.price(book.inst);
      const rate = this.pricing.usdRateF(book.inst);
      if (price !== null && price > 0 && Number.isFinite(rate))
        tn = book.mark(price, rate, accts, tn);
    }
    for (let k = 0; k < tn; k++) accts.touched[accts.touchedList[k]] = 0;
    accts.touchedN = 0;
  }

  stop(): void {
    this.unsubscribeFeed?.();
    this.unsubscribeFeed = null;
    this.unsubscribeMoney?.();
    this.unsubscribeMoney = null;
  }

  // ---------------------------------------------------------------- accounts

  private account(userId: number): Account {
    const a = this.accts.get(userId);
    if (a) return a;
    const r = this.st.balance.get(userId) as { balance_micro: number } | undefined;
    if (!r) throw new DomainError("not_found", CODE_NOT_FOUND);
    return this.accts.add(userId, r.balance_micro);
  }

  /**
   * Fast path of the free-margin check: true when free margin computed from the hot path's float
   * floating profit exceeds `needMicro` by a wide safety band (1 USD + 1% of the floating profit,
   * far above float error and cross-rate drift between ticks). Otherwise the caller decides with
   * the exact figure, so the outcome is always the exact rule's.
   */
  private clearlyAffordable(a: Account, balanceMicro: number, needMicro: number): boolean {
    if (a.positions.size === 0) return balanceMicro >= needMicro;
    const floatingMicro = this.accts.float[a.idx] * 1e6;
    const slack = 1e6 + Math.abs(floatingMicro) * 0.01;
    return balanceMicro + floatingMicro - a.usedMarginMicro - slack >= needMicro;
  }

  /** Clears the changed-since-last-look flag of the user's account; true when it was set. */
  takeChanged(userId: number): boolean {
    const a = this.accts.get(userId);
    if (!a || !this.accts.dirty[a.idx]) return false;
    this.accts.dirty[a.idx] = 0;
    return true;
  }

  /** Balance, lock, equity, used and free margin, margin level (trading-rules.md "Account values"). */
  accountValues(userId: number): AccountFigures {
    const u = this.st.user.get(userId) as
      { balance_micro: number; lock_balance_micro: number } | undefined;
    if (!u) throw new DomainError("not_found", CODE_NOT_FOUND);
    const a = this.accts.get(userId);
    const used = a ? a.usedMarginMicro : 0;
    const floating = a ? this.pricing.floatingMicro(a) : 0;
    const equity = u.balance_micro + floating;
    const level = marginLevelPct(equity, used);
    return {
      balanceMicro: u.balance_micro,
      lockMicro: u.lock_balance_micro,
      equityMicro: equity,
      floatingMicro: floating,
      usedMarginMicro: used,
      freeMarginMicro: equity - used,
      marginLevelPct: level,
      marginCall: isMarginCall(level, this.settings().marginCallPct),
    };
  }

  /** The account's figures once it holds no position (read inside the transaction that emptied it). */
  private figuresWithoutPositions(userId: number): AccountFigures {
    const u = this.st.user.get(userId) as { balance_micro: number; lock_balance_micro: number };
    const level = marginLevelPct(u.balance_micro, 0);
    return {
      balanceMicro: u.balance_micro,
      lockMicro: u.lock_balance_micro,
      equityMicro: u.balance_micro,
      floatingMicro: 0,
      usedMarginMicro: 0,
      freeMarginMicro: u.balance_micro,
      marginLevelPct: level,
      marginCall: isMarginCall(level, this.settings().marginCallPct),
    };
  }

  /** The account's figures with each open position at the current price (the FOREX_TRADE push). */
  snapshot(userId: number): AccountSnapshot {
    const figures = this.accountValues(userId);
    const a = this.accts.get(userId);
    const positions: AccountSnapshot["positions"] = [];
    if (a)
      for (const p of a.positions)
        positions.push({
          id: p.id,
          price: this.pricing.price(p.inst) ?? p.openPrice,
          profitMicro: this.pricing.floatingMicroOf(p),
        });
    return { figures, positions };
  }

  // ---------------------------------------------------------------- loading

  private loadOpenOrders(): void {
    for (const r of this.st.liveOrders.all() as OrderRow[]) {
      const inst = this.specs.get(r.instrument_id);
      if (!inst) {
        this.log.warn({ order: r.id }, "order of an unknown instrument left out of the book");
        continue;
      }
      const a = this.account(r.user_id);
      const p = this.posFromRow(r, inst, a);
      if (p.status === ST_OPEN) this.addOpen(p);
      else this.addPending(p);
    }
  }

  private posFromRow(r: OrderRow, inst: InstrumentSpec, a: Account): Pos {
    return {
      id: r.id,
      userId: r.user_id,
      acc: a,
      inst,
      book: this.book(inst),
      orderType: r.order_type,
      status: r.status,
      pendingKind: r.pending_kind,
      lots: dec(r.lots),
      units: dec(r.units),
      leverage: r.leverage,
      originPrice: r.origin_price,
      openPrice: r.open_price ?? 0,
      tp: r.take_profit ?? 0,
      sl: r.stop_loss ?? 0,
      marginMicro: r.margin_micro,
      feeMicro: r.fee_micro,
      slot: -1,
    };
  }

  private addOpen(p: Pos): void {
    p.status = ST_OPEN;
    const price = this.pricing.price(p.inst);
    const rate = this.pricing.usdRateF(p.inst);
    const profit =
      price === null || !Number.isFinite(rate)
        ? 0
        : (p.orderType === BUY ? price - p.openPrice : p.openPrice - price) *
          p.units.toNumber() *
          rate;
    p.book.add(p, profit);
    p.acc.positions.add(p);
    p.acc.usedMarginMicro += p.marginMicro;
    aggregate(p, 1);
    this.orders.set(p.id, p);
    this.accts.refloat(p.acc);
    this.undoable(() => this.removeOpen(p));
  }

  private removeOpen(p: Pos): void {
    assert(
      p.status === ST_OPEN && p.slot >= 0,
      `order ${p.id} is not an open position in the book`,
    );
    p.book.remove(p);
    p.acc.positions.delete(p);
    p.acc.usedMarginMicro -= p.marginMicro;
    aggregate(p, -1);
    this.orders.delete(p.id);
    this.accts.refloat(p.acc);
    this.undoable(() => this.addOpen(p));
  }

  private addPending(p: Pos): void {
    p.book.addPending(p);
    p.acc.pendings.add(p);
    this.orders.set(p.id, p);
    this.accts.dirty[p.acc.idx] = 1;
    this.undoable(() => this.removePending(p));
  }

  private removePending(p: Pos): void {
    p.book.removePending(p);
    p.acc.pendings.delete(p);
    this.orders.delete(p.id);
    this.accts.dirty[p.acc.idx] = 1;
    this.undoable(() => this.addPending(p));
  }

  // ---------------------------------------------------------------- commands

  /** Places a market (status 1) or pending (status 0) order. Same idempotency key again: the first result. */
  submit(userId: number, req: OrderRequest, idemKey: string | null = null): OrderState {
    const replay = this.idem.lookup<OrderState>(userId, idemKey, "submit", req);
    if (replay) return replay;

    const orderType = req.side;
    const status = req.status;
    const inst = req.instrumentId === null ? null : this.specs.get(req.instrumentId);
    if (!inst || !inst.enabled) throw new DomainError("instrument_not_found");
    const leverage = validateLeverage(req.leverage, inst);
    const s = this.settings();
    const lots = validateLots(req.lots, inst, s.maxLots);
    const tp = req.takeProfit;
    const sl = req.stopLoss;

    const q = this.pricing.feed?.quote(inst.id);
    if (!q || !(q.price > 0)) throw new DomainError("quote_stale");
    const rate = this.usdRate(inst);
    if (rate === null) throw new DomainError("quote_stale");
    const units = lots.mul(decConst(inst.contNum));
    const now = Date.now();

    if (status === ST_PENDING) {
      const target = req.targetPrice;
      if (target === null) throw new DomainError("target_price_required");
      validateStops(orderType, target, tp, sl, inst.precision);
      const kind = pendingKind(orderType, target, q.price);
      const a = this.account(userId);
      const view = this.runTx(() => {
        this.checkOrderCap(userId, s.maxOrders);
        const { id } = this.st.insertOrder.get(
          userId,
          inst.id,
          orderType,
          ST_PENDING,
          kind,
          lots.toString(),
          units.toString(),
          leverage,
          target,
          null,
          tp,
          sl,
          0,
          0,
          now,
          null,
        ) as { id: number };
        const p: Pos = {
          id,
          userId,
          acc: a,
          inst,
          book: this.book(inst),
          orderType,
          status: ST_PENDING,
          pendingKind: kind,
          lots,
          units,
          leverage,
          originPrice: target,
          openPrice: 0,
          tp: tp ?? 0,
          sl: sl ?? 0,
          marginMicro: 0,
          feeMicro: 0,
          slot: -1,
        };
        const v = stateOfPos(p, now, this.pricing);
        this.idem.store(userId, idemKey, "submit", req, v);
        return { v, p };
      });
      this.addPending(view.p);
      this.emit("orderPlaced", { userId, orderId: view.p.id, pending: true });
      return view.v;
    }

    if (!this.pricing.feed!.isOpen(inst.id)) throw new DomainError("market_closed");
    if (now - q.time > s.staleAfterS * 1000) throw new DomainError("quote_stale");
    const price = q.price;
    validateStops(orderType, price, tp, sl, inst.precision);
    const { marginMicro, feeMicro } = openAmounts(lots, inst, price, leverage, s.feeType, rate);
    const a = this.account(userId);
    const res = this.runTx(() => {
      this.checkOrderCap(userId, s.maxOrders);
      const bal = (this.st.balance.get(userId) as { balance_micro: number }).balance_micro;
      a.balanceMicro = bal;
      if (!this.clearlyAffordable(a, bal, marginMicro + feeMicro)) {
        const free = bal + this.pricing.floatingMicro(a) - a.usedMarginMicro;
        if (marginMicro + feeMicro > free) {
          throw new DomainError("insufficient_margin", 0, {
            need: microToNumber(marginMicro + feeMicro).toFixed(2),
            free: microToNumber(Math.max(free, 0)).toFixed(2),
          });
        }
      }
      const { id } = this.st.insertOrder.get(
        userId,
        inst.id,
        orderType,
        ST_OPEN,
        null,
        lots.toString(),
        units.toString(),
        leverage,
        price,
        price,
        tp,
        sl,
        marginMicro,
        feeMicro,
        now,
        now,
      ) as { id: number };
      const balAfter =
        feeMicro !== 0
          ? this.money.post({
              userId,
              amountMicro: -feeMicro,
              kind: "fee",
              ref: `order:${id}`,
              at: now,
            })
          : bal;
      const p: Pos = {
        id,
        userId,
        acc: a,
        inst,
        book: this.book(inst),
        orderType,
        status: ST_OPEN,
        pendingKind: null,
        lots,
        units,
        leverage,
        originPrice: price,
        openPrice: price,
        tp: tp ?? 0,
        sl: sl ?? 0,
        marginMicro,
        feeMicro,
        slot: -1,
      };
      const v = stateOfPos(p, now, this.pricing);
      this.idem.store(userId, idemKey, "submit", req, v);
      return { v, p, balAfter };
    });
    a.balanceMicro = res.balAfter;
    this.addOpen(res.p);
    this.emit("orderPlaced", { userId, orderId: res.p.id, pending: false });
    return res.v;
  }

  /** Closes an open position of the user at the current price. */
  close(userId: number, id: number | null, idemKey: string | null = null): OrderState {
    const replay = this.idem.lookup<OrderState>(userId, idemKey, "close", { id });
    if (replay) return replay;
    const p = this.ownOrder(userId, id);
    if (p.status !== ST_OPEN) throw new DomainError("order_not_open");
    const q = this.pricing.feed?.quote(p.inst.id);
    if (!q || !(q.price > 0)) throw new DomainError("quote_stale");
    if (!this.pricing.feed!.isOpen(p.inst.id)) throw new DomainError("market_closed");
    if (Date.now() - q.time > this.settings().staleAfterS * 1000)
      throw new DomainError("quote_stale");
    const v = this.closePosition(p, q.price, "manual", (view) =>
      this.idem.store(userId, idemKey, "close", { id }, view),
    );
    return v;
  }

  /** Cancels a pending order of the user. */
  cancel(userId: number, id: number | null, idemKey: string | null = null): OrderState {
    const replay = this.idem.lookup<OrderState>(userId, idemKey, "cancel_trade", { id });
    if (replay) return replay;
    const p = this.ownOrder(userId, id);
    if (p.status !== ST_PENDING) throw new DomainError("order_not_pending");
    return this.cancelPending(p, "cancelled", (view) =>
      this.idem.store(userId, idemKey, "cancel_trade", { id }, view),
    );
  }

  /** Sets or clears (null) take-profit and stop-loss of an open position or pending order. */
  setStops(
    userId: number,
    id: number | null,
    tp: number | null,
    sl: number | null,
    idemKey: string | null = null,
  ): OrderState {
    const params = { id, tp, sl };
    const replay = this.idem.lookup<OrderState>(userId, idemKey, "set_stop_price", params);
    if (replay) return replay;
    const p = this.ownOrder(userId, id);
    let ref = p.originPrice;
    if (p.status === ST_OPEN) {
      const price = this.pricing.price(p.inst);
      if (price === null) throw new DomainError("quote_stale");
      ref = price;
    }
    validateStops(p.orderType, ref, tp, sl, p.inst.precision);
    const createdAt = this.createdAt(p.id);
    const view = this.runTx(() => {
      this.st.setStops.run(tp, sl, p.id);
      const v = stateOfPos({ ...p, tp: tp ?? 0, sl: sl ?? 0 }, createdAt, this.pricing);
      this.idem.store(userId, idemKey, "set_stop_price", params, v);
      return v;
    });
    p.tp = tp ?? 0;
    p.sl = sl ?? 0;
    if (p.status === ST_OPEN) p.book.setStops(p, p.tp, p.sl);
    this.accts.dirty[p.acc.idx] = 1;
    this.emit("stopsChanged", { userId, orderId: p.id });
    return view;
  }

  /** Demo accounts only: closes every position, cancels pending orders, restores demo.initial_balance. */
  resetDemo(userId: number, idemKey: string | null = null): AccountFigures {
    const replay = this.idem.lookup<AccountFigures>(userId, idemKey, "reset_demo", {});
    if (replay) return replay;
    const u = this.st.user.get(userId) as { is_demo: number } | undefined;
    if (!u) throw new DomainError("not_found", CODE_NOT_FOUND);
    if (u.is_demo !== IS_DEMO.DEMO) throw new DomainError("only_demo");
    const a = this.account(userId);
    const initial = toMicro(dec(this.settings().demoInitial));
    const now = Date.now();
    const open = [...a.positions];
    const pend = [...a.pendings];
    this.runTx(() => {
      for (const p of open) {
        const price = this.pricing.price(p.inst) ?? p.openPrice;
        const rate = this.usdRate(p.inst) ?? ONE;
        const profit = toMicro(profitUsd(p.orderType, p.openPrice, price, p.units, rate));
        this.st.closeOrder.run(price, profit, "demo_reset", now, p.id);
        if (profit !== 0)
          this.money.post({
            userId,
            amountMicro: profit,
            kind: "realised_profit",
            ref: `order:${p.id}`,
            at: now,
          });
      }
      for (const p of pend) this.st.cancelOrder.run("demo_reset", now, p.id);
      const bal = (this.st.balance.get(userId) as { balance_micro: number }).balance_micro;
      if (bal !== initial)
        this.money.post({
          userId,
          amountMicro: initial - bal,
          kind: "demo_reset",
          ref: "demo_reset",
          at: now,
        });
      this.idem.store(userId, idemKey, "reset_demo", {}, this.figuresWithoutPositions(userId));
    });
    for (const p of open) this.removeOpen(p);
    for (const p of pend) this.removePending(p);
    a.balanceMicro = initial;
    this.accts.dirty[a.idx] = 1;
    if (open.length)
      this.emit("positionsClosed", {
        userId,
        orderIds: open.map((p) => p.id),
        reason: "demo_reset",
      });
    for (const p of pend)
      this.emit("orderCancelled", { userId, orderId: p.id, reason: "demo_reset" });
    return this.accountValues(userId);
  }

  // ---------------------------------------------------------------- booking primitives

  /** Refuses a new order while the account holds trade.max_orders pending and open orders (in the order's transaction). */
  private checkOrderCap(userId: number, max: number): void {
    const { n } = this.st.liveOrderCount.get(userId) as { n: number };
    if (n >= max) throw new DomainError("too_many_orders", CODE_FAIL, { count: max });
  }

  private ownOrder(userId: number, id: number | null): Pos {
    const p = id === null ? undefined : this.orders.get(id);
    if (p && p.userId === userId) return p;
    if (id !== null) {
      const r = this.st.orderById.get(id) as OrderRow | undefined;
      if (r && r.user_id === userId) {
        throw new DomainError(r.status === ST_PENDING ? "order_not_pending" : "order_not_open");
      }
    }
    throw new DomainError("order_not_found", CODE_NOT_FOUND);
  }

  /**
   * Closes an open position at `price` in one transaction: the order row, its realised profit ledger
   * row, and negative balance protection when it was the account's last position.
   */
  private closePosition(
    p: Pos,
    price: number,
    reason: CloseReason,
    inTx?: (v: OrderState) => void,
  ): OrderState {
    const rate = this.usdRate(p.inst) ?? ONE;
    const profit = toMicro(profitUsd(p.orderType, p.openPrice, price, p.units, rate));
    const now = Date.now();
    const userId = p.userId;
    const a = p.acc;
    const view = this.runTx(() => {
      const changed = this.st.closeOrder.run(price, profit, reason, now, p.id).changes;
      if (changed !== 1) throw new DomainError("order_not_open");
      let bal =
        profit !== 0
          ? this.money.post({
              userId,
              amountMicro: profit,
              kind: "realised_profit",
              ref: `order:${p.id}`,
              at: now,
            })
          : (this.st.balance.get(userId) as { balance_micro: number }).balance_micro;
      const prot = protectionAmount(bal, a.positions.size - 1);
      if (prot !== 0)
        bal = this.money.post({
          userId,
          amountMicro: prot,
          kind: "protection",
          ref: `order:${p.id}`,
          at: now,
        });
      a.balanceMicro = bal;
      const v = stateClosed(p, this.createdAt(p.id), this.pricing, price, profit, reason, now);
      inTx?.(v);
      return v;
    });
    this.removeOpen(p);
    this.emit("positionsClosed", { userId, orderIds: [p.id], reason });
    return view;
  }

  private cancelPending(p: Pos, reason: CloseReason, inTx?: (v: OrderState) => void): OrderState {
    const now = Date.now();
    const view = this.runTx(() => {
      const changed = this.st.cancelOrder.run(reason, now, p.id).changes;
      if (changed !== 1) throw new DomainError("order_not_pending");
      const v: OrderState = {
        ...stateOfPos(p, this.createdAt(p.id), this.pricing),
        status: ST_CANCELLED,
        closeReason: reason,
        closedAt: now,
      };
      inTx?.(v);
      return v;
    });
    this.removePending(p);
    this.emit("orderCancelled", { userId: p.userId, orderId: p.id, reason });
    return view;
  }

  /** Activates a reached pending order at the tick's price, or cancels it when free margin is too small. */
  private activate(p: Pos, price: number): void {
    if (this.pricing.feed && !this.pricing.feed.isOpen(p.inst.id)) return;
    const rate = this.usdRate(p.inst);
    if (rate === null) return;
    const s = this.settings();
    const { marginMicro, feeMicro } = openAmounts(
      p.lots,
      p.inst,
      price,
      p.leverage,
      s.feeType,
      rate,
    );
    const a = p.acc;
    const now = Date.now();
    const ok = this.runTx(() => {
      const bal = (this.st.balance.get(p.userId) as { balance_micro: number }).balance_micro;
      a.balanceMicro = bal;
      const free = bal + this.pricing.floatingMicro(a) - a.usedMarginMicro;
      if (marginMicro + feeMicro > free) {
        this.st.cancelOrder.run("insufficient_margin", now, p.id);
        return false;
      }
      this.st.activate.run(price, marginMicro, feeMicro, now, p.id);
      if (feeMicro !== 0)
        a.balanceMicro = this.money.post({
          userId: p.userId,
          amountMicro: -feeMicro,
          kind: "fee",
          ref: `order:${p.id}`,
          at: now,
        });
      return true;
    });
    this.removePending(p);
    if (ok) {
      const was = {
        status: p.status,
        openPrice: p.openPrice,
        margin: p.marginMicro,
        fee: p.feeMicro,
      };
      this.undoable(() => {
        p.status = was.status;
        p.openPrice = was.openPrice;
        p.marginMicro = was.margin;
        p.feeMicro = was.fee;
      });
      p.openPrice = price;
      p.marginMicro = marginMicro;
      p.feeMicro = feeMicro;
      this.addOpen(p);
      this.emit("orderActivated", { userId: p.userId, orderId: p.id, price });
    } else {
      this.emit("orderCancelled", {
        userId: p.userId,
        orderId: p.id,
        reason: "insufficient_margin",
      });
    }
  }

  /** Stop-out of one account: closes the largest loser first, re-checking, at current prices. */
  private stopOut(a: Account, stopOutPct: number): void {
    const list = [...a.positions].map((p) => ({
      p,
      id: p.id,
      profit: this.pricing.floatingMicroOf(p),
      margin: p.marginMicro,
    }));
    const bal = (this.st.balance.get(a.userId) as { balance_micro: number }).balance_micro;
    const ids = stopOutOrder(bal, list, stopOutPct);
    for (const id of ids) {
      const p = this.orders.get(id);
      if (!p || p.status !== ST_OPEN) continue;
      const price = this.pricing.price(p.inst) ?? p.openPrice;
      this.closePosition(p, price, "stop_out");
    }
  }

  // ---------------------------------------------------------------- the tick

  /** Take-profit / stop-loss hits of the tick (collected in the loop, booked after it). */
  private hits: StopHits = { pos: [], price: [], reason: [] };
  private actPos: Pos[] = [];
  private actPrice: number[] = [];

  /** Marks to market the instruments that ticked, then books TP/SL, pending activations and stop-outs. */
  onTick(changed: Quote[]): void {
    const accts = this.accts;
    let tn = accts.touchedN;
    for (let k = 0; k < changed.length; k++) {
      const q = changed[k];
      const book = this.books.get(q.id);
      if (!book) continue;
      const p = q.price;
      if (!(p > 0)) continue;
      const n = book.n;
      if (n > 0) {
        const rate = this.pricing.usdRateF(book.inst);
        if (Number.isFinite(rate)) {
          tn = book.mark(p, rate, accts, tn);
          if (book.mayHitStops(p)) book.scanStops(p, this.hits);
        }
      }
      // Only the pending orders this price reaches are visited (book.ts PendingIndex); oldest first.
      const start = this.actPos.length;
      const reached = book.collectReached(p, this.actPos);
      if (reached > 1) sortById(this.actPos, start);
      for (let i = 0; i < reached; i++) {
        assert(
          pendingReached(
            this.actPos[start + i].pendingKind!,
            this.actPos[start + i].originPrice,
            p,
          ),
        );
        this.actPrice.push(p);
      }
    }
    accts.touchedN = tn;

    // Most ticks book nothing: no transaction then.
    const stopOut = this.settings().stopOutPct;
    if (this.hits.pos.length > 0 || this.actPos.length > 0 || this.anyAtStopOut(stopOut)) {
      try {
        this.atomically(() => this.settle(stopOut, false));
      } catch (err) {
        // The group rolled back as a whole (store and memory); each booking then gets its own
        // transaction, so one failing order cannot hold back the others.
        this.log.error({ err }, "tick bookings rolled back as a group; booking them one by one");
        this.settle(stopOut, true);
      }
    }

    const hits = this.hits;
    hits.pos.length = 0;
    hits.price.length = 0;
    hits.reason.length = 0;
    this.actPos.length = 0;
    this.actPrice.length = 0;
    for (let k = 0; k < accts.touchedN; k++) accts.touched[accts.touchedList[k]] = 0;
    accts.touchedN = 0;
  }

  /** True when an account the tick touched is at or below the stop-out level (float figures). */
  private anyAtStopOut(stopOutPct: number): boolean {
    const accts = this.accts;
    for (let k = 0; k < accts.touchedN; k++)
      if (this.atStopOut(accts.list[accts.touchedList[k]], stopOutPct)) return true;
    return false;
  }

  /** The float margin level decides whether to look; the exact figures decide what to close. */
  private atStopOut(a: Account, stopOutPct: number): boolean {
    const level = marginLevelPct(
      a.balanceMicro / MICRO + this.accts.float[a.idx],
      a.usedMarginMicro / MICRO,
    );
    return level !== null && level <= stopOutPct + 1e-6;
  }

  /**
   * Books what the tick reached, in order: take-profit / stop-loss closes at the tick's price,
   * pending orders activated at it, then stop-out of every account the tick touched. Grouped
   * (`isolated` false): inside the caller's one transaction, the first failure aborts the group.
   * Isolated: each booking in its own transaction, a failure logged and the rest booked.
   */
  private settle(stopOutPct: number, isolated: boolean): void {
    const accts = this.accts;
    const book = (what: string, ref: object, fn: () => void): void => {
      if (!isolated) return fn();
      try {
        this.atomically(fn);
      } catch (err) {
        this.log.error({ err, ...ref }, `${what} failed`);
      }
    };
    const hits = this.hits;
    for (let i = 0; i < hits.pos.length; i++) {
      const pos = hits.pos[i];
      if (pos.status !== ST_OPEN || pos.slot < 0) continue;
      // Like a pending order, a stop reached while its market is closed waits for an open tick.
      if (this.pricing.feed && !this.pricing.feed.isOpen(pos.inst.id)) continue;
      book("TP/SL close", { order: pos.id }, () => {
        this.closePosition(pos, hits.price[i], hits.reason[i]);
        accts.markTouched(pos.acc);
      });
    }
    for (let i = 0; i < this.actPos.length; i++) {
      const pos = this.actPos[i];
      if (pos.status !== ST_PENDING || pos.slot < 0) continue;
      book("pending activation", { order: pos.id }, () => {
        this.activate(pos, this.actPrice[i]);
        accts.markTouched(pos.acc);
      });
    }
    for (let k = 0; k < accts.touchedN; k++) {
      const a = accts.list[accts.touchedList[k]];
      if (this.atStopOut(a, stopOutPct))
        book("stop-out", { user: a.userId }, () => this.stopOut(a, stopOutPct));
    }
  }

  // ---------------------------------------------------------------- views

  private createdAt(id: number): number {
    const r = this.st.orderById.get(id) as OrderRow | undefined;
    return r?.created_at ?? Date.now();
  }

  /** my_deal: status 0 pending, 1 holding, 3 history (closed and cancelled); PAGE_SIZE per page, newest first. */
  listOrders(userId: number, status: 0 | 1 | 3, page: number): OrderPage {
    const u = this.st.balance.get(userId) as { balance_micro: number } | undefined;
    if (!u) throw new DomainError("not_found", CODE_NOT_FOUND);
    const { rows, total, historyProfitMicro } = this.deals.page(
      userId,
      status,
      (page - 1) * PAGE_SIZE,
    );
    let profitMicro = historyProfitMicro;
    if (status === ORDER_TAB.HOLDING) {
      const a = this.accts.get(userId);
      profitMicro = a ? this.pricing.floatingMicro(a) : 0;
    }
    return {
      orders: rows.map((r) => this.stateOfListed(r)),
      total,
      profitMicro,
      balanceMicro: u.balance_micro,
    };
  }

  /** A listed row: live orders from memory (current price), the rest as stored. */
  private stateOfListed(r: ListedOrderRow): OrderState {
    const live = this.orders.get(r.id);
    if (live && (r.status === ST_OPEN || r.status === ST_PENDING))
      return stateOfPos(live, r.created_at, this.pricing);
    return stateOfRow(r);
  }

  // ---------------------------------------------------------------- introspection (tests, bench)

  /** Number of open positions and pending orders held in memory. */
  stats(): { open: number; pending: number; accounts: number } {
    let open = 0;
    let pending = 0;
    for (const b of this.books.values()) {
      open += b.n;
      pending += b.pendingCount;
    }
    return { open, pending, accounts: this.accts.list.length };
  }

  /** Float floating profit of an account from the hot path (display only). */
  hotFloating(userId: number): number {
    const a = this.accts.get(userId);
    return a ? round6(this.accts.float[a.idx]) : 0;
  }
}

/** Sorts a[from..] by order id in place (the reached pending orders of one book: few). */
function sortById(a: Pos[], from: number): void {
  const tail = a.slice(from).sort((x, y) => x.id - y.id);
  for (let i = 0; i < tail.length; i++) a[from + i] = tail[i];
}

export function createEngine(opts: EngineOptions): Engine {
  return new Engine(opts);
}
