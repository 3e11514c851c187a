/** The identity module's wire views of a user: the signed-in user's summary, display amounts. */
import Decimal from "decimal.js";
import { MICRO } from "../money/ledger.js";
import type { UserRecord } from "./store.js";

/** Micro-USD integer to a JSON number rounded to 6 decimals (display only, never booked). */
export function microToNumber(micro: number): number {
  return new Decimal(micro).div(MICRO).toDecimalPlaces(6).toNumber();
}

export function loginView(u: UserRecord) {
  return {
    id: u.id,
    uid: u.uid,
    email: u.email,
    mobile: u.mobile,
    area_id: u.area_id,
    is_demo: u.is_demo,
    invite_code: u.invite_code,
  };
}
