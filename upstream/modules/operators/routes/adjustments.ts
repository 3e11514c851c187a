/**
 * Adjustments of a user's balance (POST /admin/api/adjustments): idempotent by key; above the
 * four-eyes amount (either sign, alone or with the user's other adjustments that day) or above what
 * the operator may move alone that day (money-controls.ts), a second operator books it.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import type { Envelope } from "@contract/envelope";
import type { AppContext } from "../../../platform/context.js";
import { idempotencyKeyOf } from "../../../platform/http/params.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { Idempotency } from "../../../platform/idempotency.js";
import { dec, MICRO, usdToMicro } from "../../money/decimal.js";
import { userIdByUid } from "../console-store.js";
import { secondOperatorReason } from "../money-controls.js";
import { assertAdjustable, bookAdjustment } from "./actions.js";
import { pending, requestsOf } from "./four-eyes.js";
import { DomainError } from "../../../platform/errors.js";
import { extras, INVALID, notFound } from "./shared.js";

/** A signed amount other than zero as posted ("-12.50"; its schema bounds it), in micro-USD. */
const signedAmountOf = (amount: string): number => usdToMicro(amount);

export function registerAdjustmentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const idem = new Idempotency(ctx.db);
  const requests = requestsOf(ctx);

  route(
    app,
    api.adjustments,
    async (req) => {
      const op = operatorOf(req);
      const { uid, remark } = req.body;
      const userId = userIdByUid(ctx.db, { uid });
      if (userId === null) throw notFound();
      assertAdjustable(ctx.db, userId);
      const amountMicro = signedAmountOf(req.body.amount);
      const key = idempotencyKeyOf(req, req.body, INVALID);
      // The same key again (a double click, a resubmitted form, a retried time-out) answers the
      // first booking's row and books nothing; with another body it is refused (422).
      const params = { actor: op.actor, uid, amountMicro, remark };
      return ctx.money.transaction(() => {
        const seen = idem.lookup<Envelope>(userId, key, "admin.adjustment", params);
        if (seen) return seen;
        // A debit the balance cannot take is refused now, never filed for a second operator.
        if (amountMicro < 0 && ctx.money.balances(userId)!.balanceMicro + amountMicro < 0)
          throw new DomainError("insufficient_balance");
        // Above the four-eyes amount (either sign, this one alone or with the user's others today),
        // or above what the operator may move alone today: a second operator books it.
        const reason = secondOperatorReason(ctx.db, {
          move: "adjustment",
          actor: op.actor,
          userId,
          amountMicro,
          nowMs: Date.now(),
        });
        const fresh =
          reason !== null
            ? pending(ctx, requests, req, op, {
                kind: "adjustment",
                permission: "money",
                target: `user:${userId}`,
                payload: { userId, amountMicro, remark },
                summary: `${amountMicro > 0 ? "+" : ""}${dec(amountMicro).div(MICRO).toFixed(2)} USD: ${reason}`,
                note: remark,
              })
            : ctx.ok(req, bookAdjustment(ctx, op, { userId, amountMicro, remark }));
        idem.store(userId, key, "admin.adjustment", params, fresh);
        return fresh;
      });
    },
    extras,
  );
}
