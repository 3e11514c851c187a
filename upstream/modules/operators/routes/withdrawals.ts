/**
 * The withdrawal queue (/admin/api/draws): list, approve (above what one operator may pay out alone,
 * money-controls.ts, it waits for a second operator), reject (the held amount goes back).
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import type { AppContext } from "../../../platform/context.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { WITHDRAW_STATUS } from "@contract/enums";
import { DomainError } from "../../../platform/errors.js";
import { assertMayPayOut, secondOperatorReason } from "../money-controls.js";
import { approveWithdrawal, audited, drawOwner } from "./actions.js";
import { pending, requestsOf } from "./four-eyes.js";
import { extras, queuePage } from "./shared.js";
import { drawView } from "./views.js";

export function registerWithdrawalRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { withdrawals } = ctx;
  const requests = requestsOf(ctx);

  route(
    app,
    api.draws,
    async (req) => {
      const { ids, total } = queuePage(ctx, "draws", req.query);
      return ctx.ok(req, { data: ids.map((id) => drawView(ctx, id)), total });
    },
    extras,
  );

  route(
    app,
    api.approveDraw,
    async (req) => {
      const op = operatorOf(req);
      const { id } = req.params;
      const d = drawOwner(ctx, id);
      if (d.status !== WITHDRAW_STATUS.REVIEWING) throw new DomainError("withdraw_already_decided");
      return ctx.money.transaction(() => {
        // Who put money into this account today pays none of it out, even with a second operator.
        assertMayPayOut(ctx.db, { actor: op.actor, userId: d.userId, nowMs: Date.now() });
        const reason = secondOperatorReason(ctx.db, {
          move: "withdrawal",
          actor: op.actor,
          userId: d.userId,
          amountMicro: d.amountMicro,
          nowMs: Date.now(),
        });
        if (reason !== null)
          return pending(ctx, requests, req, op, {
            kind: "draw.approve",
            permission: "money",
            target: `draw:${id}`,
            payload: { id },
            summary: reason,
            note: req.body.remark,
          });
        approveWithdrawal(ctx, op, id);
        return ctx.ok(req, drawView(ctx, id));
      });
    },
    extras,
  );

  route(
    app,
    api.rejectDraw,
    async (req) => {
      const op = operatorOf(req);
      const { id } = req.params;
      const d = drawOwner(ctx, id);
      const { remark } = req.body;
      audited(ctx, {
        op,
        action: "draw.reject",
        target: `draw:${id}`,
        userId: d.userId,
        run: () => withdrawals.reject(id, op.actor, remark),
        amountMicro: (r) => r.amountMicro,
        remark,
      });
      return ctx.ok(req, drawView(ctx, id));
    },
    extras,
  );
}
