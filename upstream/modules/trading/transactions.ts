/**
 * The engine's transactions: one store transaction per command, one per tick's bookings (a
 * "booking group"). Inside a group every in-memory change records its inverse, so a failure rolls
 * store and memory back together; events wait for the commit either way.
 *
 * Inside the sequencer's batch (platform/store/sequencer.ts) a command's transaction and a booking
 * group are savepoints of the batch's transaction: a failure still rolls back store and memory of
 * that command together, and its events wait for the batch's commit (afterCommit), not for the
 * savepoint's release. The same events reach `decided`'s listeners as soon as the command
 * succeeded, as follow-up commands of the same batch (afterCommand): outside a batch, at once
 * after the commit, before the other listeners.
 */
import assert from "node:assert/strict";
import type { DB } from "../../platform/db.js";
import { afterCommand, afterCommit, inBatch } from "../../platform/store/sequencer.js";
import type { MoneyService } from "../money/service.js";
import type { EngineEventMap, EngineEventName, EngineEvents } from "./events.js";

interface Group {
  /** Steps undoing the group's in-memory changes, newest last. */
  undo: (() => void)[];
  /** Its events, emitted once the group committed. */
  events: (() => void)[];
}

export class Transactions {
  /** The booking group under way; null outside one. */
  private group: Group | null = null;

  constructor(
    private readonly db: DB,
    private readonly money: MoneyService,
    private readonly events: EngineEvents,
    /** The same events, once the command that caused them succeeded (see EngineCore.decided). */
    private readonly decided: EngineEvents,
  ) {}

  /** Runs fn in one transaction of the money service (a rollback re-announces the balances). */
  run<T>(fn: () => T): T {
    return this.money.transaction(fn);
  }

  /**
   * Runs fn as one transaction whose in-memory changes are undone when it fails: every change of
   * the holdings made inside records its inverse (undoable); balances come back through the money
   * service, which re-announces them from the store after a rollback. Events are emitted only once
   * the commit has returned.
   */
  atomically(fn: () => void): void {
    assert(this.group === null, "booking groups do not nest");
    assert(!this.db.inTransaction || inBatch(this.db), "a booking group is its own transaction");
    const g: Group = { undo: [], events: [] };
    this.group = g;
    try {
      this.run(fn);
    } catch (err) {
      this.group = null;
      for (let i = g.undo.length - 1; i >= 0; i--) g.undo[i]();
      throw err;
    }
    this.group = null;
    assert(!this.db.inTransaction || inBatch(this.db), "the group committed");
    for (const e of g.events) e();
  }

  /** Records the inverse of an in-memory change while a booking group is under way. */
  undoable(step: () => void): void {
    this.group?.undo.push(step);
  }

  /** Announces an event: at once outside a group, after the group's commit inside one. */
  emit<K extends EngineEventName>(name: K, e: EngineEventMap[K]): void {
    const announce = () => {
      // A follow-up command only when a listener acts on it (most orders concern none).
      if (this.decided.wants(name, e)) afterCommand(this.db, () => this.decided.emit(name, e));
      afterCommit(this.db, () => this.events.emit(name, e));
    };
    if (this.group) {
      this.group.events.push(announce);
      return;
    }
    assert(!this.db.inTransaction || inBatch(this.db), `event ${name} emitted before the commit`);
    announce();
  }
}
