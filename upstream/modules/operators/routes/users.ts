/**
 * User lookup (GET /admin/api/users): by uid, e-mail or mobile, or the newest; with their money.
 * A user's two-factor reset (POST /admin/api/users/two_factor_reset), filed for a second operator.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import type { AppContext } from "../../../platform/context.js";
import { route } from "../../../platform/http/route.js";
import { wireTime } from "../../../platform/wire.js";
import { MICRO } from "../../money/decimal.js";
import { newestUsers, usersMatching, type UserListRow } from "../console-store.js";
import { extras, notFound } from "./shared.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { DomainError } from "../../../platform/errors.js";
import { userIdByUid } from "../console-store.js";
import { securityOf } from "../../identity/security-routes.js";
import { pending, requestsOf } from "./four-eyes.js";

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

  const requests = requestsOf(ctx);
  route(
    app,
    api.resetTwoFactor,
    async (req) => {
      const op = operatorOf(req);
      const userId = userIdByUid(ctx.db, { uid: req.body.uid });
      if (userId === null) throw notFound();
      // Refused now when there is nothing to reset, never filed for a second operator.
      if (!securityOf(ctx).isOn(userId)) throw new DomainError("security.two_factor_off");
      return pending(ctx, requests, req, op, {
        kind: "two_factor.reset",
        permission: "support",
        target: `user:${userId}`,
        payload: { userId },
        summary: `two-factor reset of ${req.body.uid}`,
        note: req.body.remark,
      });
    },
    extras,
  );
}
