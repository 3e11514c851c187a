/**
 * Copy trading on the leader (contract/api/copy.ts has the rules both programs read).
 *
 * A copy is its own account: a users row owned by the follower, funded by a pair of copy_in ledger
 * rows (the follower's balance down, the copy's up, one transaction) and emptied by a pair of
 * copy_out rows. Its positions are ordinary orders of that account, so the engine's margin,
 * stop-out and ledger rules hold for them as for anyone, and the ledger check covers them.
 *
 * Mirroring follows the engine's events, which arrive synchronously after each commit, on the same
 * tick as the provider's change:
 * - a provider's fill (market order, or a pending order reached) opens the scaled position in every
 *   active copy, or records why it could not (copy_trades.skip_reason);
 * - a provider's take-profit / stop-loss change is applied to every copied position that follows;
 * - a provider's close closes them (those the copier closed himself are detached and left alone).
 * A copied position carries the provider's take-profit and stop-loss, so a level the tick reaches
 * closes both in the same booking.
 *
 * Invariants (asserted where they are made):
 * - a copy's position and its copy_trades row commit together (the engine's inTx hook);
 * - a copy sees each provider trade at most once (UNIQUE copy_id, provider_order_id);
 * - money moves between follower and copy only as a pair of equal and opposite ledger rows;
 * - the copy stop-loss ends a copy once: the copy is marked stopped in the transaction that pays its
 *   equity back, and a stopped copy leaves the in-memory set before anything else can see it.
 */
import { checkCopyRisk } from "./risk-limit.js";
import assert from "node:assert/strict";
import {
  COPY_MULTIPLE,
  COPY_STOP_LOSS_PCT,
  copyFloorMicro,
  copyLots,
  copyPartLots,
  type CopyMode,
  type CopyStopReason,
} from "@contract/api/copy";
import { notify } from "../notify/notices.js";
import { ORDER_MODE, ORDER_STATUS, ORDER_TYPE } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { Idempotency } from "../../platform/idempotency.js";
import { writeAudit } from "../operators/audit.js";
import { dec, decConst, toMicro, usdToMicro } from "../money/decimal.js";
import { getSetting } from "../../platform/settings.js";
import type { MoneyService } from "../money/service.js";
import type { Engine, MarketItem, OrderState } from "../trading/engine.js";
import type { EngineEventMap } from "../trading/events.js";
import {
  accountKind,
  addInvested,
  copyById,
  copySawOrder,
  copyTradeOfOrder,
  detachCopyTrade,
  openFollowers,
  type Follower,
  insertCopy,
  insertCopyAccount,
  insertCopyTrade,
  insertCopyTrades,
  liveCopies,
  liveCopiesOf,
  markCopyStopped,
  providerById,
  setCopyStatus,
  type CopyRow,
  type NewCopyTrade,
} from "./store.js";

export interface CopyRequest {
  providerId: number;
  amount: string;
  mode: CopyMode;
  multiple: string | undefined;
  stopLossPct: number | undefined;
  copyOpen: boolean;
}

export interface CopyLog {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface CopyTradingDeps {
  db: DB;
  money: MoneyService;
  engine: Engine;
  log: CopyLog;
}

export class CopyTrading {
  /** Live copies (active or paused) by id, and their ids by provider: mirroring reads only these. */
  private readonly live = new Map<number, CopyRow>();
  private readonly byProvider = new Map<number, Set<number>>();
  /**
   * The copies' positions following each provider position, by the provider's order id (what
   * copy_trades holds with an order, not detached): loaded at start, added as a fill is mirrored,
   * let go when the provider's position closes. An entry may outlive its position (the copier
   * closed it, or its mirroring was rolled back): readers keep those the engine holds live.
   */
  private readonly followers = new Map<number, Follower[]>();
  private readonly byAccount = new Map<number, number>();
  /** Ids of the live copies by owner: the COPY_TRADE push reads only these. */
  private readonly byUser = new Map<number, Set<number>>();
  /** Names of providers asked for (the COPY_TRADE push), until a provider saves its settings. */
  private readonly providerNames = new Map<number, string>();
  private readonly idem: Idempotency;
  private readonly unsubscribe: (() => void)[] = [];
  /** Told the owner of a copy whose status or money changed (the COPY_TRADE push follows). */
  private readonly changeListeners = new Set<(userId: number) => void>();
  private readonly db: DB;
  private readonly engine: Engine;

  constructor(private readonly d: CopyTradingDeps) {
    this.db = d.db;
    this.engine = d.engine;
    this.idem = new Idempotency(d.db);
    for (const c of liveCopies(d.db)) this.remember(c);
    // The live copies' accounts in memory from the start (a few reads of many accounts each), so
    // that a new leader's first fan-out and floor checks read none: a read inside the provider's
    // batch made that batch, and its thousands of copies' writes, wait on the store's connection.
    d.engine.holdAccounts([...this.byAccount.keys()]);
    // And as many order ids ahead as the largest fan-out will take (PostgreSQL's store).
    let largest = 0;
    for (const s of this.byProvider.values()) largest = Math.max(largest, s.size);
    void d.db.holdIdsAhead?.("orders", largest);
    for (const f of openFollowers(d.db)) this.follow(f.provider_order_id, f);
    d.engine.setSameOwner((accountId) => this.sameOwner(accountId));
    // Mirroring writes: it follows a provider's command inside the same batch (engine.decided),
    // so that its writes go with the batch's, before the provider's answer.
    // Each listener says which events concern it (a provider with copies, a copy's account, a
    // position copies follow): no other order costs a follow-up command.
    const ev = d.engine.decided;
    const copied = (e: { userId: number }) => (this.byProvider.get(e.userId)?.size ?? 0) > 0;
    this.unsubscribe.push(
      ev.on(
        "orderPlaced",
        (e) => {
          if (!e.pending) this.onProviderFill(e.userId, e.orderId);
        },
        (e) => !e.pending && copied(e),
      ),
      ev.on("orderActivated", (e) => this.onProviderFill(e.userId, e.orderId), copied),
      ev.on("stopsChanged", (e) => this.onProviderStops(e.userId, e.orderId), copied),
      ev.on(
        "positionReduced",
        (e) => this.onProviderReduced(e),
        (e) => copied(e) && this.followers.has(e.orderId),
      ),
      ev.on(
        "positionsClosed",
        (e) => {
          const copyId = this.byAccount.get(e.userId);
          // A copy's own position closed (its take-profit, stop-loss or a stop-out): realised money
          // may have reached the floor with nothing left open for the tick's check to see.
          if (copyId !== undefined) this.checkFloorOf(copyId);
          else this.onProviderClosed(e.userId, e.orderIds);
        },
        (e) =>
          this.byAccount.has(e.userId) ||
          copied(e) ||
          e.orderIds.some((id) => this.followers.has(id)),
      ),
      // Within the engine's tick, after its stop-outs and TP/SL are queued.
      d.engine.onEquityFloor((accountIds) => this.onNearFloor(accountIds)),
    );
  }

  stop(): void {
    for (const u of this.unsubscribe.splice(0)) u();
  }

  /** Listens to changes of copies made by commands (start, pause, resume, funds, stop). */
  onChange(fn: (userId: number) => void): () => void {
    this.changeListeners.add(fn);
    return () => this.changeListeners.delete(fn);
  }

  private changed(userId: number): void {
    for (const fn of this.changeListeners) fn(userId);
  }

  // ---------------------------------------------------------------- commands

  /** Starts a copy: the amount moves from the follower's free margin into the copy's account. */
  start(userId: number, r: CopyRequest, idemKey: string | null): CopyRow {
    const replay = this.idem.lookup<CopyRow>(userId, idemKey, "copy", r);
    if (replay) return copyById(this.db, replay.id) ?? replay;
    const provider = providerById(this.db, r.providerId);
    if (!provider || provider.hidden || provider.stopped_at !== null)
      throw new DomainError("copy_provider_not_found", CODE_NOT_FOUND);
    if (provider.user_id === userId) throw new DomainError("copy_self");
    checkCopyRisk(this.db, provider);
    const follower = accountKind(this.db, userId);
    if (!follower || follower.copy_owner_id !== null)
      throw new DomainError("copy_provider_not_found", CODE_NOT_FOUND);
    const multiple = this.multipleOf(r);
    const stopLossPct = r.stopLossPct ?? COPY_STOP_LOSS_PCT.default;
    if (stopLossPct < COPY_STOP_LOSS_PCT.min || stopLossPct > COPY_STOP_LOSS_PCT.max)
      throw new DomainError("copy_stop_loss_range", 0, {
        min: COPY_STOP_LOSS_PCT.min,
        max: COPY_STOP_LOSS_PCT.max,
      });
    const amountMicro = usdToMicro(r.amount);
    // The provider's own minimum, and never below the broker's (copy.min_usd).
    const brokerMinMicro = toMicro(dec(getSetting(this.db, "copy.min_usd") ?? "50"));
    const minMicro = Math.max(provider.min_investment_micro, brokerMinMicro);
    if (amountMicro < minMicro)
      throw new DomainError("copy_below_minimum", 0, { amount: (minMicro / 1e6).toFixed(2) });
    const maxCopies = Number(getSetting(this.db, "copy.max_per_user") ?? "20");
    if (liveCopiesOf(this.db, userId) >= maxCopies)
      throw new DomainError("copy_too_many", 0, { max: maxCopies });
    const now = Date.now();
    const id = this.d.money.transaction(() => {
      // Read inside the transaction: nothing else books between the check and the move.
      if (this.engine.accountValues(userId).freeMarginMicro < amountMicro)
        throw new DomainError("copy_insufficient_margin");
      const accountId = insertCopyAccount(this.db, {
        ownerId: userId,
        isDemo: follower.is_demo,
        now,
      });
      const copyId = insertCopy(this.db, {
        userId,
        providerId: provider.user_id,
        accountId,
        mode: r.mode,
        multiple,
        stopLossPct,
        copyOpen: r.copyOpen ? 1 : 0,
        investedMicro: amountMicro,
        now,
      });
      this.move(userId, accountId, amountMicro, "copy_in", copyId, now);
      const row = copyById(this.db, copyId)!;
      this.idem.store(userId, idemKey, "copy", r, row);
      return copyId;
    });
    const row = copyById(this.db, id)!;
    // The copy's new account holds what moved into it and nothing else yet. Held only once its
    // booking is done; nothing after this in the command can fail it (copying the open trades is
    // guarded), so the account is not rolled back under the engine.
    this.engine.holdNewAccount(row.account_id, amountMicro);
    this.remember(row);
    // The provider's next fill takes an order id per live copy: held ahead from now on.
    void this.db.holdIdsAhead?.("orders", this.byProvider.get(row.provider_id)?.size ?? 0);
    if (r.copyOpen) this.copyOpenTrades(row);
    this.changed(userId);
    return copyById(this.db, id)!;
  }

  pause(userId: number, copyId: number, idemKey: string | null): CopyRow {
    return this.setStatus(userId, copyId, "paused", idemKey);
  }

  resume(userId: number, copyId: number, idemKey: string | null): CopyRow {
    return this.setStatus(userId, copyId, "active", idemKey);
  }

  /** Stops a copy of the user: its positions close at market, its balance returns (copy_out). */
  stopCopy(userId: number, copyId: number, idemKey: string | null): CopyRow {
    const replay = this.idem.lookup<CopyRow>(userId, idemKey, "copy_stop", { copyId });
    if (replay) return copyById(this.db, copyId) ?? replay;
    const c = this.own(userId, copyId);
    if (c.status === "stopped") return c;
    return this.end(c, "user", null, "copy_stopped", (row) =>
      this.idem.store(userId, idemKey, "copy_stop", { copyId }, row),
    );
  }

  /** An operator stops a copy, with a remark its owner sees; the audit row commits with the stop. */
  stopByOperator(actor: string, copyId: number, remark: string): CopyRow {
    const c = copyById(this.db, copyId);
    if (!c) throw new DomainError("not_found", CODE_NOT_FOUND, {}, 404);
    if (c.status === "stopped") throw new DomainError("copy_stopped_already");
    return this.end(c, "operator", remark, "copy_stopped", (row) =>
      writeAudit(this.db, {
        actor,
        action: "copy.stop",
        target: `copy:${row.id}`,
        userId: row.user_id,
        remark,
      }),
    );
  }

  /**
   * Before a demo account's reset: its copies stop (positions closed, money back), so the reset
   * restores the whole demo money and no copy keeps demo money beside it. Nothing for a real account.
   */
  stopForDemoReset(userId: number): void {
    if (accountKind(this.db, userId)?.is_demo !== 1) return;
    for (const c of [...this.live.values()])
      if (c.user_id === userId) this.end(c, "user", null, "copy_stopped");
  }

  /** Adds money from free margin, or takes some back (at most the copy's free margin and balance). */
  funds(
    userId: number,
    copyId: number,
    f: { direction: "add" | "remove"; amount: string },
    idemKey: string | null,
  ): CopyRow {
    const params = { copyId, ...f };
    const replay = this.idem.lookup<CopyRow>(userId, idemKey, "copy_funds", params);
    if (replay) return copyById(this.db, copyId) ?? replay;
    const c = this.own(userId, copyId);
    if (c.status === "stopped") throw new DomainError("copy_stopped_already");
    const amountMicro = usdToMicro(f.amount);
    const now = Date.now();
    this.d.money.transaction(() => {
      if (f.direction === "add") {
        if (this.engine.accountValues(userId).freeMarginMicro < amountMicro)
          throw new DomainError("copy_insufficient_margin");
        this.move(userId, c.account_id, amountMicro, "copy_in", c.id, now);
        addInvested(this.db, c.id, amountMicro);
      } else {
        const v = this.engine.accountValues(c.account_id);
        if (Math.min(v.freeMarginMicro, v.balanceMicro) < amountMicro)
          throw new DomainError("copy_funds_in_use");
        // What is invested never goes below zero: a negative one would put the copy stop-loss's
        // floor below zero, where it never acts. The rest (profit) comes back when the copy stops.
        if (amountMicro > c.invested_micro)
          throw new DomainError("copy_funds_above_invested", 0, {
            amount: (c.invested_micro / 1e6).toFixed(2),
          });
        // Taking money back lowers the floor by only (100 − pct) % of it: never to the floor.
        const floor = copyFloorMicro(c.invested_micro - amountMicro, c.stop_loss_pct);
        if (v.equityMicro - amountMicro <= floor) throw new DomainError("copy_funds_stop_loss");
        this.move(c.account_id, userId, amountMicro, "copy_out", c.id, now);
        addInvested(this.db, c.id, -amountMicro);
      }
      this.idem.store(userId, idemKey, "copy_funds", params, copyById(this.db, c.id));
    });
    this.changed(userId);
    return this.refresh(c.id);
  }

  /** The copier closes one copied position at market; it is no longer mirrored. */
  closePosition(
    userId: number,
    copyId: number,
    positionId: number,
    idemKey: string | null,
  ): CopyRow {
    const c = this.own(userId, copyId);
    const t = copyTradeOfOrder(this.db, positionId);
    if (!t || t.copy_id !== c.id) throw new DomainError("order_not_found", CODE_NOT_FOUND);
    this.engine.close(c.account_id, positionId, idemKey, "manual", () =>
      detachCopyTrade(this.db, positionId),
    );
    return this.refresh(c.id);
  }

  // ---------------------------------------------------------------- reads

  /** The copy of the user, or copy_not_found (another user's copy is not found either). */
  own(userId: number, copyId: number): CopyRow {
    const c = copyById(this.db, copyId);
    if (!c || c.user_id !== userId) throw new DomainError("copy_not_found", CODE_NOT_FOUND);
    return c;
  }

  // ---------------------------------------------------------------- mirroring

  /**
   * Opens the provider's new position `orderId` in every active copy, or records why a copy could
   * not take it: every copy's lots computed in memory, the orders placed by one submitMarketMany
   * and every copy_trades row (copied and skipped) written by one multi-row insert inside the same
   * transaction, so a copy's position and its row commit together.
   */
  private onProviderFill(providerId: number, orderId: number): void {
    const ids = this.byProvider.get(providerId);
    if (!ids?.size) return;
    const o = this.engine.liveOrder(orderId);
    if (!o || o.status !== ORDER_STATUS.OPEN) return;
    const active = [...ids]
      .map((id) => this.live.get(id))
      .filter((c): c is CopyRow => c?.status === "active");
    if (active.length === 0) return;
    const providerEquityMicro = this.engine.accountValues(providerId).equityMicro;
    const equities = this.engine.equitiesMicro(active.map((c) => c.account_id));
    const accountOf = new Map(active.map((c) => [c.id, c.account_id]));
    const now = Date.now();
    const trades: NewCopyTrade[] = [];
    const orders: { trade: number; item: MarketItem }[] = [];
    for (const c of active) {
      const equity = equities.get(c.account_id);
      // A live copy's account is a stored user (its row is never deleted).
      assert(equity !== undefined, `copy ${c.id} has no account ${c.account_id}`);
      const share = this.shareOf(c, o, providerEquityMicro, equity);
      // A copy that takes no lots writes no row: a fill costs nothing for the smallest copies.
      if (share.skip === "copy_below_min_lot") continue;
      trades.push({
        copyId: c.id,
        providerOrderId: o.id,
        orderId: null,
        lots: share.lots,
        skipReason: share.skip,
        now,
      });
      if (share.item) orders.push({ trade: trades.length - 1, item: share.item });
    }
    const ordered = new Set(orders.map((x) => x.trade));
    try {
      this.engine.submitMarketMany(
        orders.map((x) => x.item),
        (placed, from) => {
          // The rows of the copies that skip the fill go with the first slice; each slice's placed
          // orders and refusals with their own (their orders are stored by then).
          const rows =
            from === 0 ? trades.filter((_, k) => !ordered.has(k)) : ([] as NewCopyTrade[]);
          placed.forEach((v, k) => {
            const t = trades[orders[from + k].trade];
            if (v instanceof DomainError) {
              t.lots = null;
              t.skipReason = v.key;
            } else t.orderId = v.id;
            rows.push(t);
          });
          insertCopyTrades(this.db, rows);
          for (const t of rows)
            if (t.orderId !== null)
              this.follow(o.id, {
                copy_id: t.copyId,
                account_id: accountOf.get(t.copyId)!,
                order_id: t.orderId,
              });
        },
      );
    } catch (err) {
      // Nothing of this fill was mirrored (the group rolled back as a whole).
      this.d.log.error({ err, provider: providerId, order: o.id }, "copy fill not mirrored");
    }
    // The copied positions' fees are losses like any other.
    for (const c of active) this.checkFloorOf(c.id);
  }

  /**
   * A copy's share of the provider's open position `o`: the market order to place (its lots, the
   * provider's side, leverage and stops), or why the copy skips it.
   */
  private shareOf(
    c: CopyRow,
    o: OrderState,
    providerEquityMicro: number,
    copyEquityMicro: number,
  ): { item: MarketItem | null; lots: string | null; skip: string | null } {
    const inst = this.engine.instrument(o.instrument.id);
    if (!inst || !inst.enabled) return { item: null, lots: null, skip: "instrument_not_found" };
    const lots = copyLots(
      {
        mode: c.mode,
        multiple: c.multiple,
        providerLots: o.lots,
        copyEquityMicro,
        providerEquityMicro,
      },
      inst.pip,
    );
    if (lots === null || dec(lots).lt(decConst(inst.minLots)))
      return { item: null, lots: null, skip: "copy_below_min_lot" };
    const req = {
      side: o.side === ORDER_TYPE.BUY ? ORDER_TYPE.BUY : ORDER_TYPE.SELL,
      status: ORDER_MODE.MARKET,
      instrumentId: inst.id,
      lots: dec(lots),
      leverage: o.leverage,
      targetPrice: null,
      takeProfit: o.takeProfit || null,
      stopLoss: o.stopLoss || null,
      trail: o.trail,
    };
    return { item: { userId: c.account_id, req }, lots, skip: null };
  }

  private onProviderStops(providerId: number, orderId: number): void {
    if (!this.byProvider.get(providerId)?.size) return;
    const o = this.engine.liveOrder(orderId);
    if (!o || o.status !== ORDER_STATUS.OPEN) return;
    const followers = this.liveFollowers(orderId);
    this.followEach(followers, "copy stops not mirrored", (f) => {
      this.engine.setStops(f.account_id, f.order_id, o.takeProfit || null, o.stopLoss || null);
      this.engine.setTrailing(f.account_id, f.order_id, o.trail);
    });
  }

  /**
   * The provider closed part of a position copies follow: each copy closes the same fraction of its
   * own (copyPartLots, down to the lot step), all of it when less than the minimum lots would stay
   * open, nothing when the fraction is under one step. One transaction for every copy.
   */
  private onProviderReduced(e: EngineEventMap["positionReduced"]): void {
    if (!this.byProvider.get(e.userId)?.size) return;
    const followers = this.liveFollowers(e.orderId);
    this.followEach(followers, "copy partial close not mirrored", (f) => {
      const own = this.engine.liveOrder(f.order_id);
      const inst = own && this.engine.instrument(own.instrument.id);
      if (!own || !inst) return;
      const part = dec(
        copyPartLots(
          { copyLots: own.lots, closedLots: e.lots, providerLotsBefore: e.lotsBefore },
          inst.pip,
        ),
      );
      if (part.isZero()) return;
      const rest = dec(own.lots).minus(part);
      const lots = rest.lt(decConst(inst.minLots)) ? null : part;
      this.engine.close(f.account_id, f.order_id, null, "copy_provider_closed", undefined, lots);
    });
  }

  private onProviderClosed(providerId: number, orderIds: number[]): void {
    // Followers closed on the same tick already (the same take-profit or stop-loss) are left out.
    const followers = orderIds.flatMap((orderId) => this.liveFollowers(orderId));
    for (const orderId of orderIds) this.followers.delete(orderId);
    if (!this.byProvider.get(providerId)?.size || followers.length === 0) return;
    const closed = this.engine.closeMany(
      followers.map((f) => ({ userId: f.account_id, id: f.order_id })),
      "copy_provider_closed",
    );
    closed.forEach((v, k) => {
      if (v instanceof DomainError)
        this.d.log.warn(
          { err: v, copy: followers[k].copy_id, order: followers[k].order_id },
          "copy close not mirrored",
        );
    });
  }

  /** The copies' positions following the provider's position `orderId` that are still live. */
  private liveFollowers(orderId: number): Follower[] {
    return (this.followers.get(orderId) ?? []).filter((f) => this.engine.isLive(f.order_id));
  }

  /** Adds a copy's position to those following the provider's `providerOrderId`. */
  private follow(providerOrderId: number, f: Follower): void {
    const list = this.followers.get(providerOrderId);
    if (list) list.push(f);
    else this.followers.set(providerOrderId, [f]);
  }

  /** One command per follower, all in one transaction, each in its own savepoint. */
  private followEach(
    followers: { copy_id: number; account_id: number; order_id: number }[],
    refused: string,
    command: (f: { copy_id: number; account_id: number; order_id: number }) => void,
  ): void {
    if (followers.length === 0) return;
    this.engine.batch(() => {
      for (const f of followers)
        try {
          this.savepoint(() => command(f));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          this.d.log.warn({ err, copy: f.copy_id, order: f.order_id }, refused);
        }
    });
  }

  /** Runs fn in a savepoint of the transaction under way: a refusal undoes only fn's writes. */
  private savepoint(fn: () => void): void {
    this.db.transaction(fn)();
  }

  /**
   * Opens the copy's share of the provider's open position `o` unless the copy saw it already, or
   * records why not ("copy open trades" at the start of a copy, one order at a time). The
   * provider's equity is read once by the caller for every position.
   */
  private mirrorOpen(c: CopyRow, o: OrderState, providerEquityMicro: number): void {
    if (copySawOrder(this.db, c.id, o.id)) return;
    const now = Date.now();
    const record = (orderId: number | null, lots: string | null, skipReason: string | null) => {
      insertCopyTrade(this.db, {
        copyId: c.id,
        providerOrderId: o.id,
        orderId,
        lots,
        skipReason,
        now,
      });
      if (orderId !== null)
        this.follow(o.id, { copy_id: c.id, account_id: c.account_id, order_id: orderId });
    };
    const equity = this.engine.accountValues(c.account_id).equityMicro;
    const share = this.shareOf(c, o, providerEquityMicro, equity);
    if (share.skip === "copy_below_min_lot") return;
    if (!share.item) return record(null, null, share.skip);
    try {
      this.engine.submit(share.item.userId, share.item.req, null, (v) =>
        record(v.id, share.lots, null),
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      record(null, null, err.key);
    }
  }

  /** "Copy open trades": the provider's open positions, at market, in proportion. */
  private copyOpenTrades(c: CopyRow): void {
    const providerEquityMicro = this.engine.accountValues(c.provider_id).equityMicro;
    for (const id of this.engine.openPositionIds(c.provider_id)) {
      const o = this.engine.liveOrder(id);
      if (o) this.guard(c, () => this.mirrorOpen(c, o, providerEquityMicro));
    }
  }

  /**
   * After a tick: a copy whose equity reached its floor closes every copied position and ends, once.
   * Between ticks only its own events move a copy's equity (a fill's fee, a close, a transfer), and
   * each of those checks it too (checkFloorOf), so a live copy is above its floor after every step.
   * Each live copy's floor is the engine's equity floor of its account (floorOf), so the tick
   * itself picks the copies near their floor by the float figures, from the accounts it moved (a
   * pass over typed arrays, as its stop-out check). Their exact check and end run as the engine's
   * own command (engine.schedule: after the tick's bookings, in the sequencer).
   */
  private onNearFloor(accountIds: readonly number[]): void {
    const near: number[] = [];
    for (const accountId of accountIds) {
      const copyId = this.byAccount.get(accountId);
      if (copyId !== undefined) near.push(copyId);
    }
    if (near.length > 0) this.engine.schedule(() => this.endAtFloors(near));
  }

  /** Keeps the engine's equity floor of a live copy's account at the copy's stop-loss floor. */
  private floorOf(c: CopyRow): void {
    this.engine.setEquityFloor(c.account_id, copyFloorMicro(c.invested_micro, c.stop_loss_pct));
  }

  /** The exact floor check of copies a tick found near their floor (each still live, once). */
  private endAtFloors(near: readonly number[]): void {
    for (const id of near) {
      // Ended since the tick (by this check of an earlier tick, or by its follower): nothing to do;
      // changed since (paused, funds added): checked as it is now.
      const c = this.live.get(id);
      if (!c) continue;
      const equity = this.engine.heldEquityMicro(c.account_id);
      if (equity !== null) this.endAtFloor(c, equity);
    }
  }

  /** The floor check of one live copy (its equity from memory when the engine holds the account). */
  private checkFloorOf(copyId: number): void {
    const c = this.live.get(copyId);
    if (!c) return;
    const held = this.engine.heldEquityMicro(c.account_id);
    this.endAtFloor(c, held ?? this.engine.accountValues(c.account_id).equityMicro);
  }

  private endAtFloor(c: CopyRow, equityMicro: number): void {
    if (equityMicro > copyFloorMicro(c.invested_micro, c.stop_loss_pct)) return;
    this.guard(c, () => this.end(c, "stop_loss", null, "copy_stop_loss"));
  }

  // ---------------------------------------------------------------- the parts

  /**
   * Ends a copy: closes its open positions at market (one closeMany, all or none), then in one
   * transaction pays its whole balance back (copy_out) and marks it stopped.
   */
  private end(
    c: CopyRow,
    reason: CopyStopReason,
    remark: string | null,
    closeReason: "copy_stopped" | "copy_stop_loss",
    inTx?: (row: CopyRow) => void,
  ): CopyRow {
    // Out of the live set first: no mirroring and no second stop-loss while it closes.
    this.forget(c);
    try {
      const open = this.engine.openPositionIds(c.account_id);
      // All or none: a refusal (a market closed) undoes every close of the copy.
      if (open.length > 0)
        this.engine.closeMany(
          open.map((id) => ({ userId: c.account_id, id })),
          closeReason,
          (closed) => {
            for (const v of closed) if (v instanceof DomainError) throw v;
          },
        );
      const now = Date.now();
      this.d.money.transaction(() => {
        const balance = this.engine.accountValues(c.account_id).balanceMicro;
        if (balance > 0) this.move(c.account_id, c.user_id, balance, "copy_out", c.id, now);
        markCopyStopped(this.db, { id: c.id, reason, remark, now });
        // Its owner is told when the copy stop-loss ended it (they stop their own copies).
        if (reason === "stop_loss")
          notify(this.db, {
            userId: c.user_id,
            kind: "copy_stopped",
            params: { name: this.providerName(c.provider_id), pct: c.stop_loss_pct },
            at: now,
          });
        inTx?.(copyById(this.db, c.id)!);
      });
    } catch (err) {
      // Not ended (a market closed, the store failed): live again, as the store still says.
      const row = copyById(this.db, c.id);
      if (row) this.remember(row);
      throw err;
    }
    this.changed(c.user_id);
    return copyById(this.db, c.id)!;
  }

  private setStatus(
    userId: number,
    copyId: number,
    status: "active" | "paused",
    idemKey: string | null,
  ): CopyRow {
    const route = status === "active" ? "copy_resume" : "copy_pause";
    const replay = this.idem.lookup<CopyRow>(userId, idemKey, route, { copyId });
    if (replay) return copyById(this.db, copyId) ?? replay;
    const c = this.own(userId, copyId);
    if (c.status === "stopped") throw new DomainError("copy_stopped_already");
    this.d.money.transaction(() => {
      setCopyStatus(this.db, copyId, status);
      this.idem.store(userId, idemKey, route, { copyId }, copyById(this.db, copyId));
    });
    this.changed(userId);
    return this.refresh(copyId);
  }

  /** A pair of equal and opposite ledger rows: `from`'s balance down, `to`'s up. */
  private move(
    from: number,
    to: number,
    amountMicro: number,
    kind: "copy_in" | "copy_out",
    copyId: number,
    at: number,
  ): void {
    assert(Number.isSafeInteger(amountMicro) && amountMicro > 0, "a copy moves a positive amount");
    const ref = `copy:${copyId}`;
    this.d.money.post({ userId: from, amountMicro: -amountMicro, kind, ref, at, floorMicro: 0 });
    this.d.money.post({ userId: to, amountMicro, kind, ref, at });
  }

  private multipleOf(r: CopyRequest): string {
    const text = r.multiple ?? (r.mode === "fixed" ? null : COPY_MULTIPLE.default);
    if (text === null) throw new DomainError("copy_lots_required");
    const m = dec(text);
    if (r.mode === "proportional" && (m.lt(COPY_MULTIPLE.min) || m.gt(COPY_MULTIPLE.max)))
      throw new DomainError("copy_multiple_range", 0, {
        min: COPY_MULTIPLE.min,
        max: COPY_MULTIPLE.max,
      });
    if (m.lte(0)) throw new DomainError("copy_lots_required");
    return m.toFixed();
  }

  /** Runs one copy's mirroring step; a fault of one copy never stops the others. */
  private guard(c: CopyRow, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.d.log.error({ err, copy: c.id }, "copy step failed");
    }
  }

  private refresh(id: number): CopyRow {
    const row = copyById(this.db, id)!;
    if (this.live.has(id)) {
      this.live.set(id, row);
      this.floorOf(row);
    }
    return row;
  }

  /** The other accounts of the person `accountId` belongs to: the owner and their live copies'. */
  private sameOwner(accountId: number): number[] {
    const copyId = this.byAccount.get(accountId);
    const owner = copyId === undefined ? accountId : this.live.get(copyId)!.user_id;
    const copies = this.byUser.get(owner);
    if (copyId === undefined && !copies) return [];
    const accounts = [owner, ...[...(copies ?? [])].map((id) => this.live.get(id)!.account_id)];
    return accounts.filter((id) => id !== accountId);
  }

  private remember(c: CopyRow): void {
    if (c.status === "stopped") return;
    this.live.set(c.id, c);
    this.floorOf(c);
    this.byAccount.set(c.account_id, c.id);
    let s = this.byProvider.get(c.provider_id);
    if (!s) this.byProvider.set(c.provider_id, (s = new Set()));
    s.add(c.id);
    let u = this.byUser.get(c.user_id);
    if (!u) this.byUser.set(c.user_id, (u = new Set()));
    u.add(c.id);
  }

  private forget(c: CopyRow): void {
    this.live.delete(c.id);
    this.engine.setEquityFloor(c.account_id, null);
    this.byAccount.delete(c.account_id);
    this.byProvider.get(c.provider_id)?.delete(c.id);
    const u = this.byUser.get(c.user_id);
    u?.delete(c.id);
    if (u?.size === 0) this.byUser.delete(c.user_id);
  }

  // ---------------------------------------------------------------- reads from memory

  /**
   * The user's copies not stopped, newest first, as the store holds them: from memory (this node
   * leads, and every command on a copy runs here and refreshes its row), no read of the store.
   */
  liveCopiesOf(userId: number): CopyRow[] {
    const ids = this.byUser.get(userId);
    if (!ids) return [];
    return [...ids].sort((a, b) => b - a).map((id) => this.live.get(id)!);
  }

  /** A provider's name: read from the store once, then from memory until forgetProvider. */
  providerName(providerId: number): string {
    let name = this.providerNames.get(providerId);
    if (name === undefined) {
      name = providerById(this.db, providerId)?.name ?? "";
      this.providerNames.set(providerId, name);
    }
    return name;
  }

  /** A provider saved its settings (its name may have changed): its name is read again. */
  forgetProvider(providerId: number): void {
    this.providerNames.delete(providerId);
  }
}
