/**
 * Rules that must hold once the engine accepted something (node:assert): an order's life moves only
 * along its allowed transitions, booked amounts are integer micro-USD with margin and fee never
 * negative, a fill is at a positive price. (Accepted lots are orders.ts validateLots's one check.)
 * A failed assertion is a fault of the engine, never a refusal of the user: inside a transaction it
 * rolls the booking back.
 */
import assert from "node:assert/strict";
import { ST_CANCELLED, ST_CLOSED, ST_OPEN, ST_PENDING } from "./orders.js";

/** The statuses an order may move to from each status: pending fills or is cancelled, open closes. */
const NEXT: Readonly<Record<number, readonly number[]>> = {
  [ST_PENDING]: [ST_OPEN, ST_CANCELLED],
  [ST_OPEN]: [ST_CLOSED],
  [ST_CLOSED]: [],
  [ST_CANCELLED]: [],
};

export function assertTransition(id: number, from: number, to: number): void {
  assert(NEXT[from]?.includes(to), `order ${id}: no transition from status ${from} to ${to}`);
}

/** The amounts of opening a position: integer micro-USD, margin and fee not negative. */
export function assertOpenAmounts(marginMicro: number, feeMicro: number): void {
  assert(Number.isSafeInteger(marginMicro) && marginMicro >= 0, `margin ${marginMicro} negative`);
  assert(Number.isSafeInteger(feeMicro) && feeMicro >= 0, `fee ${feeMicro} negative`);
}

/** A price an order fills or closes at: finite and positive. */
export function assertPrice(price: number, what: string): void {
  assert(Number.isFinite(price) && price > 0, `${what} price ${price} not positive`);
}
