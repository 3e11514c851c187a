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
import type { DB } from "../../platform/db.js";
import { DomainError } from "../../platform/errors.js";
import {
  LEDGER_KINDS,
  ledgerStatements,
  type LedgerKind,
  type LedgerStatements,
} from "./ledger.js";

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

/** Called with a user's balance after each change, inside the booking's transaction. */
export type BalanceListener = (userId: number, balanceMicro: number) => void;

export class MoneyService {
  private readonly st: LedgerStatements;
  private readonly listeners = new Set<BalanceListener>();
  /** Users booked inside the current MoneyService.transaction (re-announced when it rolls back). */
  private touched: Set<number> | null = null;
  private readonly txRunner: (fn: () => unknown) => unknown;

  constructor(private readonly db: DB) {
    this.st = ledgerStatements(db);
    this.txRunner = db.transaction((fn: () => unknown) => fn());
  }

  /**
   * Books one ledger row and moves the balance by `amountMicro`; returns the balance after (micro-USD).
   * Runs inside the caller's db transaction when there is one, otherwise in its own.
   */
  post(p: Posting): number {
    if (!Number.isSafeInteger(p.amountMicro))
      throw new Error(`amount is not an integer micro-USD value: ${p.amountMicro}`);
    if (!LEDGER_KINDS.includes(p.kind)) throw new Error(`unknown ledger kind: ${p.kind}`);
    if (!this.db.inTransaction) return this.transaction(() => this.post(p));
    const row = this.st.move.get(p.amountMicro, p.userId) as { balance_micro: number } | undefined;
    if (!row) throw new Error(`no such user ${p.userId}`);
    const after = row.balance_micro;
    if (!Number.isSafeInteger(after)) throw new Error(`balance out of range for user ${p.userId}`);
    if (p.floorMicro !== undefined && after < p.floorMicro)
      throw new DomainError(p.refusal ?? "insufficient_balance");
    this.st.insert.run(
      p.userId,
      p.amountMicro,
      after,
      p.kind,
      p.memo ?? null,
      p.ref ?? null,
      p.at ?? Date.now(),
    );
    this.touched?.add(p.userId);
    this.announce(p.userId, after);
    return after;
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
    if (!before) throw new Error(`no such user ${h.userId}`);
    if (before.balanceMicro - h.amountMicro < 0)
      throw new DomainError(h.refusal ?? "insufficient_balance");
    const after = this.st.hold.get({ amount: h.amountMicro, user: h.userId }) as Row;
    this.book(h, -h.amountMicro, after.balance_micro, "withdrawal_request");
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
    const after = this.st.hold.get({ amount: -h.amountMicro, user: h.userId }) as Row;
    this.book(h, h.amountMicro, after.balance_micro, "withdrawal_returned");
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
    return toBalances(this.st.release.get(h.amountMicro, h.userId) as Row);
  }

  /** The lock must hold what leaves it: anything else is a fault of the caller, not of the user. */
  private assertHeld(h: Hold): void {
    const before = this.balances(h.userId);
    if (!before) throw new Error(`no such user ${h.userId}`);
    if (before.lockMicro < h.amountMicro)
      throw new Error(
        `lock_balance of user ${h.userId} (${before.lockMicro}) is below ${h.amountMicro} (${h.ref})`,
      );
  }

  private book(h: Hold, amountMicro: number, balanceAfter: number, kind: LedgerKind): void {
    this.st.insert.run(
      h.userId,
      amountMicro,
      balanceAfter,
      kind,
      h.memo ?? null,
      h.ref,
      h.at ?? Date.now(),
    );
    this.touched?.add(h.userId);
    this.announce(h.userId, balanceAfter);
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
        if (b) this.announce(userId, b.balanceMicro);
      }
      throw err;
    } finally {
      this.touched = null;
    }
  }

  /** A user's balance and locked balance (micro-USD), or undefined for no such user. */
  balances(userId: number): Balances | undefined {
    const r = this.st.balances.get(userId) as
      { balance_micro: number; lock_balance_micro: number } | undefined;
    return r ? { balanceMicro: r.balance_micro, lockMicro: r.lock_balance_micro } : undefined;
  }

  /** Sum of a user's ledger rows (equal to the balance, always). */
  ledgerSum(userId: number): number {
    return (this.st.sum.get(userId) as { s: number }).s;
  }

  /** Listens to balance changes; returns the unsubscribe function. */
  onBalance(listener: BalanceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private announce(userId: number, balanceMicro: number): void {
    for (const l of this.listeners) l(userId, balanceMicro);
  }
}

interface Row {
  balance_micro: number;
  lock_balance_micro: number;
}

const toBalances = (r: Row): Balances => ({
  balanceMicro: r.balance_micro,
  lockMicro: r.lock_balance_micro,
});

function assertPositive(amountMicro: number): void {
  if (!Number.isSafeInteger(amountMicro) || amountMicro <= 0)
    throw new Error(`a held amount must be a positive integer micro-USD value: ${amountMicro}`);
}

const services = new WeakMap<DB, MoneyService>();

/** The money service of a store (one per store). */
export function moneyOf(db: DB): MoneyService {
  let m = services.get(db);
  if (!m) services.set(db, (m = new MoneyService(db)));
  return m;
}
