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
  /** Take-profit / stop-loss of an order changed. */
  stopsChanged: { userId: number; orderId: number };
}

export type EngineEventName = keyof EngineEventMap;
type Listener<K extends EngineEventName> = (e: EngineEventMap[K]) => void;

export class EngineEvents {
  private readonly listeners = new Map<EngineEventName, Set<(e: never) => void>>();

  constructor(
    private readonly onListenerError: (err: unknown, event: EngineEventName) => void = () => {},
  ) {}

  /** Subscribes to one event; returns the unsubscribe function. */
  on<K extends EngineEventName>(name: K, fn: Listener<K>): () => void {
    let set = this.listeners.get(name) as Set<Listener<K>> | undefined;
    if (!set) this.listeners.set(name, (set = new Set()) as Set<(e: never) => void>);
    set.add(fn);
    return () => set.delete(fn);
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
