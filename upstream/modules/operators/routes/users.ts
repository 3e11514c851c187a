/** User lookup (GET /admin/api/users): by uid, e-mail or mobile, or the newest; with their money. */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import type { AppContext } from "../../../platform/context.js";
import { route } from "../../../platform/http/route.js";
import { wireTime } from "../../../platform/wire.js";
import { MICRO } from "../../money/decimal.js";
import { newestUsers, usersMatching, type UserListRow } from "../console-store.js";
import { extras } from "./shared.js";

/** How many users one lookup answers. */
const USERS_SHOWN = 20;

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userView = (u: UserListRow): api.AdminUser => {
    const f = ctx.engine.accountValues(u.id);
    return {
      id: u.id,
      uid: u.uid,
      email: u.email,
      mobile: u.mobile,
      is_demo: u.is_demo,
      created_at: wireTime(u.created_at),
      balance: f.balanceMicro / MICRO,
      lock_balance: f.lockMicro / MICRO,
      equity: f.equityMicro / MICRO,
      used_margin: f.usedMarginMicro / MICRO,
    };
  };

  route(
    app,
    api.users,
    async (req) => {
      const q = req.query.q ?? "";
      const rows = q
        ? usersMatching(ctx.db, { q, mobileDigits: q.replace(/\D/g, ""), limit: USERS_SHOWN })
        : newestUsers(ctx.db, { limit: USERS_SHOWN });
      return ctx.ok(req, rows.map(userView));
    },
    extras,
  );
}
