/**
 * Rules that must hold once the engine accepted something (node:assert): an order's life moves only
 * along its allowed transitions, accepted lots are positive and on the instrument's step, booked
 * amounts are integer micro-USD with margin and fee never negative, a fill is at a positive price.
 * A failed assertion is a fault of the engine, never a refusal of the user: inside a transaction it
 * rolls the booking back.
 */
import assert from "node:assert/strict";
import { decConst, type Dec } from "../money/decimal.js";
import { ST_CANCELLED, ST_CLOSED, ST_OPEN, ST_PENDING, type InstrumentSpec } from "./orders.js";

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

/** Lots of an accepted order: positive, on the instrument's step (Pip), units = lots x ContNum. */
export function assertAcceptedLots(
  lots: Dec,
  units: Dec,
  inst: Pick<InstrumentSpec, "pip" | "contNum">,
): void {
  assert(lots.isFinite() && lots.gt(0), `accepted lots ${lots} not positive`);
  const pip = decConst(inst.pip);
  assert(pip.lte(0) || lots.mod(pip).isZero(), `accepted lots ${lots} off the step ${pip}`);
  assert(units.eq(lots.mul(decConst(inst.contNum))), `units ${units} are not lots x ContNum`);
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
