/**
 * What the order engine announces. The engine knows nothing of HTTP or websockets: it emits these
 * events through a small typed emitter, and whoever cares (the websocket pushes of pushes.ts)
 * subscribes. Listeners run synchronously after the change is committed; a throwing listener is
 * logged by the emitter and never undoes the change.
 */
import type { CloseReason } from "./orders.js";

export interface EngineEventMap {
  /** A market order filled (pending: false) or a pending order was placed (pending: true). */
  orderPlaced: { userId: number; orderId: number; pending: boolean };
  /** A pending order was reached and filled at `price`. */
  orderActivated: { userId: number; orderId: number; price: number };
  /** A pending order was cancelled (by the user, a demo reset, or for want of free margin). */
  orderCancelled: { userId: number; orderId: number; reason: CloseReason };
  /** Open positions of a user were closed (by the user, TP/SL, stop-out or a demo reset). */
  positionsClosed: { userId: number; orderIds: number[]; reason: CloseReason };
  /** Take-profit / stop-loss, or the trailing stop and break-even, of an order changed (by a command). */
  stopsChanged: { userId: number; orderId: number };
  /**
   * Part of an open position was closed (partial close): `lots` of the `lotsBefore` it held (exact
   * decimal text), stored as the closed order `partId`; the position stays open with the rest.
   */
  positionReduced: {
    userId: number;
    orderId: number;
    partId: number;
    lots: string;
    lotsBefore: string;
    reason: CloseReason;
  };
}

export type EngineEventName = keyof EngineEventMap;
type Listener<K extends EngineEventName> = (e: EngineEventMap[K]) => void;

export class EngineEvents {
  private readonly listeners = new Map<EngineEventName, Set<(e: never) => void>>();
  /** Per listener that gave one, whether an event concerns it (wants). */
  private readonly filters = new Map<(e: never) => void, (e: never) => boolean>();

  constructor(
    private readonly onListenerError: (err: unknown, event: EngineEventName) => void = () => {},
  ) {}

  /**
   * Subscribes to one event; returns the unsubscribe function. `concerns`, when given, says
   * cheaply whether an event is for this listener at all (wants), so that what an event would cost
   * to deliver (a follow-up command, EngineCore.decided) is only paid when some listener acts.
   */
  on<K extends EngineEventName>(
    name: K,
    fn: Listener<K>,
    concerns?: (e: EngineEventMap[K]) => boolean,
  ): () => void {
    let set = this.listeners.get(name) as Set<Listener<K>> | undefined;
    if (!set) this.listeners.set(name, (set = new Set()) as Set<(e: never) => void>);
    set.add(fn);
    if (concerns) this.filters.set(fn as (e: never) => void, concerns as (e: never) => boolean);
    return () => {
      set.delete(fn);
      this.filters.delete(fn as (e: never) => void);
    };
  }

  /** Whether some listener of `name` is concerned by `e` (one without a filter always is). */
  wants<K extends EngineEventName>(name: K, e: EngineEventMap[K]): boolean {
    const set = this.listeners.get(name);
    if (!set) return false;
    for (const fn of set) {
      const concerns = this.filters.get(fn) as ((e: EngineEventMap[K]) => boolean) | undefined;
      if (!concerns || concerns(e)) return true;
    }
    return false;
  }

  emit<K extends EngineEventName>(name: K, e: EngineEventMap[K]): void {
    const set = this.listeners.get(name) as Set<Listener<K>> | undefined;
    if (!set) return;
    for (const fn of set) {
      try {
        fn(e);
      } catch (err) {
        this.onListenerError(err, name);
      }
    }
  }
}
