/**
 * The one owner of balances. Every change of an account's balance (trading's fees, realised profit
 * and protection, demo resets, deposits, withdrawals, adjustments) is a call to MoneyService.post:
 * it writes the ledger row and moves users.balance_micro in the caller's transaction (or its own),
 * asserts the invariants, returns the balance after, and tells the listeners (the order engine's
 * in-memory accounts) at once, so risk checks never see a stale balance.
 *
 * One service per store (moneyOf(db)): every module that books on a store books through the same
 * instance, so the engine listening on it sees every change.
 */
import assert from "node:assert/strict";
import type { DB } from "../../platform/db.js";
import { DomainError } from "../../platform/errors.js";
import { LEDGER_KINDS, type LedgerKind } from "./ledger.js";
import { ledgerStore, type BalanceRow, type LedgerStore } from "./ledger-store.js";
import { expectChanges } from "../../platform/store/expect-changes.js";

export type { LedgerKind } from "./ledger.js";

export interface Posting {
  userId: number;
  /** Signed integer micro-USD. */
  amountMicro: number;
  kind: LedgerKind;
  /** Free text shown to operators (e.g. the reason of an adjustment). */
  memo?: string | null;
  /** What the row belongs to: "order:12", "deposit:7", "demo_reset"... */
  ref?: string | null;
  /** Epoch milliseconds of the booking (default now). */
  at?: number;
  /**
   * Refuse (DomainError `refusal`, default "insufficient_balance") when the balance after would be
   * below this many micro-USD: withdrawals pass 0 so that two requests cannot spend the same money.
   */
  floorMicro?: number;
  refusal?: string;
  /**
   * The user's balance before this posting as the caller holds it (the leader's engine: every
   * change reaches it from this service, and again after a rollback). Where writes wait, the move is
   * then written guarded on it and needs no answer from the store; a balance that differs fails
   * the batch instead of booking a wrong one. Ignored elsewhere.
   */
  heldMicro?: number;
}

/** Money held for a withdrawal: moved between balance and lock_balance. */
export interface Hold {
  userId: number;
  /** Positive integer micro-USD. */
  amountMicro: number;
  /** The request it belongs to: "draw:12". */
  ref: string;
  memo?: string | null;
  at?: number;
  /** The refusal when the balance cannot cover it (default "insufficient_balance"). */
  refusal?: string;
}

export interface Balances {
  balanceMicro: number;
  lockMicro: number;
}

/**
 * Called with a user's balance after each change, inside the booking's transaction, and with the
 * locked balance after it when that changed too (a withdrawal held, returned or paid out) or is
 * told again after a rollback; undefined when the change left the lock as it was.
 */
export type BalanceListener = (
  userId: number,
  balanceMicro: number,
  lockMicro: number | undefined,
) => void;

export class MoneyService {
  private readonly st: LedgerStore;
  private readonly listeners = new Set<BalanceListener>();
  /** Users booked inside the current MoneyService.transaction (re-announced when it rolls back). */
  private touched: Set<number> | null = null;
  private readonly txRunner: (fn: () => unknown) => unknown;
  /**
   * Balances (micro-USD) as the last write of this service inside a sequencer batch left them, on a
   * store whose writes wait there (PostgreSQL's write-behind): a posting then needs no answer from
   * the store. Each such write is guarded (it moves the balance only if it still is what memory
   * holds, checked when its result arrives), so a stale entry fails its batch instead of booking a
   * wrong balance. Forgotten whenever the store rolls anything back, and per user on every write
   * made outside a batch.
   */
  private readonly known = new Map<number, number>();

  constructor(private readonly db: DB) {
    this.st = ledgerStore(db);
    this.txRunner = db.transaction((fn: () => unknown) => fn());
    db.onRollback?.(() => this.known.clear());
  }

  /**
   * Books one ledger row and moves the balance by `amountMicro`; returns the balance after (micro-USD).
   * Runs inside the caller's db transaction when there is one, otherwise in its own.
   */
  post(p: Posting): number {
    assert(
      Number.isSafeInteger(p.amountMicro),
      `amount is not an integer micro-USD value: ${p.amountMicro}`,
    );
    assert(LEDGER_KINDS.includes(p.kind), `unknown ledger kind: ${p.kind}`);
    if (!this.db.inTransaction) return this.transaction(() => this.post(p));
    const after = this.move(p.userId, p.amountMicro, p.heldMicro);
    assert(Number.isSafeInteger(after), `balance out of range for user ${p.userId}`);
    if (p.floorMicro !== undefined && after < p.floorMicro)
      throw new DomainError(p.refusal ?? "insufficient_balance");
    this.book(p, p.amountMicro, after, p.kind);
    return after;
  }

  /** Moves a user's balance by `amountMicro`; the balance after. */
  private move(userId: number, amountMicro: number, heldMicro?: number): number {
    const before = this.knownBefore(userId, heldMicro);
    if (before === undefined) {
      const after = this.st.moveBalance({ userId, amountMicro });
      assert(after !== undefined, `no such user ${userId}`);
      this.remember(userId, after);
      return after;
    }
    const after = before + amountMicro;
    expectChanges(
      this.st.moveKnownBalance({ userId, amountMicro, beforeMicro: before }),
      1,
      `user ${userId}'s balance in memory (${before}) is not the stored one`,
    );
    this.known.set(userId, after);
    return after;
  }

  /** The balance a guarded move may start from: only where writes wait (see `known`). */
  private knownBefore(userId: number, heldMicro: number | undefined): number | undefined {
    if (!this.db.writesWait) return undefined;
    return heldMicro ?? this.known.get(userId);
  }

  /** Keeps a balance just written or read inside a batch; forgets it otherwise (see `known`). */
  private remember(userId: number, balanceMicro: number): void {
    if (this.db.writesWait) this.known.set(userId, balanceMicro);
    else this.known.delete(userId);
  }

  /**
   * Books many postings of distinct users at once, as many post() calls would in that order: one
   * balance statement and one ledger statement per ROWS_PER_STATEMENT postings. Returns each
   * posting's balance after, in order. Runs inside the caller's db transaction when there is one,
   * otherwise in its own; a floor refusal (floorMicro) undoes all of them with the transaction.
   */
  postMany(ps: readonly Posting[]): number[] {
    if (ps.length === 0) return [];
    if (!this.db.inTransaction) return this.transaction(() => this.postMany(ps));
    const users = new Set<number>();
    for (const p of ps) {
      assert(
        Number.isSafeInteger(p.amountMicro),
        `amount is not an integer micro-USD value: ${p.amountMicro}`,
      );
      assert(LEDGER_KINDS.includes(p.kind), `unknown ledger kind: ${p.kind}`);
      // One UPDATE row per user: a user twice would be moved once (UPDATE … FROM takes one match).
      assert(!users.has(p.userId), `user ${p.userId} posted twice in one postMany`);
      users.add(p.userId);
    }
    const moved = this.moveMany(ps);
    // Every posting moved exactly one stored balance.
    assert.equal(moved.size, ps.length, "postMany moved a balance of no such user");
    const after = ps.map((p) => {
      const a = moved.get(p.userId);
      assert(a !== undefined, `no such user ${p.userId}`);
      assert(Number.isSafeInteger(a), `balance out of range for user ${p.userId}`);
      if (p.floorMicro !== undefined && a < p.floorMicro)
        throw new DomainError(p.refusal ?? "insufficient_balance");
      return a;
    });
    const now = Date.now();
    this.st.insertRows(
      ps.map((p, i) => ({
        userId: p.userId,
        amountMicro: p.amountMicro,
        balanceAfterMicro: after[i],
        kind: p.kind,
        memo: p.memo ?? null,
        ref: p.ref ?? null,
        createdAt: p.at ?? now,
      })),
    );
    // As book() does for one row: rolled-back users are re-announced, listeners learn the balance.
    for (let i = 0; i < ps.length; i++) {
      this.touched?.add(ps[i].userId);
      this.announce(ps[i].userId, after[i]);
    }
    return after;
  }

  /**
   * Moves the balances of postMany's postings (distinct users); each user's balance after. Where
   * writes wait and every balance before is known, one guarded statement per slice needing no
   * answer; otherwise the statements answer the balances after.
   */
  private moveMany(ps: readonly Posting[]): Map<number, number> {
    const before = ps.map((p) => this.knownBefore(p.userId, p.heldMicro));
    if (before.every((b): b is number => b !== undefined)) {
      const moves = ps.map((p, i) => ({ ...p, beforeMicro: before[i] }));
      this.st.moveKnownBalances(moves, "a balance in memory is not the stored one");
      const after = new Map(moves.map((m) => [m.userId, m.beforeMicro + m.amountMicro]));
      for (const [userId, balanceMicro] of after) this.known.set(userId, balanceMicro);
      return after;
    }
    const moved = this.st.moveBalances(ps);
    for (const [userId, balanceMicro] of moved) this.remember(userId, balanceMicro);
    return moved;
  }

  /**
   * Holds money for a withdrawal: moves `amountMicro` from the balance into lock_balance, with its
   * ledger row (kind withdrawal_request, the amount negative: the balance went down). Refused when
   * the balance after would be below 0, so two requests can never hold the same money.
   */
  hold(h: Hold): Balances {
    assertPositive(h.amountMicro);
    if (!this.db.inTransaction) return this.transaction(() => this.hold(h));
    // Checked before anything is written, so a caller that catches the refusal keeps a clean store.
    const before = this.balances(h.userId);
    assert(before, `no such user ${h.userId}`);
    if (before.balanceMicro - h.amountMicro < 0)
      throw new DomainError(h.refusal ?? "insufficient_balance");
    const after = this.st.shiftToLock({ userId: h.userId, amountMicro: h.amountMicro });
    this.remember(h.userId, after.balance_micro);
    // Funds locked at request: the balance went down and the lock up by exactly the amount.
    assert.equal(after.balance_micro, before.balanceMicro - h.amountMicro);
    assert.equal(after.lock_balance_micro, before.lockMicro + h.amountMicro);
    assert(after.balance_micro >= 0, `hold of ${h.ref} took the balance below 0`);
    this.book(
      h,
      -h.amountMicro,
      after.balance_micro,
      "withdrawal_request",
      after.lock_balance_micro,
    );
    return toBalances(after);
  }

  /**
   * Returns held money to the balance (a withdrawal rejected or cancelled), with its ledger row
   * (kind withdrawal_returned). The lock must hold at least that much.
   */
  unhold(h: Hold): Balances {
    assertPositive(h.amountMicro);
    if (!this.db.inTransaction) return this.transaction(() => this.unhold(h));
    this.assertHeld(h);
    const after = this.st.shiftToLock({ userId: h.userId, amountMicro: -h.amountMicro });
    this.remember(h.userId, after.balance_micro);
    assert(after.lock_balance_micro >= 0, `unhold of ${h.ref} took the lock below 0`);
    this.book(
      h,
      h.amountMicro,
      after.balance_micro,
      "withdrawal_returned",
      after.lock_balance_micro,
    );
    return toBalances(after);
  }

  /**
   * Pays held money out (a withdrawal approved): lock_balance goes down; the balance, and so the
   * ledger, does not change (the withdrawal_request row already took it from the balance).
   */
  payOut(h: Hold): Balances {
    assertPositive(h.amountMicro);
    if (!this.db.inTransaction) return this.transaction(() => this.payOut(h));
    this.assertHeld(h);
    const after = this.st.releaseLock({ userId: h.userId, amountMicro: h.amountMicro });
    this.remember(h.userId, after.balance_micro);
    assert(after.lock_balance_micro >= 0, `payout of ${h.ref} took the lock below 0`);
    this.touched?.add(h.userId);
    this.announce(h.userId, after.balance_micro, after.lock_balance_micro);
    return toBalances(after);
  }

  /** The lock must hold what leaves it: anything else is a fault of the caller, not of the user. */
  private assertHeld(h: Hold): void {
    const before = this.balances(h.userId);
    assert(before, `no such user ${h.userId}`);
    assert(
      before.lockMicro >= h.amountMicro,
      `lock_balance of user ${h.userId} (${before.lockMicro}) is below ${h.amountMicro} (${h.ref})`,
    );
  }

  /** Appends the ledger row of a balance change already made, and tells the listeners. */
  private book(
    on: { userId: number; memo?: string | null; ref?: string | null; at?: number },
    amountMicro: number,
    balanceAfterMicro: number,
    kind: LedgerKind,
    lockAfterMicro?: number,
  ): void {
    this.st.insertRow({
      userId: on.userId,
      amountMicro,
      balanceAfterMicro,
      kind,
      memo: on.memo ?? null,
      ref: on.ref ?? null,
      createdAt: on.at ?? Date.now(),
    });
    this.touched?.add(on.userId);
    this.announce(on.userId, balanceAfterMicro, lockAfterMicro);
  }

  /**
   * Runs fn in one db transaction (nested calls join the outer one). When it throws, the balances
   * announced during it are announced again as the store holds them after the rollback.
   */
  transaction<T>(fn: () => T): T {
    if (this.touched) return fn();
    this.touched = new Set();
    const touched = this.touched;
    try {
      return this.txRunner(fn) as T;
    } catch (err) {
      for (const userId of touched) {
        const b = this.balances(userId);
        if (b) this.announce(userId, b.balanceMicro, b.lockMicro);
      }
      throw err;
    } finally {
      this.touched = null;
    }
  }

  /** A user's balance and locked balance (micro-USD), or undefined for no such user. */
  balances(userId: number): Balances | undefined {
    const r = this.st.balances(userId);
    if (r) this.remember(userId, r.balance_micro);
    return r ? toBalances(r) : undefined;
  }

  /** Sum of a user's ledger rows (equal to the balance, always). */
  ledgerSum(userId: number): number {
    return this.st.sum(userId);
  }

  /** Listens to balance changes; returns the unsubscribe function. */
  onBalance(listener: BalanceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private announce(userId: number, balanceMicro: number, lockMicro?: number): void {
    for (const l of this.listeners) l(userId, balanceMicro, lockMicro);
  }
}

const toBalances = (r: BalanceRow): Balances => ({
  balanceMicro: r.balance_micro,
  lockMicro: r.lock_balance_micro,
});

function assertPositive(amountMicro: number): void {
  assert(
    Number.isSafeInteger(amountMicro) && amountMicro > 0,
    `a held amount must be a positive integer micro-USD value: ${amountMicro}`,
  );
}

const services = new WeakMap<DB, MoneyService>();

/** The money service of a store (one per store). */
export function moneyOf(db: DB): MoneyService {
  let m = services.get(db);
  if (!m) services.set(db, (m = new MoneyService(db)));
  return m;
}
