/**
 * The armed price alerts in memory, indexed as the engine indexes pending orders (book.ts
 * PendingIndex): per instrument, three arrays sorted by (target, id): `above` alerts, `below`
 * alerts and `change` alerts. A tick visits only what its price reaches: the `above` alerts with a
 * target at or below the price (a prefix), the `below` alerts with a target at or above it (a
 * suffix), the `change` alerts with a target at or below the day's change in percent, either way
 * (a prefix). A tick that reaches nothing costs three binary searches per instrument that ticked.
 *
 * Invariant: an alert is in `byId` exactly when it is in its instrument's array of its condition.
 */
import assert from "node:assert/strict";
import type { AlertCondition } from "@contract/api/alerts-rules";

export interface Armed {
  id: number;
  userId: number;
  instrumentId: number;
  code: string;
  condition: AlertCondition;
  /** The price (above, below) or the percentage (change). */
  target: number;
  /** Fires again after its cool-down (else once). */
  repeat: boolean;
  cooldownMs: number;
  /** ms; null: until cancelled. */
  expiresAt: number | null;
}

/** Alerts sorted by (target, id) ascending. */
class SortedAlerts {
  readonly items: Armed[] = [];

  /** First index whose key is >= (target, id). */
  private lowerBound(target: number, id: number): number {
    const a = this.items;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = a[mid];
      if (m.target < target || (m.target === target && m.id < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(a: Armed): void {
    this.items.splice(this.lowerBound(a.target, a.id), 0, a);
  }

  remove(a: Armed): void {
    const i = this.lowerBound(a.target, a.id);
    assert(this.items[i] === a, `price alert ${a.id} missing from its index`);
    this.items.splice(i, 1);
  }

  /** Takes out the alerts with a target at or below `x` (a prefix). */
  takeAtOrBelow(x: number, out: Armed[]): void {
    const n = this.lowerBound(x, Infinity);
    if (n === 0) return;
    for (const a of this.items.splice(0, n)) out.push(a);
  }

  /** Takes out the alerts with a target at or above `x` (a suffix). */
  takeAtOrAbove(x: number, out: Armed[]): void {
    const i = this.lowerBound(x, -Infinity);
    if (i === this.items.length) return;
    for (const a of this.items.splice(i)) out.push(a);
  }
}

interface InstrumentAlerts {
  above: SortedAlerts;
  below: SortedAlerts;
  change: SortedAlerts;
}

export class AlertIndex {
  private readonly byInstrument = new Map<number, InstrumentAlerts>();
  private readonly byId = new Map<number, Armed>();

  get size(): number {
    return this.byId.size;
  }

  add(a: Armed): void {
    assert(!this.byId.has(a.id), `price alert ${a.id} armed twice`);
    let s = this.byInstrument.get(a.instrumentId);
    if (!s) {
      s = { above: new SortedAlerts(), below: new SortedAlerts(), change: new SortedAlerts() };
      this.byInstrument.set(a.instrumentId, s);
    }
    s[a.condition].add(a);
    this.byId.set(a.id, a);
  }

  /** Disarms an alert; the alert, or undefined when it was not armed. */
  remove(id: number): Armed | undefined {
    const a = this.byId.get(id);
    if (!a) return undefined;
    this.byInstrument.get(a.instrumentId)![a.condition].remove(a);
    this.byId.delete(id);
    return a;
  }

  /** Every armed alert (the expiry sweep's walk). */
  all(): IterableIterator<Armed> {
    return this.byId.values();
  }

  /**
   * Takes out (disarms) every alert of `instrumentId` that `price` and the day's `changePct`
   * reach, appending them to `out`.
   */
  take(instrumentId: number, price: number, changePct: number, out: Armed[]): void {
    const s = this.byInstrument.get(instrumentId);
    if (!s) return;
    const start = out.length;
    s.above.takeAtOrBelow(price, out);
    s.below.takeAtOrAbove(price, out);
    if (Number.isFinite(changePct)) s.change.takeAtOrBelow(Math.abs(changePct), out);
    for (let i = start; i < out.length; i++) this.byId.delete(out[i].id);
  }
}
