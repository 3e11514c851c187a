/** The withdrawal queue (/admin/api/draws): list, approve, reject (the held amount goes back). */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import type { AppContext } from "../../../platform/context.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { audited, drawOwner } from "./actions.js";
import { extras, queuePage } from "./shared.js";
import { drawView } from "./views.js";

export function registerWithdrawalRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { withdrawals } = ctx;

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
      audited(ctx, {
        op,
        action: "draw.approve",
        target: `draw:${id}`,
        userId: d.userId,
        run: () => withdrawals.approve(id, op.actor),
        amountMicro: (r) => r.amountMicro,
        remark: null,
      });
      return ctx.ok(req, drawView(ctx, id));
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
