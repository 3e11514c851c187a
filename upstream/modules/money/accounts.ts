/** Deposits, withdrawals and the wallet are for real accounts only. */
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import { userIsDemo } from "./account-store.js";

/** Refuses a user that does not exist (not_found) or a demo account (demo_only_true_account). */
export function requireRealAccount(db: DB, userId: number): void {
  const demo = userIsDemo(db, { userId });
  if (demo === undefined) throw new DomainError("not_found", CODE.NOT_FOUND);
  if (demo) throw new DomainError("demo_only_true_account");
}
