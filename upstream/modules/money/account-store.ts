/** The money module's one read of a user: whether the account exists, and whether it is a demo. */
import type { DB } from "../../platform/db.js";

/** Whether the user is a demo account; undefined when there is no such user. */
export function userIsDemo(db: DB, p: { userId: number }): boolean | undefined {
  const r = db.prepare("SELECT is_demo FROM users WHERE id = @userId").get(p) as
    { is_demo: number } | undefined;
  return r ? r.is_demo !== 0 : undefined;
}
