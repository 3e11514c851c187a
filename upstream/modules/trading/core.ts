/**
 * The parts every piece of the engine works on, built once by the Engine (engine.ts) and handed to
 * its commands (submit.ts, commands.ts), its tick (ticks.ts), its bookings (booking.ts) and its
 * reads (queries.ts): the store, the money service, prices, settings, instruments, idempotency
 * keys, the transactions and what is held in memory.
 */
import type { DB } from "../../platform/db.js";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { Idempotency } from "../../platform/idempotency.js";
import type { Quote } from "../market/feed.js";
import type { MoneyService } from "../money/service.js";
import { dec, type Dec } from "../money/decimal.js";
import type { Account, Pos } from "./book.js";
import { EngineEvents } from "./events.js";
import { Holdings } from "./holdings.js";
import { InstrumentSpecs } from "./instrument-specs.js";
import type { InstrumentSpec } from "./orders.js";
import { Pricing } from "./pricing.js";
import { TradeSettings, type Settings } from "./settings.js";
import { readBalance, readBalances, type OrderRow } from "./store.js";
import { Transactions } from "./transactions.js";

export interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export class EngineCore {
  readonly pricing = new Pricing();
  readonly specs: InstrumentSpecs;
  readonly tradeSettings: TradeSettings;
  readonly idem: Idempotency;
  readonly events: EngineEvents;
  /**
   * The same events once the command that caused them succeeded, inside the sequencer's batch (a
   * follow-up command of the same batch, store/sequencer.ts afterCommand): for listeners that
   * write (copy trading's mirroring), so that what they write is decided and written with the
   * batch, before its answers. Outside a batch they come at once after the commit.
   */
  readonly decided: EngineEvents;
  readonly tx: Transactions;
  readonly held: Holdings;
  /**
   * The other accounts of the person an account belongs to (their own and their copies'
   * accounts; copy trading tells it, engine.setSameOwner): none by default.
   */
  sameOwner: (userId: number) => readonly number[] = () => [];
  /**
   * Where what the engine decides on its own (a tick's bookings) is written: queued as a command of
   * the leader's sequencer (EngineOptions.schedule), or, when null, at once in its own transaction.
   */
  schedule: ((command: () => void) => void) | null = null;

  constructor(
    readonly db: DB,
    readonly money: MoneyService,
    readonly log: Logger,
  ) {
    this.events = new EngineEvents((err, event) =>
      log.error({ err, event }, "engine event listener failed"),
    );
    this.specs = new InstrumentSpecs(db);
    this.tradeSettings = new TradeSettings(db);
    this.idem = new Idempotency(db);
    this.decided = new EngineEvents((err, event) =>
      log.error({ err, event }, "engine event listener failed"),
    );
    this.tx = new Transactions(db, money, this.events, this.decided);
    this.held = new Holdings(this.pricing, (step) => this.tx.undoable(step));
  }

  settings(): Settings {
    return this.tradeSettings.get();
  }

  /** USD per unit of the instrument's quote currency, exact; null when unknown (refused). */
  usdRate(inst: InstrumentSpec): Dec | null {
    return this.pricing.usdRate(inst);
  }

  /** The instrument's latest quote; quote_stale when the feed has no positive price. */
  liveQuote(inst: InstrumentSpec): Quote {
    const q = this.pricing.feed?.quote(inst.id);
    if (!q || !(q.price > 0)) throw new DomainError("quote_stale");
    return q;
  }

  /** A quote to trade at `now`: its market open (else market_closed), not older than market.stale_after_s. */
  assertTradable(inst: InstrumentSpec, q: Quote, now: number): void {
    if (!this.pricing.feed!.isOpen(inst.id)) throw new DomainError("market_closed");
    if (now - q.time > this.settings().staleAfterS * 1000) throw new DomainError("quote_stale");
  }

  /** The user's balance in the store (inside a transaction: as booked so far). */
  balance(userId: number): number {
    const b = readBalance(this.db, { userId });
    if (b === null) throw new DomainError("not_found", CODE_NOT_FOUND);
    return b;
  }

  /** The user's account in memory, loaded with its stored balance on first use. */
  account(userId: number): Account {
    return this.held.accts.get(userId) ?? this.held.accts.add(userId, this.balance(userId));
  }

  /**
   * The accounts of these users in memory, those not yet held loaded with their stored balances by
   * one query (per ROWS_PER_STATEMENT users); a user with no stored row is left out.
   */
  accounts(userIds: readonly number[]): Map<number, Account> {
    const out = new Map<number, Account>();
    const missing: number[] = [];
    for (const id of userIds) {
      const a = this.held.accts.get(id);
      if (a) out.set(id, a);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    for (const [id, balance] of readBalances(this.db, missing))
      out.set(id, this.held.accts.get(id) ?? this.held.accts.add(id, balance));
    return out;
  }

  /** The Pos of a stored live order, in its account and its instrument's book (not yet held). */
  posOfRow(r: OrderRow, inst: InstrumentSpec): Pos {
    return {
      id: r.id,
      userId: r.user_id,
      acc: this.account(r.user_id),
      inst,
      book: this.held.book(inst),
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
      createdAt: Number(r.created_at),
      openedAt: r.opened_at === null ? 0 : Number(r.opened_at),
      trail: r.trail_distance ?? 0,
      trailAct: r.trail_activation ?? 0,
      breakEven: r.break_even ?? 0,
      expiresAt: r.expires_at === null ? null : Number(r.expires_at),
      slDirty: false,
      slot: -1,
    };
  }
}
